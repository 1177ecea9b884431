package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParse feeds the suite loader the shipped suites and their mutations:
// it must refuse with an error, never panic or hang, and what it accepts must
// hold the invariants the runner relies on.
func FuzzParse(f *testing.F) {
	scen := filepath.Join("..", "..", "scenarios")
	files, _ := filepath.Glob(filepath.Join(scen, "suites", "*.yaml"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("workloads: [workloada]\ndata: {recordcount: 1000}\npairs: {initial: 0}\n"))
	f.Add([]byte("workloads: [/etc/passwd]\ndata: {recordcount: 1000}\nrun: {max_error_rate: 150%}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tm := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("suite loader hung on %q", b)) })
		defer tm.Stop()
		s, err := Parse(b, scen)
		if err != nil {
			return
		}
		p, r := s.Pairs, s.Run
		if p.Initial < 2 || p.Max < p.Initial || p.Looks < 1 || p.Looks > p.Max-p.Initial+1 ||
			r.Threads < 1 || r.MaxErrorRate < 0 || r.MaxErrorRate > 1 || r.Measure <= 0 ||
			s.Data.RecordCount < 1 || s.Data.Regions < 1 || s.Data.FieldCount < 1 || s.Load.BatchSize < 1 ||
			s.Compare.Alpha <= 0 || s.Compare.Alpha >= 0.5 || len(s.Workloads) == 0 {
			t.Fatalf("accepted a suite the runner cannot run: %+v", s)
		}
		for _, w := range s.Workloads {
			if !filepath.IsLocal(w) {
				t.Fatalf("accepted workload %q outside the scenarios directory", w)
			}
		}
		if _, err := s.Fingerprint(); err != nil {
			t.Fatalf("accepted suite has no fingerprint: %v", err)
		}
	})
}
