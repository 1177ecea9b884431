package job

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/history"
	"github.com/regress-hbase/regress/harness/suite"
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

// TestBisectRefusesAnOpTheWorkloadNeverRuns: --metric SCAN/p95 --workload
// workloadc (a read-only mix) passed every check and Maven and the good
// release's JVM started; only after the first step measured did it say the
// workload reports no SCAN. It is a usage error before anything starts.
// Issue 29's second probe round.
func TestBisectRefusesAnOpTheWorkloadNeverRuns(t *testing.T) {
	for _, tc := range []struct {
		workload, metric, want string
	}{
		{"workloadc", "SCAN/p95", "--metric SCAN/p95: workload workloadc runs no SCAN operations (it runs READ)"},
		{"workloadc", "UPDATE/p99", "runs no UPDATE operations"},
		{"workloada", "REED/p95", "runs no REED operations (it runs READ, UPDATE)"},
	} {
		j := &Bisect{Options: Options{Scenarios: "../../scenarios", Suite: "smoke", Store: t.TempDir()}, Good: "2.6.0", Bad: "2.6.1", Workload: tc.workload, Metric: tc.metric,
			Known: func(context.Context) ([]string, error) {
				t.Fatal("resolved releases: the check came too late")
				return nil, nil
			}}
		err := j.Run(context.Background(), io.Discard, io.Discard)
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want a usage error saying %q", tc.workload, tc.metric, err, tc.want)
		}
	}
	// An op the workload runs, in any case, passes the check (and reaches Known).
	if err := checkMetricOp(mustSuite(t), "workloadc", "read/p95"); err != nil {
		t.Errorf("read/p95 of workloadc: %v", err)
	}
}

func mustSuite(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := LoadSuite("../../scenarios", "smoke")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
