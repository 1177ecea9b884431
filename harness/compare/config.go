package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Metric names, as they appear in MetricResult.Metric, tolerances and gate selectors.
const (
	MetricP50        = "p50"
	MetricP95        = "p95"
	MetricP99        = "p99"
	MetricP999       = "p99.9"
	MetricMean       = "mean"
	MetricThroughput = "throughput"
	// MetricMin and MetricMax are YCSB's MinLatency and MaxLatency, compared
	// only descriptively (imported summaries): one extreme value is no basis for a gate.
	MetricMin = "min"
	MetricMax = "max"
)

// OpAll is the Op of workload-level metrics (throughput).
const OpAll = "ALL"

// latencyMetrics lists the per-operation metrics in display order.
var latencyMetrics = []string{MetricP50, MetricP95, MetricP99, MetricP999, MetricMean}

// DefaultAlpha is the family-wise error rate of the gate when Config.Alpha is 0.
const DefaultAlpha = 0.05

// DefaultTolerances are the tolerances used for metrics Config.Tolerances leaves out:
// the centre of the distribution and throughput are stable enough for 5%; the
// tail moves more between identical trials, so it gets more room.
var DefaultTolerances = map[string]float64{
	MetricP50:        0.05,
	MetricMean:       0.05,
	MetricThroughput: 0.05,
	MetricP95:        0.10,
	MetricP99:        0.10,
	MetricP999:       0.20,
}

// DefaultGate selects the metrics that gate when Config.Gate is nil: the p99 of
// every operation and the throughput of every workload.
var DefaultGate = []string{MetricP99, MetricThroughput}

// Config says how strict the comparison is. The zero value means the defaults.
type Config struct {
	// Alpha is the family-wise error rate of the gated metrics over the whole
	// run, all looks included (0 means DefaultAlpha).
	Alpha float64
	// Tolerances maps a metric name to the change (a fraction, 0.10 = 10%) that
	// counts as no change; missing metrics take DefaultTolerances.
	Tolerances map[string]float64
	// Gate selects the gated metrics. A selector is "metric", "op/metric" or
	// "workload/op/metric"; any part may be "*"; throughput's op is "ALL".
	// nil means DefaultGate.
	Gate []string
	// Looks is the number of planned looks of an adaptive schedule; alpha is
	// split evenly over them (Bonferroni), so every look, the final Compare
	// included, must use the same value. 0 means 1 (a fixed number of pairs).
	Looks int
	// MaxPairs is the most pairs per workload NeedMorePairs may grow to (the
	// suite's budget). 0 means no growth.
	MaxPairs int
	// Unpaired forces Welch's t even when the trials form pairs.
	Unpaired bool
}

// DefaultConfig returns the defaults spelled out, for callers that show or edit them.
func DefaultConfig() Config {
	tol := make(map[string]float64, len(DefaultTolerances))
	for k, v := range DefaultTolerances {
		tol[k] = v
	}
	return Config{Alpha: DefaultAlpha, Tolerances: tol, Gate: slices.Clone(DefaultGate), Looks: 1}
}

// gateSelector is one parsed Config.Gate entry.
type gateSelector struct{ workload, op, metric string }

// resolved is a validated Config with defaults filled in.
type resolved struct {
	Config
	tol  map[string]float64
	gate []gateSelector
}

// knownMetric reports whether name is one of the metrics this package computes.
func knownMetric(name string) bool {
	return name == MetricThroughput || slices.Contains(latencyMetrics, name)
}

func knownMetricList() string {
	return strings.Join(append(slices.Clone(latencyMetrics), MetricThroughput), ", ")
}

// resolve validates c and fills in the defaults.
func (c Config) resolve() (resolved, error) {
	r := resolved{Config: c}
	if r.Alpha == 0 {
		r.Alpha = DefaultAlpha
	}
	if math.IsNaN(r.Alpha) || r.Alpha <= 0 || r.Alpha >= 0.5 {
		return r, fmt.Errorf("compare: alpha %v is not a probability in (0, 0.5); use e.g. 0.05", c.Alpha)
	}
	if r.Looks == 0 {
		r.Looks = 1
	}
	if r.Looks < 0 {
		return r, fmt.Errorf("compare: %d planned looks; use 1 for a fixed number of pairs or 2-3 for adaptive pairs", c.Looks)
	}
	if r.MaxPairs < 0 {
		return r, fmt.Errorf("compare: max pairs %d is negative; use 0 for no adaptive growth", c.MaxPairs)
	}
	r.tol = make(map[string]float64, len(DefaultTolerances))
	for k, v := range DefaultTolerances {
		r.tol[k] = v
	}
	keys := make([]string, 0, len(c.Tolerances))
	for k := range c.Tolerances {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := c.Tolerances[k]
		if !knownMetric(k) {
			return r, fmt.Errorf("compare: tolerance for unknown metric %q; known metrics: %s", k, knownMetricList())
		}
		if math.IsNaN(v) || v <= 0 || v > 1 {
			return r, fmt.Errorf("compare: tolerance %v for %s is not a fraction in (0, 1]; write 10%% as 0.10", v, k)
		}
		r.tol[k] = v
	}
	gate := c.Gate
	if gate == nil {
		gate = DefaultGate
	}
	for _, g := range gate {
		parts := strings.Split(g, "/")
		var s gateSelector
		switch len(parts) {
		case 1:
			s = gateSelector{"*", "*", parts[0]}
		case 2:
			s = gateSelector{"*", parts[0], parts[1]}
		case 3:
			s = gateSelector{parts[0], parts[1], parts[2]}
		default:
			return r, fmt.Errorf("compare: gate selector %q has %d parts; write metric, op/metric or workload/op/metric", g, len(parts))
		}
		if s.metric != "*" && !knownMetric(s.metric) {
			return r, fmt.Errorf("compare: gate selector %q names unknown metric %q; known metrics: %s", g, s.metric, knownMetricList())
		}
		if s.workload == "" || s.op == "" || s.metric == "" {
			return r, fmt.Errorf("compare: gate selector %q has an empty part; use * for any", g)
		}
		r.gate = append(r.gate, s)
	}
	return r, nil
}

// gated reports whether a metric is selected by the gate.
func (r resolved) gated(k metricKey) bool {
	for _, s := range r.gate {
		if (s.workload == "*" || s.workload == k.Workload) &&
			(s.op == "*" || strings.EqualFold(s.op, k.Op)) &&
			(s.metric == "*" || s.metric == k.Metric) {
			return true
		}
	}
	return false
}

// gatesThroughput reports whether the gate selects workload w's throughput,
// which the held-rate check stands in for when the trials ran at a target rate.
func (r resolved) gatesThroughput(w string) bool {
	return r.gated(metricKey{w, OpAll, MetricThroughput})
}

// lookAlpha is the family-wise error rate one look may spend.
func (r resolved) lookAlpha() float64 { return r.Alpha / float64(r.Looks) }
