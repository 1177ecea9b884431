package job

import (
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/history"
)

// TestBisectStepAddsPairsWhileUndecidedForTheMoveSought: an improvement
// search (2026-12-02, READ/mean -5.8% at the bad release) left steps at NOT
// WORSE undecided without adding the pairs the suite allowed.
func TestBisectStepAddsPairsWhileUndecidedForTheMoveSought(t *testing.T) {
	for _, tc := range []struct {
		status compare.Status
		dir    compare.Status
		want   int
	}{
		{compare.Inconclusive, "", 3},
		{compare.NotWorse, "", 0}, // the bad release: not regressed, nothing to search
		{compare.NotWorse, compare.Improved, 3},
		{compare.NotWorse, compare.Regressed, 0},
		{compare.Inconclusive, compare.Regressed, 3},
		{compare.Improved, compare.Improved, 0},
		{compare.Unchanged, compare.Improved, 0},
	} {
		if got := morePairs(history.Point{Status: tc.status}, tc.dir, 6); got != tc.want {
			t.Errorf("%s seeking %q: %d more pairs, want %d", tc.status, tc.dir, got, tc.want)
		}
	}
}
