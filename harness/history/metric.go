// Package history follows a suite's metrics across a series of releases,
// each measured against one reference release in pairs (duet or interleaved): it
// builds every metric's series of ratios to the reference with intervals,
// finds where a series shifts (package changepoint), searches a release
// range for the first release where one metric moved (Bisect), resolves a
// range of versions, and renders the series as text, CSV, JSON and HTML.
// It runs nothing: the job layer (harness/job) measures and calls it.
package history

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/policy"
	"github.com/regress-hbase/regress/harness/results"
)

// Metric is one figure a history follows: a name and how to read it off a
// trial. New figures (CPU or bytes allocated per operation on the server)
// plug in as one more Metric in TrialMetrics or OpMetrics.
type Metric struct {
	// Name is what reports and --metric call it: "READ/p95", "throughput".
	Name string
	// Kind names its tolerance in a suite's compare.tolerances ("p95",
	// "throughput"); a kind without one gets DefaultTolerance.
	Kind string
	Unit string
	// Worse is +1 when a larger value is worse (latency, cost) and -1 when a
	// smaller one is (throughput).
	Worse float64
	// Value reads the metric off a trial; 0, a negative value, NaN or an
	// infinity means the trial does not report it.
	Value func(*results.Trial) float64
}

// OpMetric is a per-operation figure: it becomes one Metric "OP/Name" for
// every operation type a workload's trials record.
type OpMetric struct {
	Name, Unit string
	Worse      float64
	Value      func(results.OpStats) float64
}

// DefaultTolerance is the tolerance of a metric kind the suite and policy
// name none for.
const DefaultTolerance = 0.05

// OpMetrics are the per-operation figures: intended latency percentiles and
// mean, as compare judges them.
var OpMetrics = []OpMetric{
	{policy.P50, "us", 1, func(o results.OpStats) float64 { return o.Intended.P50Micros }},
	{policy.P95, "us", 1, func(o results.OpStats) float64 { return o.Intended.P95Micros }},
	{policy.P99, "us", 1, func(o results.OpStats) float64 { return o.Intended.P99Micros }},
	{policy.P999, "us", 1, func(o results.OpStats) float64 { return o.Intended.P999Micros }},
	{policy.Mean, "us", 1, func(o results.OpStats) float64 { return o.Intended.MeanMicros }},
}

// TrialMetrics are the per-trial figures of a workload.
var TrialMetrics = []Metric{
	{Name: policy.Throughput, Kind: policy.Throughput, Unit: "ops/s", Worse: -1,
		Value: func(t *results.Trial) float64 { return t.AchievedOpsPerSec }},
	{Name: policy.CPUPerOp, Kind: policy.CPUPerOp, Unit: "us", Worse: 1,
		Value: func(t *results.Trial) float64 {
			if t.Server == nil {
				return 0
			}
			return t.Server.CPUPerOpMicros
		}},
	{Name: policy.AllocPerOp, Kind: policy.AllocPerOp, Unit: "B", Worse: 1,
		Value: func(t *results.Trial) float64 {
			if t.Server == nil {
				return 0
			}
			return t.Server.AllocPerOpBytes
		}},
}

// MetricsOf lists the metrics the trials of one workload report: each
// operation's OpMetrics (operations sorted), then TrialMetrics.
func MetricsOf(trials []results.Trial, workload string) []Metric {
	ops := map[string]bool{}
	for i := range trials {
		if trials[i].Workload != workload {
			continue
		}
		for op := range trials[i].Ops {
			ops[op] = true
		}
	}
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	sort.Strings(names)
	var out []Metric
	for _, op := range names {
		for _, om := range OpMetrics {
			out = append(out, Metric{Name: op + "/" + om.Name, Kind: om.Name, Unit: om.Unit, Worse: om.Worse,
				Value: func(t *results.Trial) float64 {
					s, ok := t.Ops[op]
					if !ok {
						return 0
					}
					return om.Value(s)
				}})
		}
	}
	for _, m := range TrialMetrics {
		if m.Kind == policy.Throughput || reports(trials, workload, m) {
			out = append(out, m)
		}
	}
	return out
}

// reports says whether some trial of workload has a figure for m: the
// servers' cost is absent from trials of clusters regress did not start.
func reports(trials []results.Trial, workload string, m Metric) bool {
	for i := range trials {
		if trials[i].Workload == workload && m.Value(&trials[i]) > 0 {
			return true
		}
	}
	return false
}

// MetricNames lists the names of ms, for error messages.
func MetricNames(ms []Metric) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// FindMetric returns the metric of ms called name.
func FindMetric(ms []Metric, name string) (Metric, bool) {
	i := slices.IndexFunc(ms, func(m Metric) bool { return m.Name == name })
	if i < 0 {
		return Metric{}, false
	}
	return ms[i], true
}

// CheckMetricName refuses a name no metric can have: a TrialMetrics name,
// or OP/NAME with NAME one of OpMetrics (the operation is checked against
// the trials later, once there are some).
func CheckMetricName(name string) error {
	var valid []string
	for _, m := range TrialMetrics {
		if m.Name == name {
			return nil
		}
		valid = append(valid, m.Name)
	}
	op, kind, ok := strings.Cut(name, "/")
	for _, om := range OpMetrics {
		if ok && op != "" && kind == om.Name {
			return nil
		}
		valid = append(valid, "OP/"+om.Name)
	}
	return fmt.Errorf("metric %q: write one of %s (OP is READ, UPDATE, INSERT, SCAN or READ-MODIFY-WRITE)", name, strings.Join(valid, ", "))
}

// Tolerance is the metric's tolerance from the suite's map, then policy's
// defaults, then DefaultTolerance.
func Tolerance(m Metric, tols map[string]float64) float64 {
	if v, ok := tols[m.Kind]; ok && v > 0 {
		return v
	}
	if v, ok := policy.DefaultTolerances()[m.Kind]; ok {
		return v
	}
	return DefaultTolerance
}

func usable(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
