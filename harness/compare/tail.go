package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/regress-hbase/regress/harness/metric"
)

// MinTailSamples is how many samples every trial must hold beyond a
// percentile before that percentile may gate. With fewer, the percentile is
// one of the trial's last few values (p99 of 90 operations is the maximum):
// it moves with every stall and a gate on it has no power.
const MinTailSamples = 50

// fallbackOrder is where the gate looks, from the highest percentile down,
// for one with enough samples; the per-operation metrics without a quantile
// (the mean) need none beyond it and come last.
var fallbackOrder = func() []string {
	ms := slices.DeleteFunc(metric.All(), func(m metric.Metric) bool { return m.Scope != metric.PerOp || !m.Gated() })
	slices.SortStableFunc(ms, func(a, b metric.Metric) int { return cmp.Compare(b.Quantile, a.Quantile) })
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}()

// OpsNeeded is the fewest operations of one type a trial must record for the
// percentile metric to gate: MinTailSamples beyond it (5000 for p99).
// It is 0 for metrics without a tail (mean, throughput).
func OpsNeeded(name string) int64 {
	q := metric.Of(name).Quantile
	if q <= 0 {
		return 0
	}
	return SamplesNeeded(q)
}

// SamplesNeeded is the fewest samples a trial must hold for its quantile q
// (0 < q < 1) to have MinTailSamples beyond it: OpsNeeded's rule for any
// quantile (the reports' shift by decile shows p95 and p99 only past it).
func SamplesNeeded(q float64) int64 {
	return int64(math.Ceil(float64(MinTailSamples)/(1-q) - 1e-9))
}

// tailFallback returns the metric that gates in place of metric when trials
// of ops operations are too few for it: the highest percentile below it with
// MinTailSamples beyond it, else the mean; "" when metric itself may gate.
func tailFallback(metric string, ops int64) string {
	need := OpsNeeded(metric)
	if need == 0 || ops >= need {
		return ""
	}
	below := false
	for _, m := range fallbackOrder {
		if m == metric {
			below = true
			continue
		}
		if below && ops >= OpsNeeded(m) {
			return m
		}
	}
	return MetricMean
}

// TailFallback is the metric gating in place of r's when r's note says
// its trials recorded too few operations for it, else "".
func TailFallback(r MetricResult) string {
	fb := tailFallback(r.Metric, r.OpsPerTrial)
	if fb == "" || r.Note != tailNote(r.Metric, fb, r.OpsPerTrial) {
		return ""
	}
	return fb
}

// TailNotes is the note of several metrics that trials of too few
// operations (ops, one count each) keep from gating, in one sentence.
func TailNotes(metric, fallback string, ops []int64) string {
	lo, hi := slices.Min(ops), slices.Max(ops)
	if lo == hi {
		return tailNote(metric, fallback, lo)
	}
	return fmt.Sprintf("%s not gated: trials recorded only %d to %d operations of these types, too few for %d samples beyond %s (%s needs %d operations per trial); %s gates in its place",
		metric, lo, hi, MinTailSamples, metric, metric, OpsNeeded(metric), fallback)
}

func tailNote(metric, fallback string, ops int64) string {
	return fmt.Sprintf("%s not gated: a trial recorded only %d operations, so %.0f samples lie beyond %s (%d needed; %s needs %d operations per trial); %s gates in its place",
		metric, ops, float64(ops)*(1-quantile(metric)), metric, MinTailSamples, metric, OpsNeeded(metric), fallback)
}

// quantile is the catalogue's quantile of a percentile metric, 0 for others.
func quantile(name string) float64 { return metric.Of(name).Quantile }
