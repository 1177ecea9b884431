package compare

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// estimate is a mean log ratio (candidate over baseline) with its standard
// error and degrees of freedom: the output of a paired t or a Welch t analysis.
type estimate struct {
	Mean float64 // mean of log(candidate/baseline)
	SE   float64 // standard error of Mean; 0 when every observation agrees
	DF   float64 // degrees of freedom of the t reference distribution
	N    int     // pairs (paired) or candidate trials (unpaired)
	// Instances counts the instance blocks of a nested estimate (0: not
	// nested); InstVar is the part of SE² that is the instance offset's,
	// shared by every workload of the run (instances.go).
	Instances int
	InstVar   float64
	InstDF    float64 // the degrees of freedom of InstVar's estimate
}

// meanVar returns the sample mean and the unbiased sample variance of xs.
// Two passes, because the one-pass formula loses precision on log values that
// sit close together, which is exactly what stable trials produce.
func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss, comp float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
		comp += d
	}
	variance = (ss - comp*comp/float64(len(xs))) / float64(len(xs)-1)
	if variance < 0 {
		variance = 0
	}
	return mean, variance
}

// pairedEstimate analyses per-pair differences d_i = log(c_i/b_i) with the
// paired t: mean ± t(n-1)·s/√n. Needs len(d) ≥ 2.
func pairedEstimate(d []float64) estimate {
	m, v := meanVar(d)
	n := len(d)
	return estimate{Mean: m, SE: math.Sqrt(v / float64(n)), DF: float64(n - 1), N: n}
}

// welchEstimate analyses log values of two independent samples with Welch's t:
// the difference of means with the Welch–Satterthwaite degrees of freedom.
// Needs at least 2 values a side.
func welchEstimate(logBase, logCand []float64) estimate {
	mb, vb := meanVar(logBase)
	mc, vc := meanVar(logCand)
	nb, nc := float64(len(logBase)), float64(len(logCand))
	qb, qc := vb/nb, vc/nc
	se2 := qb + qc
	df := nb + nc - 2 // the limit when both variances vanish; unused then (SE is 0)
	if se2 > 0 {
		df = se2 * se2 / (qb*qb/(nb-1) + qc*qc/(nc-1))
	}
	return estimate{Mean: mc - mb, SE: math.Sqrt(se2), DF: df, N: len(logCand)}
}

// tQuantile is the p-quantile of Student's t with df degrees of freedom.
func tQuantile(p, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// interval is the two-sided interval of the mean log ratio whose bounds are
// one-sided confidence bounds at level 1-a each (so a (1-2a) two-sided
// interval): the bound a one-sided test at level a compares with the tolerance.
func (e estimate) interval(a float64) (lo, hi float64) {
	if e.SE == 0 {
		return e.Mean, e.Mean
	}
	h := tQuantile(1-a, e.DF) * e.SE
	return e.Mean - h, e.Mean + h
}

// pAbove is the one-sided p-value of H0: true mean ≤ c against H1: mean > c.
func (e estimate) pAbove(c float64) float64 {
	if e.SE == 0 {
		if e.Mean > c {
			return 0
		}
		return 1
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: e.DF}.Survival((e.Mean - c) / e.SE)
}

// holm runs Holm's step-down procedure on raw one-sided p-values at
// family-wise error rate alpha. It returns the Holm-adjusted p-values, which
// hypotheses are rejected, and for each hypothesis the one-sided level its
// confidence bound must be read at for the bound to agree with the decision:
// alpha/(m-i) at sorted step i for steps up to the first acceptance, and the
// level of that accepting step for every hypothesis after it.
func holm(p []float64, alpha float64) (adjusted []float64, reject []bool, level []float64) {
	m := len(p)
	adjusted = make([]float64, m)
	reject = make([]bool, m)
	level = make([]float64, m)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] < p[order[b]] })
	stop := m // sorted position of the first hypothesis not rejected
	running := 0.0
	for i, j := range order {
		adj := math.Min(1, float64(m-i)*p[j])
		running = math.Max(running, adj)
		adjusted[j] = running
		if stop == m && p[j] >= alpha/float64(m-i) {
			stop = i
		}
		reject[j] = i < stop
		level[j] = alpha / float64(m-min(i, stop))
	}
	return adjusted, reject, level
}

// detectPower is the power at which Detectable is stated.
const detectPower = 0.8

// detectable is the smallest true change in the worse direction that the
// one-sided regression test at d's level rejects with probability
// detectPower: the tolerance plus the noise's margin, (t(1-level) +
// t(power)) standard errors, on the log scale.
func detectable(d detail) float64 {
	if d.est.N < 2 || d.level <= 0 {
		return 0
	}
	x := d.c
	if d.est.SE > 0 {
		x += (tQuantile(1-d.level, d.est.DF) + tQuantile(detectPower, d.est.DF)) * d.est.SE
	}
	v := math.Expm1(x)
	if d.key.worseSign() < 0 {
		v = -math.Expm1(-x)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
