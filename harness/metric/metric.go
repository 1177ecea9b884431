// Package metric is the one catalogue of the figures regress compares: a
// row per metric with its name, unit, direction, default tolerance, the
// tolerances allowed and how it is read off a stored trial; and what a
// verdict gates on unless told otherwise (the default gate and alpha, the
// grammar of a gate selector). Suite validation, compare, report and
// history take every fact about a metric from here, so a new metric is one
// row plus its reading.
package metric

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/results"
)

// Metric names, as suites, tolerances, gate selectors and reports spell them.
const (
	P50        = "p50"
	P95        = "p95"
	P99        = "p99"
	P999       = "p99.9"
	Mean       = "mean"
	Throughput = "throughput"
	// CPUPerOp is the region servers' CPU time per operation (net of their
	// idle background), per workload: lower is better.
	CPUPerOp = "cpu_per_op"
	// AllocPerOp is the bytes the region servers' JVMs allocated per
	// operation, per workload: lower is better.
	AllocPerOp = "alloc_per_op"
	// ProcessCPUPerOp is the region servers' whole process CPU time per
	// operation, net of their idle background (every thread: WAL syncers,
	// flushes, compactions, GC, JIT), per workload: lower is better. A cost
	// moved off the request threads shows here and not in CPUPerOp.
	ProcessCPUPerOp = "process_cpu_per_op"
	// Min and Max are YCSB's MinLatency and MaxLatency, compared only
	// descriptively (imported summaries): one extreme value is no basis for a gate.
	Min = "min"
	Max = "max"
	// Capacity is the highest open-loop rate a version sustained within the
	// SLO (regress capacity's rate sweep): higher is better.
	Capacity = "capacity"
)

// Units, as compare's results and the reports spell them.
const (
	Micros    = "us"    // microseconds: latencies and CPU time
	OpsPerSec = "ops/s" // operations per second
	Bytes     = "B"     // bytes
)

// Direction says which way a metric gets worse.
type Direction int

// The two directions.
const (
	// WorseHigher: a larger value is worse (latency, cost).
	WorseHigher Direction = 1
	// WorseLower: a smaller value is worse (throughput, capacity).
	WorseLower Direction = -1
)

// Sign is +1 when a larger value is worse and -1 when a smaller one is: the
// flip that lets one rule decide both.
func (d Direction) Sign() float64 { return float64(d) }

// Scope says what a metric is a figure of, and so how it is read.
type Scope int

// The scopes.
const (
	// PerOp is a figure of one operation type of a trial (READ's p99), read off its OpStats.
	PerOp Scope = iota
	// PerTrial is a figure of a whole trial of a workload (throughput).
	PerTrial
	// Server is the region servers' cost in a trial: per trial, absent on
	// clusters regress did not start.
	Server
	// Sweep is a figure of a rate sweep (capacity), read off no trial.
	Sweep
)

// Metric is one row of the catalogue.
type Metric struct {
	Name  string
	Unit  string
	Worse Direction
	Scope Scope
	// Tolerance is the default tolerance, a fraction (0.10 = 10%): the change
	// that counts as none. 0 marks a metric no suite gates on or sets a
	// tolerance for: shown only (min, max) or with its own suite section (capacity).
	Tolerance float64
	// MaxTolerance is the largest tolerance a suite or compare.Config may
	// set; a tolerance must lie above 0 and at most this.
	MaxTolerance float64
	// Quantile is the quantile a percentile metric reads (0.99 for p99): how
	// many samples lie beyond it decides whether it may gate. 0 for others.
	Quantile float64
	// Op reads a PerOp metric off one operation's stats (nil for the others).
	Op func(results.OpStats) float64
	// Trial reads a PerTrial or Server metric off a trial (nil for the others).
	Trial func(*results.Trial) float64
	// Source names where a Server metric's figure in a trial came from
	// ("request threads"); "" when the trial did not record it.
	Source func(*results.ServerStats) string
}

// maxTolerance is every gated metric's ceiling. compare's test reads a
// tolerance tau as the band [1/(1+tau), 1+tau] around a ratio of 1 and
// would run at any tau above 0; the ceiling is where a gate stops meaning
// anything: beyond 100% a latency or cost could more than double, or a
// throughput fall below half, and still pass. It was compare's own limit
// (a Config passing 10 for 10% is refused), the loosest shipped suite
// (smoke's p99.9) sits at it, and a metric that needs another gets its own.
const maxTolerance = 1.0

