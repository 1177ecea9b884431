package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/noise"
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

// TestJSONSaysWhichInstanceNoiseWasAssumed: report.json carries the
// comparison's assumed instance noise under instance_noise, its figures
// fractions rounded as fractions, and leaves it out when the suite gave
// none.
func TestJSONSaysWhichInstanceNoiseWasAssumed(t *testing.T) {
	cases := []struct {
		name  string
		noise *noise.Assumed
		want  []string // raw JSON parts, whitespace removed; nil: no instance_noise
	}{
		{"2.4 measured", &noise.Assumed{Lines: []string{"2.4"}, SD: map[string]float64{compare.MetricCPUPerOp: 0.0350000123, compare.MetricAllocPerOp: 0.04},
			Measured: []string{"2.4"}, Source: "measured on 2.4", InstanceRuns: 8},
			[]string{`"instance_noise":{"lines":["2.4"],"instance_sd":{"alloc_per_op":0.04,"cpu_per_op":0.035},"measured":["2.4"],"source":"measuredon2.4","instance_runs":8}`}},
		{"2.5 falls back", &noise.Assumed{Lines: []string{"2.5"}, SD: map[string]float64{compare.MetricCPUPerOp: 0.013},
			DefaultFor: []string{"2.5"}, DefaultFrom: []string{"2.6"}, Source: "s", Note: "instance noise for 2.5 not measured", InstanceRuns: 2},
			[]string{`"default_for":["2.5"],"default_from":["2.6"]`, `"note":"instancenoisefor2.5notmeasured"`, `"instance_sd":{"cpu_per_op":0.013}`}},
		{"none", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := renderJSON(&b, Report{Comparison: &compare.Comparison{Verdict: compare.Pass, InstanceNoise: c.noise}}); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(strings.Fields(b.String()), "")
			if c.want == nil && strings.Contains(got, "instance_noise") {
				t.Errorf("report.json %s holds instance_noise, want none", got)
			}
			if c.want != nil && !strings.Contains(got, `"instance_noise":{`) {
				t.Errorf("report.json %s lacks instance_noise", got)
			}
			for _, part := range c.want {
				if !strings.Contains(got, part) {
					t.Errorf("report.json %s lacks %s", got, part)
				}
			}
		})
	}
}

// TestJSONNamesTheBuildThatDecided: report.json carries the vote's "Decided
// by" build as decided_by, and leaves the field out when the build is unknown.
func TestJSONNamesTheBuildThatDecided(t *testing.T) {
	for _, build := range []string{"", "regress devel (commit 50db541e, go1.26.8)"} {
		c := &compare.Comparison{Verdict: compare.Pass, Paired: true}
		var b strings.Builder
		if err := renderJSON(&b, Report{Comparison: c, Vote: Vote{Regress: build}}); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
			t.Fatal(err)
		}
		got, ok := doc["decided_by"]
		if build == "" && ok {
			t.Errorf("unknown build: decided_by %v, want the field left out", got)
		}
		if build != "" && got != build {
			t.Errorf("decided_by %v, want %q", got, build)
		}
	}
}
