package compare

import (
	"math"
	"testing"
)

// TestComparePairedReadsTheDirectionOfEachMetric: the same log ratios are a
// regression for a latency (higher is worse) and an improvement for a
// capacity (higher is better), and a row not gated is passed through untested.
func TestComparePairedReadsTheDirectionOfEachMetric(t *testing.T) {
	up := []float64{math.Log(1.5), math.Log(1.45), math.Log(1.55), math.Log(1.5)}
	for _, tc := range []struct {
		metric  string
		status  Status
		verdict Verdict
	}{
		{MetricP99, Regressed, Regression},
		{MetricCapacity, Improved, Pass},
		{MetricThroughput, Improved, Pass},
	} {
		t.Run(tc.metric, func(t *testing.T) {
			rows := []PairedRatios{
				{Row: MetricResult{Workload: "a", Metric: tc.metric, Tolerance: 0.1, Gated: true}, LogRatios: up},
				{Row: MetricResult{Workload: "b", Metric: tc.metric, Status: Descriptive, P: math.NaN()}},
			}
			ms, v := ComparePaired(rows, 0.05)
			if ms[0].Status != tc.status || v != tc.verdict || !(ms[0].CILow > 1.3 && ms[0].CIHigh < 1.7) {
				t.Errorf("row %+v, verdict %s; want %s and %s", ms[0], v, tc.status, tc.verdict)
			}
			if ms[1].Status != Descriptive || !math.IsNaN(ms[1].P) {
				t.Errorf("an untested row changed: %+v", ms[1])
			}
		})
	}
}

// TestComparePairedFloorsTheVarianceAtTheGrid: identical ratios (zero spread)
// are certain without a floor and not with one.
func TestComparePairedFloorsTheVarianceAtTheGrid(t *testing.T) {
	same := []float64{math.Log(0.85), math.Log(0.85)}
	row := MetricResult{Metric: MetricCapacity, Tolerance: 0.1, Gated: true}
	bare, _ := ComparePaired([]PairedRatios{{Row: row, LogRatios: same}}, 0.05)
	floored, _ := ComparePaired([]PairedRatios{{Row: row, LogRatios: same, MinVar: 0.01}}, 0.05)
	if bare[0].Status != Regressed || bare[0].CILow != bare[0].CIHigh {
		t.Errorf("no floor: %+v, want a zero-width REGRESSED", bare[0])
	}
	if floored[0].Status == Regressed || !(floored[0].CILow < floored[0].CIHigh) {
		t.Errorf("floored: %+v, want a real interval and no certainty from two pairs", floored[0])
	}
}
