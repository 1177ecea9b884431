package compare

import (
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// A stopped run's half pair was compared unpaired with only the sides'
// trial counts as the reason. Its lone trial is now left out and named, the
// complete pairs compared paired; where the trials cannot pair at all, the
// warning names the trials without a partner and why.
func TestTrialsWithoutAPartnerAreNamed(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(bt, ct []results.Trial) ([]results.Trial, []results.Trial)
		wantPaired bool
		wantPairs  int
		want       string // in a warning; "" none about partners
	}{
		{"complete pairs", func(bt, ct []results.Trial) ([]results.Trial, []results.Trial) { return bt, ct }, true, 8, ""},
		{"stopped after the baseline trial of the last pair", func(bt, ct []results.Trial) ([]results.Trial, []results.Trial) { return bt, ct[:7] },
			true, 7, "1 trial(s) have no partner and are left out, the complete pairs compared paired: A pair 7 of run r1: baseline trial A-h1 (no candidate trial of that pair is stored)"},
		{"stopped after the candidate trial of the last pair", func(bt, ct []results.Trial) ([]results.Trial, []results.Trial) { return bt[:7], ct },
			true, 7, "A pair 7 of run r1: candidate trial A-h0 (no baseline trial of that pair is stored)"},
		{"the sides come from different runs", func(bt, ct []results.Trial) ([]results.Trial, []results.Trial) {
			for i := range ct {
				ct[i].RunID = "r2"
			}
			return bt, ct[:6]
		}, false, 6, "unpaired comparison: workload A has 8 baseline and 6 candidate trials, 14 with no partner: baseline trial A-a0 (run r1 pair 0); "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, c := noisy(5, 8, 1, 0.01)
			bt, ct := tc.edit(handPairs("A", b, c, 1))
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if p := find(t, cmp, "A", "READ", MetricP99).Pairs; cmp.Paired != tc.wantPaired || tc.wantPaired && p != tc.wantPairs {
				t.Errorf("paired %v on %d pairs, want paired %v on %d", cmp.Paired, p, tc.wantPaired, tc.wantPairs)
			}
			said := hasWarning(cmp, "no partner")
			switch {
			case tc.want == "" && said:
				t.Errorf("warnings %q speak of trials without a partner", cmp.Warnings)
			case tc.want != "" && !hasWarning(cmp, tc.want):
				t.Errorf("warnings %q, want one saying %q", cmp.Warnings, tc.want)
			}
			if tc.name == "the sides come from different runs" && !hasWarning(cmp, "the sides' trials come from different runs (baseline: r1; candidate: r2)") {
				t.Errorf("warnings %q do not say why no trial has a partner", cmp.Warnings)
			}
		})
	}
}
