package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// Metric names, as they appear in MetricResult.Metric, tolerances and gate
// selectors: the metric catalogue's, defined there once.
const (
	MetricP50        = metric.P50
	MetricP95        = metric.P95
	MetricP99        = metric.P99
	MetricP999       = metric.P999
	MetricMean       = metric.Mean
	MetricThroughput = metric.Throughput
	// MetricCPUPerOp and MetricAllocPerOp are the servers' cost per operation.
	MetricCPUPerOp   = metric.CPUPerOp
	MetricAllocPerOp = metric.AllocPerOp
	// MetricMin and MetricMax are YCSB's MinLatency and MaxLatency, compared
	// only descriptively (imported summaries): one extreme value is no basis for a gate.
	MetricMin = metric.Min
	MetricMax = metric.Max
	// MetricCapacity is the capacity metric: the highest open-loop rate a
	// version sustained within the SLO, in ops/s; higher is better.
	MetricCapacity = metric.Capacity
)

// OpAll is the Op of workload-level metrics (throughput).
const OpAll = "ALL"

// DefaultAlpha is the family-wise error rate of the gate when Config.Alpha is 0.
const DefaultAlpha = metric.DefaultAlpha

// DefaultGate selects the metrics that gate when Config.Gate is nil (metric.DefaultGate).
var DefaultGate = metric.DefaultGate

// Config says how strict the comparison is. The zero value means the defaults.
type Config struct {
	// Alpha is the family-wise error rate of the gated metrics over the whole
	// run, all looks included (0 means DefaultAlpha).
	Alpha float64
	// Tolerances maps a metric name to the change (a fraction, 0.10 = 10%) that
	// counts as no change; missing metrics take metric.DefaultTolerances.
	Tolerances map[string]float64
	// PrimaryTolerances maps a server cost (metric.EfficiencyMetrics) or a
	// latency (metric.LatencyMetrics) to the tolerance of its primary rows,
	// the change over every workload that gates it (for a latency, of one
	// class of operations); missing metrics take their Tolerances entry.
	PrimaryTolerances map[string]float64
	// Gate selects the gated metrics. A selector is "metric", "op/metric" or
	// "workload/op/metric"; any part may be "*"; throughput's op is "ALL".
	// nil means DefaultGate.
	Gate []string
	// DetectOnly selects gated metrics (selectors as Gate's) that only
	// detect: REGRESSED makes the verdict REGRESSION, but undecided they
	// never hold a PASS back nor ask for more pairs. For a figure whose
	// interval on the machine at hand is too wide to show it within
	// tolerance (a 2-core VM's p95 moved ±35% in an A/A of 2026-12-06),
	// the gate still catches a regression beyond tolerance, and PASS then
	// says no such regression was found, not that equivalence was shown.
	DetectOnly []string
	// Looks is the number of planned looks of an adaptive schedule; alpha is
	// split evenly over them (Bonferroni), so every look, the final Compare
	// included, must use the same value. 0 means 1 (a fixed number of pairs).
	Looks int
	// MaxPairs is the most pairs per workload NeedMorePairs may grow to (the
	// suite's budget). 0 means no growth.
	MaxPairs int
	// Unpaired forces Welch's t even when the trials form pairs.
	Unpaired bool
	// InstanceSD floors, per metric, the offset between two fresh pairs of
	// server JVMs (sd of a run's mean log ratio) when pairs span several
	// instance blocks (instances.go); absent: the data's estimate alone.
	InstanceSD map[string]float64
	// InstanceRuns is how many runs InstanceSD was measured over (its
	// degrees of freedom plus one): the weight it has against a run's own
	// estimate. 0 means 2.
	InstanceRuns int
	// InstanceSDByLine gives, per HBase line ("2.4": major.minor), the
	// InstanceSD measured on that line: a comparison takes its sides'
	// lines' figure (the larger per metric when they differ) in place of
	// InstanceSD, and says so in a warning when a side's line has none and
	// InstanceSD stands in (package noise).
	InstanceSDByLine map[string]map[string]float64
	// InstanceSDByJDK gives, per JDK major version ("11"), the instance sd
	// measured on JVMs of that JDK: a side on a listed JDK raises the
	// figure its line gave to the JDK's, metric by metric, where larger
	// (JDK 11's JIT draws offsets several times JDK 17's, on 2.4 and 2.6
	// alike; package noise).
	InstanceSDByJDK map[string]map[string]float64
	// MaxErrorRate is the share of a trial's operations that may fail (the
	// suite's run.max_error_rate, which the runner holds every trial to): a
	// trial above it measured failures, not the release, and makes the
	// verdict INVALID (errorrate.go). 0 means DefaultMaxErrorRate; a
	// negative value allows no failed operation (a suite's 0%).
	MaxErrorRate float64
}

