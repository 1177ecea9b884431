package metric

import (
	"fmt"
	"strings"
)

// DefaultAlpha is the family-wise error rate of the gate.
const DefaultAlpha = 0.05

// DefaultGate selects the p99 of every operation and the throughput of
// every workload (the comparison gates throughput only where it can move).
var DefaultGate = []string{P99, Throughput}

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
		return s, fmt.Errorf("gate selector %q names unknown metric %q; known metrics: %s", g, s.Metric, List())
	}
	return s, nil
}

// Matches reports whether the selector picks metric of op in workload (ops compare case-insensitively).
func (s Selector) Matches(workload, op, metric string) bool {
	return (s.Workload == "*" || s.Workload == workload) &&
		(s.Op == "*" || strings.EqualFold(s.Op, op)) &&
		(s.Metric == "*" || s.Metric == metric)
}
