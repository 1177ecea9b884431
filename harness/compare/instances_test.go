package compare

import (
	"math"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// TestPairBlocksNumbersRunsAndInstances: a pair's block is its run and
// the two sides' instances, numbered as they first appear.
func TestPairBlocksNumbersRunsAndInstances(t *testing.T) {
	tr := func(run string, inst int) *results.Trial { return &results.Trial{RunID: run, Instance: inst} }
	pairs := [][2]*results.Trial{
		{tr("a", 0), tr("a", 0)}, {tr("a", 0), tr("a", 0)},
		{tr("a", 1), tr("a", 1)}, {tr("b", 0), tr("b", 0)}, {tr("a", 1), tr("a", 1)},
	}
	got := pairBlocks(pairs)
	want := []int{0, 0, 1, 2, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("blocks %v, want %v", got, want)
		}
	}
}

// TestNestedEstimateSeesAnInstanceOffset: two instance blocks whose pairs
// agree closely inside each block but sit 6% apart. The paired t over all
// pairs reads the spread of the pairs alone; the nested estimate's
// standard error carries the blocks' offset (at least half of it, as
// the mean of two blocks 6% apart can be off by 3%), and its degrees of
// freedom are the blocks', not the pairs'. With one block it is not used.
func TestNestedEstimateSeesAnInstanceOffset(t *testing.T) {
	d := []float64{0.031, 0.029, 0.030, 0.030, -0.029, -0.031, -0.030, -0.030}
	blocks := []int{0, 0, 0, 0, 1, 1, 1, 1}
	pool := poolInstances([]metricSample{{key: metricKey{"C", OpAll, MetricCPUPerOp}, ratios: d, blocks: blocks}}, nil, 0)
	e, ok := nestedEstimate(d, blocks, pool[MetricCPUPerOp])
	if !ok {
		t.Fatal("two blocks of four pairs: no nested estimate")
	}
	if math.Abs(e.Mean) > 1e-9 {
		t.Errorf("mean %g, want the blocks' mean 0", e.Mean)
	}
	if e.SE < 0.025 || e.SE > 0.035 {
		t.Errorf("nested SE %.4f, want about the blocks' half-spread 0.03", e.SE)
	}
	if e.DF > 2 || e.Instances != 2 || e.InstVar <= 0 {
		t.Errorf("df %.1f, instances %d, instance variance %g: want the blocks' degree of freedom, 2 blocks, a positive part", e.DF, e.Instances, e.InstVar)
	}
	// A prior measured over many runs holds when two blocks happen to agree.
	same := []float64{0.001, -0.001, 0.0005, -0.0005, 0.001, -0.001, 0.0005, -0.0005}
	prior := map[string]float64{MetricCPUPerOp: 0.017}
	p := poolInstances([]metricSample{{key: metricKey{"C", OpAll, MetricCPUPerOp}, ratios: same, blocks: blocks}}, prior, 100)
	e2, _ := nestedEstimate(same, blocks, p[MetricCPUPerOp])
	if want := 0.017 / math.Sqrt2; e2.SE < 0.98*want || e2.DF < 50 {
		t.Errorf("SE %.4f, df %.0f with agreeing blocks and a 1.7%% prior over 100 runs, want about %.4f and the prior's df", e2.SE, e2.DF, want)
	}
	// One block a side: the paired t, prior or not.
	for _, pool := range []instancePool{{}, {v: 0.017 * 0.017, df: 5}} {
		if _, ok := nestedEstimate(d, make([]int, len(d)), pool); ok {
			t.Errorf("one block, pool %+v: a nested estimate, want none (the paired t)", pool)
		}
	}
}

// TestPrimaryRowCountsTheInstanceOffsetOnce: the instance offset moves every
// workload of a run together, so the primary row's variance keeps it
// whole instead of dividing it by the workloads averaged.
func TestPrimaryRowCountsTheInstanceOffsetOnce(t *testing.T) {
	inst := 0.0004 // sd 2% of the mean over two blocks
	var details []detail
	out := &Comparison{LookAlpha: 0.05}
	for _, w := range []string{"A", "B", "C", "D"} {
		k := metricKey{w, OpAll, MetricCPUPerOp}
		se2 := 0.0001 + inst
		details = append(details, detail{key: k, est: estimate{Mean: 0.01, SE: math.Sqrt(se2), DF: 6, N: 8, Instances: 2, InstVar: inst, InstDF: 4}})
		out.Metrics = append(out.Metrics, MetricResult{Workload: w, Op: OpAll, Metric: MetricCPUPerOp, Gated: true, Baseline: 1, Candidate: 1})
	}
	r := resolved{tol: map[string]float64{MetricCPUPerOp: 0.05}}
	details = addPrimary(r, out, details, nil)
	e := details[len(details)-1].est
	if want := math.Sqrt(inst + 0.0001/4); math.Abs(e.SE-want) > 1e-9 {
		t.Errorf("primary SE %.5f, want %.5f (the instance part whole, the pairs' averaged)", e.SE, want)
	}
}
