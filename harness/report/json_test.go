package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// TestJSONRowFollowsMetricResult: the JSON row is derived from
// compare.MetricResult, so every field of it, a primary row's flag
// included, reaches report.json under its own tag, in its order, and a
// figure that is not finite is written as null.
func TestJSONRowFollowsMetricResult(t *testing.T) {
	m := compare.MetricResult{Workload: compare.AllWorkloads, Op: compare.OpAll, Metric: compare.MetricCPUPerOp, Unit: "us",
		Baseline: 10, Candidate: 11, Ratio: 1.1, CILow: 1.05, CIHigh: 1.15, Tolerance: 0.1, Status: compare.Regressed,
		Gated: true, DetectOnly: true, Primary: true, Pools: []string{"A", "B"}, P: 0.01, Pairs: 5, PassBound: 1.15, RegressionBound: math.NaN(), OpsPerTrial: 7,
		BaselineBelow: true, CandidateBelow: true, GatedFor: "p99", Note: "n", Detectable: 0.2, SlotEffect: 0.97,
		BaselineValues: []float64{1, math.Inf(1)}, CandidateValues: []float64{2, 3}}
	b, err := json.Marshal(toJSONMetric(m))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	rt := reflect.TypeFor[compare.MetricResult]()
	last := -1
	for i := range rt.NumField() {
		key := `"` + strings.Split(rt.Field(i).Tag.Get("json"), ",")[0] + `":`
		at := strings.Index(got, key)
		if at < 0 {
			t.Errorf("%s missing from %s", key, got)
			continue
		}
		if at < last {
			t.Errorf("%s out of MetricResult's order in %s", key, got)
		}
		last = at
	}
	for _, want := range []string{`"regression_bound":null`, `"baseline_values":[1,null]`, `"primary":true`, `"pools":["A","B"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
}

// TestJSONAndHeadlineSayHowManyInstances: a run whose pairs span several
// server instances says so in report.json and in the headline; one
// instance adds nothing.
func TestJSONAndHeadlineSayHowManyInstances(t *testing.T) {
	for _, n := range []int{0, 2} {
		c := &compare.Comparison{Verdict: compare.Pass, Paired: true, Duet: true, Interleaved: true, Instances: n}
		var b strings.Builder
		if err := renderJSON(&b, Report{Comparison: c}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Instances int `json:"instances"`
		}
		if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
			t.Fatal(err)
		}
		inJSON := doc.Instances == 2
		inHead := strings.Contains(headline(c), "2 server instances a side")
		if inJSON != (n == 2) || inHead != (n == 2) {
			t.Errorf("instances %d: in JSON %v, in headline %v (%q)", n, inJSON, inHead, headline(c))
		}
	}
}
