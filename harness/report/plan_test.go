package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/noise"
)

// TestPlanPrintsTheLinesInstanceNoise: the plan's header names the
// line's instance sd and where it came from, the note of a line not
// measured, and the advice; a suite with no figure prints no such line.
func TestPlanPrintsTheLinesInstanceNoise(t *testing.T) {
	cfg := noise.Figures{
		Default: map[string]float64{compare.MetricCPUPerOp: 0.013},
		ByLine:  map[string]map[string]float64{"2.6": {compare.MetricCPUPerOp: 0.013}, "2.4": {compare.MetricCPUPerOp: 0.035}},
	}
	cases := []struct {
		name       string
		noise      noise.Instance
		advice     []string
		want, none []string
	}{
		{"measured", noise.Of(cfg, "2.4.18", "2.4.18"), []string{"instance noise on 2.4: ... --instances 6"},
			[]string{"instance noise, HBase 2.4: cpu_per_op 3.5% (measured on 2.4); runs of this suite start 1 instance(s) a side\n", "--instances 6"}, []string{"not measured"}},
		{"unmeasured", noise.Of(cfg, "2.5.1", "2.5.2"), nil,
			[]string{"instance noise, HBase 2.5: cpu_per_op 1.3% (the suite's default instance_sd; not measured on 2.5)", "instance noise for 2.5 not measured"}, nil},
		{"two lines", noise.Of(cfg, "2.5.1", "2.6.1"), nil,
			[]string{"HBase 2.5 and 2.6: cpu_per_op 1.3% (measured on 2.6; the suite's default for 2.5)"}, nil},
		{"one figure for every line", noise.Of(noise.Figures{Default: cfg.Default}, "2.4.18", "2.4.18"), nil,
			[]string{"HBase 2.4: cpu_per_op 1.3% (the suite's instance_sd, one figure for every line)"}, []string{"not measured"}},
		{"no figure", noise.Of(noise.Figures{}, "2.4.18", "2.4.18"), nil, nil, []string{"instance noise"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			WritePlan(&b, PlanSuite{Name: "release", Initial: 8, Max: 10, Looks: 2, Alpha: 0.05, Instances: 1, Noise: c.noise, NoiseAdvice: c.advice}, nil, nil, true)
			out := b.String()
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("plan lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.none {
				if strings.Contains(out, w) {
					t.Errorf("plan holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestPlanMarksDetectOnlyRows: a detect-only row needing more pairs than
// the suite's max is marked and not counted among those that make a run
// INCONCLUSIVE; a gating row needing them is.
func TestPlanMarksDetectOnlyRows(t *testing.T) {
	plan := []compare.PairsPlan{
		{Workload: "workloadc", Op: "READ", Metric: "p95", Tolerance: 0.1, Spread: 0.3, Trials: 10, PairsToPass: 400, PairsToDetect: 300, DetectOnly: true},
		{Workload: "workloadc", Op: "ALL", Metric: "cpu_per_op", Tolerance: 0.05, Spread: 0.01, Trials: 10, PairsToPass: 4, PairsToDetect: 3},
	}
	var b strings.Builder
	WritePlan(&b, PlanSuite{Name: "release", Initial: 8, Max: 10, Looks: 2, Alpha: 0.05, Instances: 1}, plan, nil, true)
	out := b.String()
	if !strings.Contains(out, "p95+") || !strings.Contains(out, "+ only detects") || strings.Contains(out, "expect INCONCLUSIVE") {
		t.Errorf("plan:\n%s\nwant p95 marked +, its legend, and no INCONCLUSIVE expected", out)
	}
	plan[0].DetectOnly = false
	b.Reset()
	WritePlan(&b, PlanSuite{Name: "release", Initial: 8, Max: 10, Looks: 2, Alpha: 0.05, Instances: 1}, plan, nil, true)
	if !strings.Contains(b.String(), "1 gated metric(s) need more than the suite's 10 pairs") {
		t.Errorf("plan:\n%s\nwant the gating p95 counted", b.String())
	}
}
