package compare

import (
	"math"
	"strings"
	"testing"
)

// TestPairsDoNotShrinkTheInstanceOffset: with server instances as a level,
// the part of a metric's variance that is the instances' offset stays
// whatever pairs are added, so the planner asks for more pairs than a plain
// projection would, and for none (with a warning naming --instances) when
// the offset alone keeps the interval from reaching the tolerance.
func TestPairsDoNotShrinkTheInstanceOffset(t *testing.T) {
	c := math.Log1p(0.05)
	key := metricKey{Workload: "workloadc", Op: "ALL", Metric: "cpu_per_op"}
	plain := detail{key: key, c: c, level: 0.05 / 18, est: estimate{Mean: math.Log1p(0.02), SE: 0.012, DF: 7, N: 8}}
	nested := plain
	nested.est.InstVar, nested.est.Instances, nested.est.InstDF = 0.006*0.006, 2, 4
	if a, b := pairsNeeded(plain, true, 0.025, 40), pairsNeeded(nested, true, 0.025, 40); b <= a {
		t.Errorf("pairs needed: %d without an instance part, %d with a quarter of the variance the instances'; want more with it", a, b)
	}
	if !pairsCanDecide(nested, 0.025) {
		t.Error("an instance part of sd 0.6% cannot keep a 2% estimate from passing a 5% tolerance")
	}
	stuck := plain
	stuck.est.InstVar, stuck.est.Instances, stuck.est.InstDF = 0.011*0.011, 2, 4
	if pairsCanDecide(stuck, 0.025) {
		t.Error("an instance part of sd 1.1% on 4 df cannot be decided by pairs 3% from the tolerance, yet pairsCanDecide says it can")
	}
	cmp := &Comparison{Paired: true, LookAlpha: 0.025, Verdict: VerdictInconclusive,
		Metrics: []MetricResult{{Workload: "workloadc", Op: "ALL", Metric: "cpu_per_op", Gated: true, Status: Inconclusive}}}
	p := plan(cmp, []detail{stuck}, resolved{Config: Config{Looks: 2, MaxPairs: 40}}, 1)
	if p.More || len(p.Extra) != 0 {
		t.Errorf("plan asks for %v more pairs where pairs cannot decide", p.Extra)
	}
	if len(cmp.Warnings) != 1 || !strings.Contains(cmp.Warnings[0], "--instances") {
		t.Errorf("warnings %q, want one naming --instances", cmp.Warnings)
	}
}