// catalogue is every metric, in display order: the per-operation ones first
// (p50, p95, p99, p99.9, mean, then the descriptive min and max), then each
// workload's throughput and the servers' costs, then capacity.
//
// Default tolerances: the centre of the distribution and throughput are
// stable enough for 5%; the tail moves more between identical trials, so it
// gets more room; the servers' cost 10%.
var catalogue = []Metric{
	{Name: P50, Unit: Micros, Worse: WorseHigher, Scope: PerOp, Tolerance: 0.05, MaxTolerance: maxTolerance, Quantile: 0.50,
		Op: func(o results.OpStats) float64 { return o.Intended.P50Micros }},
	{Name: P95, Unit: Micros, Worse: WorseHigher, Scope: PerOp, Tolerance: 0.10, MaxTolerance: maxTolerance, Quantile: 0.95,
		Op: func(o results.OpStats) float64 { return o.Intended.P95Micros }},
	{Name: P99, Unit: Micros, Worse: WorseHigher, Scope: PerOp, Tolerance: 0.10, MaxTolerance: maxTolerance, Quantile: 0.99,
		Op: func(o results.OpStats) float64 { return o.Intended.P99Micros }},
	{Name: P999, Unit: Micros, Worse: WorseHigher, Scope: PerOp, Tolerance: 0.20, MaxTolerance: maxTolerance, Quantile: 0.999,
		Op: func(o results.OpStats) float64 { return o.Intended.P999Micros }},
	{Name: Mean, Unit: Micros, Worse: WorseHigher, Scope: PerOp, Tolerance: 0.05, MaxTolerance: maxTolerance,
		Op: func(o results.OpStats) float64 { return o.Intended.MeanMicros }},
	{Name: Min, Unit: Micros, Worse: WorseHigher, Scope: PerOp,
		Op: func(o results.OpStats) float64 { return o.Intended.MinMicros }},
	{Name: Max, Unit: Micros, Worse: WorseHigher, Scope: PerOp,
		Op: func(o results.OpStats) float64 { return o.Intended.MaxMicros }},
	{Name: Throughput, Unit: OpsPerSec, Worse: WorseLower, Scope: PerTrial, Tolerance: 0.05, MaxTolerance: maxTolerance,
		Trial: func(t *results.Trial) float64 { return t.AchievedOpsPerSec }},
	{Name: CPUPerOp, Unit: Micros, Worse: WorseHigher, Scope: Server, Tolerance: 0.10, MaxTolerance: maxTolerance,
		Trial: func(t *results.Trial) float64 {
			if t.Server == nil {
				return 0
			}
			return t.Server.CPUPerOpMicros
		},
		Source: func(s *results.ServerStats) string { return s.CPUSource }},
	{Name: AllocPerOp, Unit: Bytes, Worse: WorseHigher, Scope: Server, Tolerance: 0.10, MaxTolerance: maxTolerance,
		Trial: func(t *results.Trial) float64 {
			if t.Server == nil {
				return 0
			}
			return t.Server.AllocPerOpBytes
		},
		Source: func(s *results.ServerStats) string { return s.AllocSource }},
	{Name: ProcessCPUPerOp, Unit: Micros, Worse: WorseHigher, Scope: Server, Tolerance: 0.10, MaxTolerance: maxTolerance,
		Trial: func(t *results.Trial) float64 {
			if t.Server == nil {
				return 0
			}
			return t.Server.ProcessCPUPerOpMicros
		},
		Source: func(s *results.ServerStats) string {
			if s.ProcessCPUPerOpMicros > 0 {
				return "process"
			}
			return ""
		}},
	// Capacity's tolerance is the suite's capacity: section's (capacity/section).
	{Name: Capacity, Unit: OpsPerSec, Worse: WorseLower, Scope: Sweep},
}

// All returns every row of the catalogue, in display order.
func All() []Metric { return slices.Clone(catalogue) }

// index is each metric's row in catalogue, by name.
var index = func() map[string]int {
	out := make(map[string]int, len(catalogue))
	for i, m := range catalogue {
		out[m.Name] = i
	}
	return out
}()

// Get returns the row of the metric called name.
func Get(name string) (Metric, bool) {
	i, ok := index[name]
	if !ok {
		return Metric{}, false
	}
	return catalogue[i], true
}

// Rank is the metric's place in display order (the catalogue's), past
// every row for a name not in it.
func Rank(name string) int {
	if i, ok := index[name]; ok {
		return i
	}
	return len(catalogue)
}

