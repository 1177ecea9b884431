package docscheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

var writeFixture = flag.Bool("write-fixture", false, "rewrite testdata/store, the stored results the docs' examples compare and plan from")

// fixtureSides are the stored targets of testdata/store: two alike and one
// twice as slow, so the docs can show a PASS and a REGRESSION.
var fixtureSides = []struct {
	label  string
	factor float64
	order  int
}{
	{"example-2.6.0", 1.0, 0},
	{"example-2.6.1", 1.0, 1},
	{"example-2.6.1-slow", 2.0, 1},
}

// TestWriteFixture regenerates testdata/store with -write-fixture; without
// it, it checks that the committed store still holds every fixture side.
func TestWriteFixture(t *testing.T) {
	root := filepath.Join(repoRoot(t), "testdata", "store")
	if *writeFixture {
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
	}
	st, err := results.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range fixtureSides {
		if *writeFixture {
			storeFixtureSide(t, st, s.label, s.factor, 8, s.order)
		}
		if _, err := st.Resolve(s.label, "example"); err != nil {
			t.Errorf("testdata/store lacks %s (go test ./harness/docscheck -run TestWriteFixture -write-fixture rewrites it): %v", s.label, err)
		}
	}
}

// storeFixtureSide stores k trials of workload C at a held 1000 ops/s whose
// latencies are factor times a fixed profile, with a little pair-to-pair noise.
func storeFixtureSide(t *testing.T, st *results.Store, label string, factor float64, k, order int) {
	t.Helper()
	m := &results.Manifest{Version: "2.6.1", Label: label, Provider: "local", Source: "regress",
		Suite: results.SuiteInfo{Name: "example", Fingerprint: "e0a1b2c3d4e5f607", DataSpec: "rows=1000"}}
	if _, err := st.Ensure(m); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range k {
		noise := 1 + 0.01*float64(((i+3*order)*7)%5-2) // the sides differ pair by pair
		lat := results.Latency{P50Micros: 1000 * factor * noise, P95Micros: 3000 * factor * noise, P99Micros: 5000 * factor * noise,
			P999Micros: 9000 * factor * noise, MaxMicros: 20000 * factor, MinMicros: 100, MeanMicros: 1300 * factor * noise}
		o := (order + i) % 2
		tr := results.Trial{ID: fmt.Sprintf("%s-%d", label, i), RunID: "run1", Workload: "workloadc", Pair: i, Order: o,
			Start: base.Add(time.Duration(2*i+o) * time.Minute), DurationMillis: 60000,
			TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000 * (1 - 0.01*float64(i%3)),
			Ops: map[string]results.OpStats{"READ": {Count: 60000, Statuses: map[string]int64{"OK": 60000}, Intended: lat, Service: lat}}}
		if _, err := st.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// repoRoot is the directory holding go.mod above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
