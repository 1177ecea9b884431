package compare

import (
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// Trials above the error rate make the comparison INVALID whatever their
// numbers say, their latencies gone (no OK operation recorded one) or not.
func TestTrialsAboveTheErrorRateAreNotComparable(t *testing.T) {
	tests := []struct {
		name        string
		errors      int64 // of each candidate trial's 10000 READs
		zeroLatency bool  // the failed trials recorded no OK latency
		zeroRate    bool  // nor a throughput: nothing is left to compare
		cfg         Config
		want        Verdict
		wantErr     string
	}{
		{"none failed", 0, false, false, Config{}, Pass, ""},
		{"1% failed, the default's limit", 100, false, false, Config{}, Pass, ""},
		{"1.01% failed", 101, false, false, Config{}, VerdictInvalid, ""},
		{"all failed", 10000, false, false, Config{}, VerdictInvalid, ""},
		{"all failed, a limit of 100%", 10000, false, false, Config{MaxErrorRate: 1}, Pass, ""},
		{"one failed, none allowed", 1, false, false, Config{MaxErrorRate: -1}, VerdictInvalid, ""},
		{"all failed, no latency left", 10000, true, false, Config{}, VerdictInvalid, ""},
		{"all failed, nothing left", 10000, true, true, Config{}, "", "check that both ran the same workloads; 6 trial(s) failed more operations than run.max_error_rate allows (1.0%)"},
		{"a rate above 1", 0, false, false, Config{MaxErrorRate: 2}, "", "max error rate 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, c := noisy(3, 6, 1, 0.01)
			bt, ct := handPairs("A", b, c, 1)
			for i := range ct {
				o := ct[i].Ops["READ"]
				o.Errors = tc.errors
				if tc.zeroLatency {
					o.Intended = results.Latency{}
				}
				if tc.zeroRate {
					ct[i].AchievedOpsPerSec = 0
				}
				ct[i].Ops["READ"] = o
			}
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), tc.cfg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cmp.Verdict != tc.want {
				t.Fatalf("verdict %s (invalid %q), want %s", cmp.Verdict, cmp.Invalid, tc.want)
			}
			if tc.want == VerdictInvalid && (!strings.Contains(cmp.Invalid, "A candidate pair 0 (trial "+ct[0].ID) || !hasWarning(cmp, "are not comparable")) {
				t.Errorf("invalid %q, warnings %q: want the trials named in both", cmp.Invalid, cmp.Warnings)
			}
		})
	}
}
