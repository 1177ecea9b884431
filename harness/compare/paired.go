package compare

import (
	"math"

	"github.com/regress-hbase/regress/harness/metric"
)

// PairedRatios is one metric a caller observed once a side in each of
// several pairs, already extracted and paired (capacity's searches): the
// statistics here never see where the numbers came from.
type PairedRatios struct {
	// Row is the metric's row as the caller describes it (workload, metric,
	// unit, tolerance, values, pairs, note); Gated says it is to be tested.
	Row MetricResult
	// LogRatios are log(candidate/baseline), one a pair; a gated row needs two or more.
	LogRatios []float64
	// MinVar floors the variance of one log ratio: what the measurement's own
	// grid adds (a bisected capacity is only known within its bracket), so
	// pairs that land on the same grid points do not read as certainty. 0: no floor.
	MinVar float64
}

// ComparePaired tests the gated rows with the paired t on their log
// ratios, Holm over them at family-wise rate alpha, each against its
// tolerance band in the direction the catalogue gives its metric, and
// returns every row (P, interval, bounds and status set on the gated ones)
// and the verdict over the gated rows. The caller says what a family
// without a gated row means.
func ComparePaired(rows []PairedRatios, alpha float64) ([]MetricResult, Verdict) {
	out := make([]MetricResult, len(rows))
	ests := make([]estimate, len(rows))
	var gated []int
	var raw []float64
	for i, r := range rows {
		out[i] = r.Row
		if !r.Row.Gated {
			continue
		}
		e := pairedEstimate(r.LogRatios)
		if v := e.SE * e.SE * float64(e.N); v < r.MinVar {
			e.SE = math.Sqrt(r.MinVar / float64(e.N))
		}
		ests[i] = e
		worse := e
		worse.Mean *= metric.Of(r.Row.Metric).Worse.Sign()
		gated = append(gated, i)
		raw = append(raw, worse.pAbove(math.Log1p(r.Row.Tolerance)))
	}
	adj, reject, level := holm(raw, alpha)
	for j, i := range gated {
		m, e := &out[i], ests[i]
		sign := metric.Of(m.Metric).Worse.Sign()
		m.P = adj[j]
		lo, hi := e.interval(alpha)
		m.CILow, m.CIHigh = math.Exp(lo), math.Exp(hi)
		rlo, rhi := e.interval(level[j])
		m.PassBound, m.RegressionBound = math.Exp(lo), math.Exp(rlo)
		if sign < 0 {
			m.RegressionBound = math.Exp(rhi)
		} else {
			m.PassBound = math.Exp(hi)
		}
		m.Status = StatusOf(lo, hi, math.Log1p(m.Tolerance), sign, reject[j])
	}
	return out, verdict(out, nil)
}
