// Package changepoint finds the points where a series shifts: E-divisive
// means (Matteson & James, "A Nonparametric Approach for Multiple Change
// Point Analysis of Multivariate Data", JASA 2014), the method MongoDB's
// performance CI and Apache Otava (formerly Hunter) run on benchmark
// histories, with the permutation test of significance of the paper (as
// MongoDB's signal-processing-algorithms and early Hunter ran it; Otava now
// tests a split with a t-test between its two sides). It
// works on plain []float64 series (here: log ratios of each release to a
// reference) and knows nothing of HBase, trials or releases.
//
// The search is hierarchical. Each segment of the series (at first the whole
// series) is split at the τ where the divergence statistic
//
//	Q(τ,κ) = mn/(m+n) · ( 2/(mn) Σ|xᵢ−yⱼ|^a − 2/(m(m−1)) Σ|xᵢ−xₖ|^a − 2/(n(n−1)) Σ|yⱼ−yₖ|^a )
//
// between the part x before τ (m points) and the part y from τ to some κ
// (n points) is largest over τ and κ;
// the best split over all segments is a change point when its statistic is
// unlikely under no change: the observations are permuted within each
// segment R times, the best statistic recomputed each time, and the split is
// kept when the permutation p-value (k+1)/(R+1) is at most Alpha. The search
// stops at the first split that is not significant. On a series without a
// shift the first test is a test of the global null, so a flat series shows
// a change point with probability at most Alpha.
package changepoint

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Defaults of Options' zero values.
const (
	DefaultAlpha        = 0.05
	DefaultPermutations = 199
	DefaultMinSize      = 2
	DefaultExponent     = 1.0
	DefaultSeed         = 20261202
)

// Options says how hard to look. The zero value means the defaults.
type Options struct {
	// Alpha is the significance level of each permutation test, and the
	// shift intervals are (1-Alpha) two-sided (0: DefaultAlpha).
	Alpha float64
	// Permutations is R, the permutations per test (0: DefaultPermutations);
	// the smallest p-value a test can give is 1/(R+1).
	Permutations int
	// MinSize is the fewest points a segment may have (0: DefaultMinSize).
	// 1 lets a single outlier make two change points; 2 means a shift in
	// the last point alone is never a change point (the per-point interval
	// decides that one).
	MinSize int
	// Exponent is a in |x-y|^a, in (0, 2) (0: DefaultExponent).
	Exponent float64
	// Seed seeds the permutations (0: DefaultSeed), so a result repeats.
	Seed uint64
	// SE are optional standard errors of the points, used for a shift's
	// interval only when the series is too short to estimate its noise from
	// the residuals around the segment means (fewer than 2 degrees of freedom).
	SE []float64
}