// resolved is a validated Config with defaults filled in.
type resolved struct {
	Config
	tol map[string]float64
	// primaryTol is each server cost's primary row tolerance.
	primaryTol map[string]float64
	gate       []metric.Selector
	// gateText holds each selector as written, for messages.
	gateText []string
	// detect holds DetectOnly parsed.
	detect []metric.Selector
}

// Check refuses a Config the comparison would refuse (alpha, looks, a
// tolerance outside its metric's range, a gate selector): callers check a
// suite's before any trial runs.
func (c Config) Check() error {
	_, err := c.resolve()
	return err
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
	if math.IsNaN(r.MaxErrorRate) || r.MaxErrorRate > 1 {
		return r, fmt.Errorf("compare: max error rate %v is not a share of operations in [0, 1]; use e.g. 0.01 for 1%%", c.MaxErrorRate)
	}
	if r.MaxPairs < 0 {
		return r, fmt.Errorf("compare: max pairs %d is negative; use 0 for no adaptive growth", c.MaxPairs)
	}
	r.tol = metric.DefaultTolerances()
	keys := make([]string, 0, len(c.Tolerances))
	for k := range c.Tolerances {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := c.Tolerances[k]
		if !metric.IsMetric(k) {
			return r, fmt.Errorf("compare: tolerance for unknown metric %q; known metrics: %s", k, metric.List())
		}
		if err := metric.CheckTolerance(k, v); err != nil {
			return r, fmt.Errorf("compare: tolerance %v for %s: %w (tolerances are fractions: 0.10 is 10%%)", v, k, err)
		}
		r.tol[k] = v
	}
	r.primaryTol = maps.Clone(r.tol)
	for _, k := range slices.Sorted(maps.Keys(c.PrimaryTolerances)) {
		v := c.PrimaryTolerances[k]
		if !metric.HasPrimaryRow(k) {
			return r, fmt.Errorf("compare: primary tolerance for %q, which has no primary row; primary rows are those of %s", k, strings.Join(metric.PrimaryMetrics, ", "))
		}
		if err := metric.CheckTolerance(k, v); err != nil {
			return r, fmt.Errorf("compare: primary tolerance %v for %s: %w (tolerances are fractions: 0.03 is 3%%)", v, k, err)
		}
		r.primaryTol[k] = v
	}
	if err := c.Noise().Check(); err != nil {
		return r, err
	}
	gate := c.Gate
	if gate == nil {
		gate = DefaultGate
	}
	for _, g := range gate {
		s, err := metric.ParseSelector(g)
		if err != nil {
			return r, fmt.Errorf("compare: %w", err)
		}
		r.gate = append(r.gate, s)
		r.gateText = append(r.gateText, g)
	}
	for _, g := range c.DetectOnly {
		s, err := metric.ParseSelector(g)
		if err != nil {
			return r, fmt.Errorf("compare: detect only: %w", err)
		}
		r.detect = append(r.detect, s)
	}
	return r, nil
}

// detectOnly reports whether a metric is selected by DetectOnly.
func (r resolved) detectOnly(k metricKey) bool {
	for _, s := range r.detect {
		if s.Matches(k.Workload, k.Op, k.Metric) {
			return true
		}
	}
	return false
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

// tightestTol is metric's smallest tolerance over its workload rows and its
// primary row: the margin an instance offset has to fit in.
func (r resolved) tightestTol(metric string) float64 {
	t := r.tol[metric]
	if p, ok := r.primaryTol[metric]; ok && p > 0 && (t <= 0 || p < t) {
		t = p
	}
	return t
}
