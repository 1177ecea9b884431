package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest edited and re-signed to hold a figure no run stores (1e308,
// which overflowed compare's statistics and the JSON report; a negative
// count or latency; pair -1; an empty id) is damaged for `results check`
// and for compare alike, the trial and field named.
func TestFiguresNoRunStoresAreDamage(t *testing.T) {
	tests := []struct {
		name string
		edit func(tr *Trial)
		want string
	}{
		{"an enormous p99", func(tr *Trial) { op := tr.Ops["READ"]; op.Intended.P99Micros = 1e308; tr.Ops["READ"] = op }, `trial.ops[READ].intended.p99_us is 1e+308`},
		{"an enormous rate", func(tr *Trial) { tr.AchievedOpsPerSec = 1e300 }, "trial.achieved_ops_per_sec is 1e+300"},
		{"an enormous server cost", func(tr *Trial) { tr.Server = &ServerStats{CPUPerOpMicros: -1e200} }, "trial.server.cpu_per_op_us is -1e+200"},
		{"a negative latency", func(tr *Trial) { op := tr.Ops["READ"]; op.Service.P50Micros = -3; tr.Ops["READ"] = op }, "a latency of -3"},
		{"a negative count", func(tr *Trial) { op := tr.Ops["READ"]; op.Count = -1; tr.Ops["READ"] = op }, "count -1"},
		{"more errors than operations", func(tr *Trial) { op := tr.Ops["READ"]; op.Errors = op.Count + 1; tr.Ops["READ"] = op }, "errors more than the operations"},
		{"a negative status count", func(tr *Trial) { tr.Ops["READ"].Statuses["OK"] = -5 }, `status "OK" counts -5`},
		{"pair -1", func(tr *Trial) { tr.Pair = -1 }, "pair -1"},
		{"order 2", func(tr *Trial) { tr.Order = 2 }, "order 2"},
		{"an empty id", func(tr *Trial) { tr.ID = "" }, "an empty id"},
		{"an empty run id", func(tr *Trial) { tr.RunID = "" }, "a measured trial of no run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			m := testManifest()
			m.Schema = SchemaVersion
			tr := testTrial("t1", 0)
			tc.edit(&tr)
			m.Trials = []Trial{testTrial("t0", 1), tr}
			b, err := EncodeManifest(m)
			if err != nil {
				t.Fatal(err)
			}
			dir := s.Dir(KeyOf(m))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, manifestFile), b, 0o644); err != nil {
				t.Fatal(err)
			}
			sts, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			if len(sts) != 1 || sts[0].Err == nil || !strings.Contains(sts[0].Err.Error(), tc.want) {
				t.Errorf("check: %+v, want the entry DAMAGED saying %q", sts, tc.want)
			}
			if _, err := s.Resolve(m.Version, ""); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("compare's read: %v, want it refused saying %q", err, tc.want)
			}
		})
	}
}
