package report

import (
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/profile"
)

// regexProfile is a workload's profile whose candidate allocates a new
// Matcher under readBlock, its allocation samples counted.
func regexProfile(w string, candMissed int) WorkloadProfile {
	const read = "Thread.run;RSRpcServices.get;HFileReaderImpl.readBlock"
	side := func(extra bool) profile.Side {
		s := profile.Side{Ops: 10000, Stacks: profile.Folded{read + ";Buf.alloc": 4000000}, Samples: profile.Folded{read + ";Buf.alloc": 400}}
		if extra {
			s.Stacks[read+";HFileReaderImpl.cacheIfCompactionsOff;Pattern.matcher"] = 2000000
			s.Samples[read+";HFileReaderImpl.cacheIfCompactionsOff;Pattern.matcher"] = 200
		}
		return s
	}
	b, c := side(false), side(true)
	d, err := profile.Diff(profile.Alloc, b, c, 0)
	if err != nil {
		panic(err)
	}
	return WorkloadProfile{Workload: w, BaseTrials: 1, CandTrials: 1, CandMissed: candMissed,
		Alloc: KindProfile{Base: b, Cand: c, Diff: d}}
}

func TestVoteCausesFromTheDecisiveRowsPairsThatHeldTheirRate(t *testing.T) {
	row := func(w, m string, status compare.Status, low float64, pools ...string) compare.MetricResult {
		return compare.MetricResult{Workload: w, Op: compare.OpAll, Metric: m, Status: status, Primary: len(pools) > 0,
			Pools: pools, Ratio: low + 0.01, CILow: low, CIHigh: low + 0.02}
	}
	heavy := []string{"workloadb", "workloadc", "workloadd"}
	cpuRow := row(compare.AllWorkloads, metric.CPUPerOp, compare.Regressed, 1.05, heavy...)
	grew := row(compare.AllWorkloads, metric.AllocPerOp, compare.Unchanged, 1.03, heavy...)
	flat := row(compare.AllWorkloads, metric.AllocPerOp, compare.Unchanged, 0.99, heavy...)
	profiles := []WorkloadProfile{regexProfile("workloada", 1), regexProfile("workloadb", 0), regexProfile("workloadc", 0), regexProfile("workloade", 0)}

	c := &compare.Comparison{Metrics: []compare.MetricResult{cpuRow, grew}}
	causes := VoteCauses(c, profiles)
	if len(causes) != 1 {
		t.Fatalf("causes %+v, want one", causes)
	}
	got := causes[0]
	// workloada missed its rate, workloade is not among the row's workloads.
	if strings.Join(got.Workloads, ",") != "workloadb,workloadc" || got.Kind != profile.Alloc {
		t.Errorf("cause from %v (%s), want workloadb, workloadc (alloc)", got.Workloads, got.Kind)
	}
	line := voteCauseLines(causes)[0]
	for _, want := range []string{"Cause (allocation, all workloads cpu_per_op", "in workloadb, c", "HFileReaderImpl.readBlock -> HFileReaderImpl.cacheIfCompactionsOff -> Pattern.matcher"} {
		if !strings.Contains(line, want) {
			t.Errorf("cause line %q lacks %q", line, want)
		}
	}

	// The counted allocation did not grow: its frames may be one JVM's JIT.
	if causes := VoteCauses(&compare.Comparison{Metrics: []compare.MetricResult{cpuRow, flat}}, profiles); len(causes) != 0 {
		t.Errorf("named %+v where allocation per operation did not grow", causes)
	}
	// Nothing regressed: nothing to explain.
	cpuRow.Status = compare.Unchanged
	if causes := VoteCauses(&compare.Comparison{Metrics: []compare.MetricResult{cpuRow, grew}}, profiles); len(causes) != 0 {
		t.Errorf("named %+v without a regressed row", causes)
	}
}

// TestVoteSaysWhyNoCauseWhenEveryProfiledPairMissedItsRate: a regression
// whose workloads were profiled only in pairs that missed their rate names
// no cause, and the vote says why in its place; with one held pair there
// is no such line (the held pair was read), nor without a regression.
func TestVoteSaysWhyNoCauseWhenEveryProfiledPairMissedItsRate(t *testing.T) {
	regressed := compare.MetricResult{Workload: "workloadc", Op: compare.OpAll, Metric: metric.Throughput, Status: compare.Regressed,
		Ratio: 0.85, CILow: 0.84, CIHigh: 0.86}
	for _, tc := range []struct {
		name    string
		verdict compare.Verdict
		missed  int
		want    bool
	}{
		{"every profiled pair missed", compare.Regression, 1, true},
		{"the pair held", compare.Regression, 0, false},
		{"no regression", compare.Pass, 1, false},
	} {
		row := regressed
		if tc.verdict != compare.Regression {
			row.Status = compare.Unchanged
		}
		c := &compare.Comparison{Verdict: tc.verdict, Metrics: []compare.MetricResult{row}}
		p := regexProfile("workloadc", tc.missed)
		p.Alloc = KindProfile{} // nothing of a kind to name: only the note can speak
		r := Report{Comparison: c, Profiles: []WorkloadProfile{p}}
		lines := causeLines(r.vote())
		said := len(lines) == 1 && strings.HasPrefix(lines[0], "Cause: none named: the profiled trials of workloadc (candidate 1 of 1) missed")
		if said != tc.want {
			t.Errorf("%s: cause lines %q, want the no-cause line %v", tc.name, lines, tc.want)
		}
	}
}
