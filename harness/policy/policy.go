// Package policy is what a verdict gates on unless told otherwise, defined
// once for suite validation, the comparison and the reports: the metric
// names, their default tolerances, the default gate and alpha, and the
// grammar of a gate selector.
package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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
)

// EfficiencyMetrics are the per-workload server cost metrics, in display order.
var EfficiencyMetrics = []string{CPUPerOp, AllocPerOp}

// LatencyMetrics are the per-operation metrics, in display order.
var LatencyMetrics = []string{P50, P95, P99, P999, Mean}

// Metrics are every metric a suite may set a tolerance for or gate on.
var Metrics = append(append(slices.Clone(LatencyMetrics), Throughput), EfficiencyMetrics...)

// IsEfficiency reports whether name is a server cost metric (cpu_per_op, alloc_per_op).
func IsEfficiency(name string) bool { return slices.Contains(EfficiencyMetrics, name) }

// DefaultAlpha is the family-wise error rate of the gate.
const DefaultAlpha = 0.05

// defaultTolerances: the centre of the distribution and throughput are
// stable enough for 5%; the tail moves more between identical trials, so it
// gets more room.
var defaultTolerances = map[string]float64{P50: 0.05, Mean: 0.05, Throughput: 0.05, P95: 0.10, P99: 0.10, P999: 0.20,
	CPUPerOp: 0.10, AllocPerOp: 0.10}

// DefaultTolerances returns a fresh copy of the default tolerance of every metric.
func DefaultTolerances() map[string]float64 { return maps.Clone(defaultTolerances) }

// DefaultGate selects the p99 of every operation and the throughput of
// every workload (the comparison gates throughput only where it can move).
var DefaultGate = []string{P99, Throughput}

// IsMetric reports whether name is a metric of Metrics.
func IsMetric(name string) bool { return slices.Contains(Metrics, name) }

// MetricList names the metrics for error messages.
func MetricList() string { return strings.Join(Metrics, ", ") }

// Selector is one parsed gate selector: "metric", "op/metric" or
// "workload/op/metric", any part "*" for any; throughput's op is ALL.
type Selector struct{ Workload, Op, Metric string }

// ParseSelector reads a gate selector, refusing unknown metrics and empty parts.
func ParseSelector(g string) (Selector, error) {
	parts := strings.Split(g, "/")
	var s Selector
	switch len(parts) {
	case 1:
		s = Selector{"*", "*", parts[0]}
	case 2:
		s = Selector{"*", parts[0], parts[1]}
	case 3:
		s = Selector{parts[0], parts[1], parts[2]}
	default:
		return s, fmt.Errorf("gate selector %q has %d parts; write metric, op/metric or workload/op/metric", g, len(parts))
	}
	if s.Workload == "" || s.Op == "" || s.Metric == "" {
		return s, fmt.Errorf("gate selector %q has an empty part; use * for any", g)
	}
	if s.Metric != "*" && !IsMetric(s.Metric) {
		return s, fmt.Errorf("gate selector %q names unknown metric %q; known metrics: %s", g, s.Metric, MetricList())
	}
	return s, nil
}

// Matches reports whether the selector picks metric of op in workload (ops compare case-insensitively).
func (s Selector) Matches(workload, op, metric string) bool {
	return (s.Workload == "*" || s.Workload == workload) &&
		(s.Op == "*" || strings.EqualFold(s.Op, op)) &&
		(s.Metric == "*" || s.Metric == metric)
}
