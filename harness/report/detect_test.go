package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// TestDetectLineSaysWhatTheRunCouldSee: every gated metric's detectable
// change, the most sensitive first, throughput as a drop; ungated and
// unestimated metrics left out; the line in text and Markdown.
func TestDetectLineSaysWhatTheRunCouldSee(t *testing.T) {
	c := &compare.Comparison{Verdict: compare.VerdictInconclusive, Metrics: []compare.MetricResult{
		{Workload: "workloadc", Op: "READ", Metric: "p95", Gated: true, Detectable: 0.20, Unit: "us"},
		{Workload: "workloadc", Op: compare.OpAll, Metric: compare.MetricCPUPerOp, Gated: true, Detectable: 0.081, Unit: "us"},
		{Workload: "workloadc", Op: compare.OpAll, Metric: compare.MetricThroughput, Gated: true, Detectable: 0.05, Unit: "ops/s"},
		{Workload: "workloadc", Op: "READ", Metric: "p99", Gated: false, Detectable: 0.5, Unit: "us"},
		{Workload: "workloadc", Op: "READ", Metric: "p50", Gated: true, Unit: "us"},
	}}
	want := "this run could detect (power 0.8): -5% workloadc throughput, +8% workloadc cpu_per_op, +20% workloadc READ p95"
	if got := detectLine(c); got != want {
		t.Errorf("detectLine:\n got %q\nwant %q", got, want)
	}
	for _, f := range []string{FormatMarkdown, FormatHTML} {
		var b bytes.Buffer
		if err := Render(&b, f, Report{Comparison: c}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "this run could detect (power 0.8)") {
			t.Errorf("%s report lacks the detectable line", f)
		}
	}
	// The terminal says it by class of rows: a line on the first screen
	// and a table under the table.
	var b bytes.Buffer
	if err := Render(&b, FormatText, Report{Comparison: c}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"could see (power 0.8): p95 +20%, throughput -5%, cost +8%\n", "\n  p95         -       +20%        workloadc READ\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
	if got := detectLine(&compare.Comparison{Descriptive: true}); got != "" {
		t.Errorf("descriptive comparison: %q, want none", got)
	}
}