// Of returns the row of the metric called name; a name not in the catalogue
// gets a row worse when higher, unit-less and never gated.
func Of(name string) Metric {
	if m, ok := Get(name); ok {
		return m
	}
	return Metric{Name: name, Worse: WorseHigher, Scope: PerTrial}
}

// Names lists the metrics of scope s, in display order.
func Names(s Scope) []string {
	var out []string
	for _, m := range catalogue {
		if m.Scope == s {
			out = append(out, m.Name)
		}
	}
	return out
}

// Gated reports whether a suite may gate on m and set its tolerance.
func (m Metric) Gated() bool { return m.Tolerance > 0 }

// Value reads m off trial t (for a PerOp metric, of operation op); 0 means
// the trial does not report it.
func (m Metric) Value(t *results.Trial, op string) float64 {
	switch {
	case m.Op != nil:
		s, ok := t.Ops[op]
		if !ok {
			return 0
		}
		return m.Op(s)
	case m.Trial != nil:
		return m.Trial(t)
	}
	return 0
}

// CheckTolerance refuses a tolerance (a fraction) m cannot be judged at:
// NaN, at most 0, or above m.MaxTolerance; the error says the range in
// percent and what a larger value would let pass.
func (m Metric) CheckTolerance(v float64) error {
	if !m.Gated() {
		return fmt.Errorf("%s takes no tolerance here; tolerances are for %s", m.Name, List())
	}
	if !math.IsNaN(v) && v > 0 && v <= m.MaxTolerance {
		return nil
	}
	what := "more than double"
	if m.Worse == WorseLower {
		what = "fall below half"
	}
	if f := 1 + m.MaxTolerance; f != 2 {
		what = fmt.Sprintf("grow more than %.3g-fold", f)
		if m.Worse == WorseLower {
			what = fmt.Sprintf("fall below 1/%.3g", f)
		}
	}
	return fmt.Errorf("%s is outside %s's allowed tolerances, above 0%% up to %s: a larger tolerance would let %s %s and still pass",
		pct(v), m.Name, pct(m.MaxTolerance), m.Name, what)
}

// pct writes a fraction as a percentage, as suites spell it (1.5 is 150%).
func pct(v float64) string { return fmt.Sprintf("%.4g%%", 100*v) }

// Metrics are every metric a suite may set a tolerance for or gate on, in display order.
var Metrics = func() []string {
	var out []string
	for _, m := range catalogue {
		if m.Gated() {
			out = append(out, m.Name)
		}
	}
	return out
}()

// LatencyMetrics are the per-operation metrics a trial is compared on, in display order.
var LatencyMetrics = func() []string {
	var out []string
	for _, m := range catalogue {
		if m.Scope == PerOp && m.Gated() {
			out = append(out, m.Name)
		}
	}
	return out
}()

// EfficiencyMetrics are the per-workload server cost metrics, in display order.
var EfficiencyMetrics = Names(Server)

// IsEfficiency reports whether name is a server cost metric (cpu_per_op, alloc_per_op).
func IsEfficiency(name string) bool { return Of(name).Scope == Server }

// PrimaryMetrics are the metrics that have primary rows (compare's rows
// over several workloads): the server costs, and the latencies over one
// class of operations.
var PrimaryMetrics = append(slices.Clone(EfficiencyMetrics), LatencyMetrics...)

// HasPrimaryRow reports whether name is one of PrimaryMetrics.
func HasPrimaryRow(name string) bool { return slices.Contains(PrimaryMetrics, name) }

// IsMetric reports whether name is a metric of Metrics.
func IsMetric(name string) bool { return slices.Contains(Metrics, name) }

// List names the metrics of Metrics for error messages.
func List() string { return strings.Join(Metrics, ", ") }

// DefaultTolerances returns a fresh map of the default tolerance of every metric of Metrics.
func DefaultTolerances() map[string]float64 {
	out := map[string]float64{}
	for _, m := range catalogue {
		if m.Gated() {
			out[m.Name] = m.Tolerance
		}
	}
	return out
}

// CheckTolerance refuses a tolerance (a fraction) for a metric not of
// Metrics or outside its allowed range, with advice.
func CheckTolerance(name string, v float64) error {
	m, ok := Get(name)
	if !ok || !m.Gated() {
		return fmt.Errorf("tolerance for unknown metric %q; known metrics: %s", name, List())
	}
	return m.CheckTolerance(v)
}