// Point is one change point.
type Point struct {
	// Index is the first point of the new segment: the series shifts between
	// Index-1 and Index.
	Index int `json:"index"`
	// Stat is the divergence statistic Q of the split; P its permutation p-value.
	Stat float64 `json:"stat"`
	P    float64 `json:"p"`
	// Before and After are the means of the segments on either side (from the
	// previous change point, or the start, to the next, or the end).
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Shift is After-Before, with its (1-Alpha) two-sided interval [Low,
	// High]; NaN bounds when the noise cannot be estimated.
	Shift float64 `json:"shift"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Result is every change point found, in series order, and what the search
// tested.
type Result struct {
	Points []Point `json:"points"`
	// Alpha and Permutations are the options the search ran with.
	Alpha        float64 `json:"alpha"`
	Permutations int     `json:"permutations"`
	// Stopped is the p-value of the first split found not significant (the
	// one that ended the search; a lower bound, since the test stops counting
	// once it exceeds Alpha); 1 when no segment was long enough to split.
	Stopped float64 `json:"stopped_p"`
	// Residual is the pooled standard deviation around the segment means
	// and DF its degrees of freedom (0 when the segments fit exactly).
	Residual float64 `json:"residual_sd"`
	DF       int     `json:"df"`
}

// resolved is Options with the defaults filled in.
type resolved struct {
	Options
}

func (o Options) resolve(n int) (resolved, error) {
	r := resolved{o}
	if r.Alpha == 0 {
		r.Alpha = DefaultAlpha
	}
	if r.Permutations == 0 {
		r.Permutations = DefaultPermutations
	}
	if r.MinSize == 0 {
		r.MinSize = DefaultMinSize
	}
	if r.Exponent == 0 {
		r.Exponent = DefaultExponent
	}
	if r.Seed == 0 {
		r.Seed = DefaultSeed
	}
	switch {
	case math.IsNaN(r.Alpha) || r.Alpha <= 0 || r.Alpha >= 0.5:
		return r, fmt.Errorf("changepoint: alpha %v is not a level in (0, 0.5); use e.g. 0.05", o.Alpha)
	case r.Permutations < 1:
		return r, fmt.Errorf("changepoint: %d permutations; use at least 1/alpha-1 (e.g. 199 at alpha 0.05)", o.Permutations)
	case float64(r.Permutations+1)*r.Alpha < 1:
		return r, fmt.Errorf("changepoint: %d permutations cannot reach p <= %v (the smallest p is 1/(R+1)); use at least %d",
			r.Permutations, r.Alpha, int(math.Ceil(1/r.Alpha))-1)
	case r.MinSize < 1:
		return r, fmt.Errorf("changepoint: minimum segment size %d; use 1 or more", o.MinSize)
	case math.IsNaN(r.Exponent) || r.Exponent <= 0 || r.Exponent >= 2:
		return r, fmt.Errorf("changepoint: exponent %v is outside (0, 2); use 1", o.Exponent)
	case r.SE != nil && len(r.SE) != n:
		return r, fmt.Errorf("changepoint: %d standard errors for %d points; give one per point or none", len(r.SE), n)
	}
	return r, nil
}

// SmallestP is the smallest permutation p-value a single shift in a
// series of n distinct points can reach, however large: only the observed
// order and its mirror image (the statistic cannot tell a step up from the
// same values read backwards) split the two levels as cleanly, out of
// C(n, n/2) ways to place the halves, at best. Below it no test can reject.
func SmallestP(n int) float64 {
	if n < 2 {
		return 1
	}
	k := n / 2
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// MinLength is the shortest series in which a shift can be significant at alpha.
func MinLength(alpha float64) int {
	n := 2
	for SmallestP(n) > alpha && n < 1000 {
		n++
	}
	return n
}

// ErrBadValue is returned for a series holding NaN or an infinity.
var ErrBadValue = errors.New("changepoint: series value is NaN or infinite")

// Detect finds the change points of xs. A series shorter than 2·MinSize
// has no split to test and gives no points.
func Detect(xs []float64, o Options) (Result, error) {
	r, err := o.resolve(len(xs))
	if err != nil {
		return Result{}, err
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Result{}, fmt.Errorf("%w: point %d is %v; drop or fill it before the search", ErrBadValue, i, x)
		}
	}
	res := Result{Alpha: r.Alpha, Permutations: r.Permutations, Stopped: 1}
	bounds := []int{0, len(xs)}
	rng := rand.New(rand.NewPCG(r.Seed, uint64(len(xs))))
	s := newScanner(len(xs), r.Exponent)
	for {
		seg, tau, q := -1, 0, math.Inf(-1)
		for i := 0; i+1 < len(bounds); i++ {
			t, v := s.best(xs[bounds[i]:bounds[i+1]], r.MinSize)
			if t > 0 && v > q {
				seg, tau, q = i, bounds[i]+t, v
			}
		}
		if seg < 0 {
			break // no segment long enough to split
		}
		p := permutationP(xs, bounds, q, r, rng, s)
		if p > r.Alpha {
			res.Stopped = p
			break
		}
		res.Points = append(res.Points, Point{Index: tau, Stat: q, P: p})
		bounds = append(bounds, tau)
		slices.Sort(bounds)
	}
	slices.SortFunc(res.Points, func(a, b Point) int { return a.Index - b.Index })
	res.Residual, res.DF = estimateShifts(xs, bounds, res.Points, r)
	return res, nil
}

// permutationP is the permutation p-value of the best statistic q: the
// share of R within-segment permutations whose best split over all
// segments scores at least q, counting the observed series once. It stops
// as soon as the p-value is sure to exceed alpha, so a p-value above alpha
// is a lower bound.
func permutationP(xs []float64, bounds []int, q float64, r resolved, rng *rand.Rand, s *scanner) float64 {
	perm := slices.Clone(xs)
	limit := int(math.Floor(r.Alpha*float64(r.Permutations+1) + 1e-9)) // p <= alpha needs k+1 <= limit
	k := 0
	for done := 1; done <= r.Permutations; done++ {
		best := math.Inf(-1)
		for i := 0; i+1 < len(bounds); i++ {
			seg := perm[bounds[i]:bounds[i+1]]
			rng.Shuffle(len(seg), func(a, b int) { seg[a], seg[b] = seg[b], seg[a] })
			if _, v := s.best(seg, r.MinSize); v > best {
				best = v
			}
		}
		// A tiny tolerance: a permutation that reproduces the observed order
		// must count as reaching q despite rounding in the sums.
		if best >= q-1e-12*math.Abs(q) {
			k++
			if k+1 > limit {
				// p is at least (k+1)/(R+1) > alpha whatever the rest give.
				return float64(k+1) / float64(r.Permutations+1)
			}
		}
	}
	return float64(k+1) / float64(r.Permutations+1)
}

// scanner finds a segment's best split; it keeps its scratch space so the
// permutation loop allocates nothing.
type scanner struct {
	exp float64
	// pre[i*n+j] is Σ_{k<j} d(v_i, v_k): row prefix sums of the distances.
	pre []float64
}

func newScanner(n int, exp float64) *scanner {
	return &scanner{exp: exp, pre: make([]float64, n*(n+1))}
}

func (s *scanner) dist(a, b float64) float64 {
	d := math.Abs(a - b)
	if s.exp == 1 {
		return d
	}
	return math.Pow(d, s.exp)
}

// best returns the split τ (the left part is v[:τ]; 0 when the segment is
// too short) whose statistic Q(τ, κ) is largest over the ends κ of the right
// part v[τ:κ], and that Q. Searching κ as Matteson & James do lets a
// segment that moves away and back (a pulse) show its first edge: with the
// right part always running to the end, the level after the pulse dilutes it.
// The row prefix sums make every Q(τ, κ) an O(1) update, O(len(v)²) in all.
func (s *scanner) best(v []float64, minSize int) (int, float64) {
	L := len(v)
	if L < 2*minSize {
		return 0, math.Inf(-1)
	}
	w := L + 1
	pre := s.pre[:L*w]
	for i := 0; i < L; i++ {
		row := pre[i*w : (i+1)*w]
		row[0] = 0
		for j := 0; j < L; j++ {
			row[j+1] = row[j] + s.dist(v[i], v[j])
		}
	}
	bestT, bestQ := 0, math.Inf(-1)
	var wl float64 // Σ_{i<k<τ} d(i,k)
	for t := 0; t < minSize; t++ {
		wl += pre[t*w+t]
	}
	for t := minSize; t <= L-minSize; t++ {
		m := float64(t)
		within := 0.0
		if t > 1 {
			within = 2 * wl / (m * (m - 1))
		}
		var c, wr float64
		for k := t; k < L; k++ {
			c += pre[k*w+t]               // Σ_{i<τ} d(i,κ)
			wr += pre[k*w+k] - pre[k*w+t] // Σ_{τ≤j<κ} d(j,κ)
			nn := k - t + 1
			if nn < minSize {
				continue
			}
			n := float64(nn)
			e := 2*c/(m*n) - within
			if nn > 1 {
				e -= 2 * wr / (n * (n - 1))
			}
			if q := m * n / (m + n) * e; q > bestQ {
				bestT, bestQ = t, q
			}
		}
		wl += pre[t*w+t]
	}
	return bestT, bestQ
}

// estimateShifts fills each point's segment means and shift interval and
// returns the pooled residual sd around the segment means and its degrees
// of freedom. Each shift compares the segments on either side of its point
// (bounded by the neighbouring change points); its standard error is the
// pooled residual sd·√(1/m+1/n) with Student's t at N-segments degrees of
// freedom, or, when those are fewer than 2 and standard errors were given,
// the points' own errors with the normal quantile.
func estimateShifts(xs []float64, bounds []int, pts []Point, r resolved) (float64, int) {
	mean := func(a, b int) float64 {
		var s float64
		for _, x := range xs[a:b] {
			s += x
		}
		return s / float64(b-a)
	}
	var ss float64
	for i := 0; i+1 < len(bounds); i++ {
		m := mean(bounds[i], bounds[i+1])
		for _, x := range xs[bounds[i]:bounds[i+1]] {
			ss += (x - m) * (x - m)
		}
	}
	df := len(xs) - (len(bounds) - 1)
	sd := 0.0
	if df > 0 {
		sd = math.Sqrt(ss / float64(df))
	}
	for i := range pts {
		p := &pts[i]
		at := slices.Index(bounds, p.Index)
		a, b, c := bounds[at-1], bounds[at], bounds[at+1]
		p.Before, p.After = mean(a, b), mean(b, c)
		p.Shift = p.After - p.Before
		m, n := float64(b-a), float64(c-b)
		switch {
		case df >= 2:
			h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1-r.Alpha/2) * sd * math.Sqrt(1/m+1/n)
			p.Low, p.High = p.Shift-h, p.Shift+h
		case r.SE != nil:
			var vb, va float64
			for _, e := range r.SE[a:b] {
				vb += e * e
			}
			for _, e := range r.SE[b:c] {
				va += e * e
			}
			h := distuv.UnitNormal.Quantile(1-r.Alpha/2) * math.Sqrt(vb/(m*m)+va/(n*n))
			p.Low, p.High = p.Shift-h, p.Shift+h
		default:
			p.Low, p.High = math.NaN(), math.NaN()
		}
	}
	return sd, max(df, 0)
}
