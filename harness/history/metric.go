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

	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/results"
)

// Metric is one figure a history follows: a row of the metric catalogue
// (harness/metric: unit, direction, default tolerance, reading), for one
// operation when the row is per operation. A new figure is a new row there.
type Metric struct {
	// Name is what reports and --metric call it: "READ/p95", "throughput".
	Name string
	// Op is the operation of a per-operation metric ("READ"), else "".
	Op string
	// Row is the catalogue's row: its Name is the metric's kind, the key of
	// its tolerance in a suite's compare.tolerances ("p95", "throughput").
	Row metric.Metric
}

// Value reads the metric off a trial; 0, a negative value, NaN or an
// infinity means the trial does not report it.
func (m Metric) Value(t *results.Trial) float64 { return m.Row.Value(t, m.Op) }

// followed are the catalogue's rows a history follows: every metric a suite
// may gate on (the per-operation ones first), as compare judges them.
func followed(scopes ...metric.Scope) []metric.Metric {
	var out []metric.Metric
	for _, r := range metric.All() {
		if r.Gated() && slices.Contains(scopes, r.Scope) {
			out = append(out, r)
		}
	}
	return out
}

// MetricsOf lists the metrics the trials of one workload report: each
// operation's per-operation metrics (operations sorted), then the
// workload's (throughput, and the servers' costs where some trial read them).
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
		for _, r := range followed(metric.PerOp) {
			out = append(out, Metric{Name: op + "/" + r.Name, Op: op, Row: r})
		}
	}
	for _, r := range followed(metric.PerTrial, metric.Server) {
		m := Metric{Name: r.Name, Row: r}
		if r.Scope == metric.PerTrial || reports(trials, workload, m) {
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

// CheckMetricName refuses a name no metric can have: a per-workload
// metric's name, or OP/NAME with NAME a per-operation one (the operation is
// checked against the trials later, once there are some).
func CheckMetricName(name string) error {
	var valid []string
	for _, r := range followed(metric.PerTrial, metric.Server) {
		if r.Name == name {
			return nil
		}
		valid = append(valid, r.Name)
	}
	op, kind, ok := strings.Cut(name, "/")
	for _, r := range followed(metric.PerOp) {
		if ok && op != "" && kind == r.Name {
			return nil
		}
		valid = append(valid, "OP/"+r.Name)
	}
	return fmt.Errorf("metric %q: write one of %s (OP is READ, UPDATE, INSERT, SCAN or READ-MODIFY-WRITE)", name, strings.Join(valid, ", "))
}

// Tolerance is the metric's tolerance from the suite's map, else the catalogue's default.
func Tolerance(m Metric, tols map[string]float64) float64 {
	if v, ok := tols[m.Row.Name]; ok && v > 0 {
		return v
	}
	return m.Row.Tolerance
}

func usable(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
