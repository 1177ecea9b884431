package compare

import (
	"fmt"
	"github.com/regress-hbase/regress/harness/policy"
	"math"
	"slices"
	"sort"
)

// Metric names, as they appear in MetricResult.Metric, tolerances and gate
// selectors: policy's, defined there once.
const (
	MetricP50        = policy.P50
	MetricP95        = policy.P95
	MetricP99        = policy.P99
	MetricP999       = policy.P999
	MetricMean       = policy.Mean
	MetricThroughput = policy.Throughput
	// MetricCPUPerOp and MetricAllocPerOp are the servers' cost per operation (policy's).
	MetricCPUPerOp   = policy.CPUPerOp
	MetricAllocPerOp = policy.AllocPerOp
	// MetricMin and MetricMax are YCSB's MinLatency and MaxLatency, compared
	// only descriptively (imported summaries): one extreme value is no basis for a gate.
	MetricMin = "min"
	MetricMax = "max"
)

// OpAll is the Op of workload-level metrics (throughput).
const OpAll = "ALL"

// latencyMetrics lists the per-operation metrics in display order.
var latencyMetrics = policy.LatencyMetrics

// DefaultAlpha is the family-wise error rate of the gate when Config.Alpha is 0.
const DefaultAlpha = policy.DefaultAlpha

// DefaultGate selects the metrics that gate when Config.Gate is nil (policy.DefaultGate).
var DefaultGate = policy.DefaultGate

// Config says how strict the comparison is. The zero value means the defaults.
type Config struct {
	// Alpha is the family-wise error rate of the gated metrics over the whole
	// run, all looks included (0 means DefaultAlpha).
	Alpha float64
	// Tolerances maps a metric name to the change (a fraction, 0.10 = 10%) that
	// counts as no change; missing metrics take policy.DefaultTolerances.
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
	return Config{Alpha: DefaultAlpha, Tolerances: policy.DefaultTolerances(), Gate: slices.Clone(DefaultGate), Looks: 1}
}

// resolved is a validated Config with defaults filled in.
type resolved struct {
	Config
	tol  map[string]float64
	gate []policy.Selector
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
	r.tol = policy.DefaultTolerances()
	keys := make([]string, 0, len(c.Tolerances))
	for k := range c.Tolerances {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := c.Tolerances[k]
		if !policy.IsMetric(k) {
			return r, fmt.Errorf("compare: tolerance for unknown metric %q; known metrics: %s", k, policy.MetricList())
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
		s, err := policy.ParseSelector(g)
		if err != nil {
			return r, fmt.Errorf("compare: %w", err)
		}
		r.gate = append(r.gate, s)
	}
	return r, nil
}

// gated reports whether a metric is selected by the gate.
func (r resolved) gated(k metricKey) bool {
	for _, s := range r.gate {
		if s.Matches(k.Workload, k.Op, k.Metric) {
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
