package changepoint

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// directQ computes the statistic of v[:t] against v[t:k] from its definition.
func directQ(v []float64, t, k int, exp float64) float64 {
	x, y := v[:t], v[t:k]
	m, n := float64(len(x)), float64(len(y))
	var c, wl, wr float64
	for _, a := range x {
		for _, b := range y {
			c += math.Pow(math.Abs(a-b), exp)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			wl += math.Pow(math.Abs(x[i]-x[k]), exp)
		}
	}
	for i := range y {
		for k := i + 1; k < len(y); k++ {
			wr += math.Pow(math.Abs(y[i]-y[k]), exp)
		}
	}
	e := 2 * c / (m * n)
	if len(x) > 1 {
		e -= 2 * wl / (m * (m - 1))
	}
	if len(y) > 1 {
		e -= 2 * wr / (n * (n - 1))
	}
	return m * n / (m + n) * e
}

func TestScannerMatchesTheDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n, minSize int
		exp        float64
	}{{8, 1, 1}, {9, 2, 1}, {15, 3, 1.5}, {4, 2, 0.5}, {30, 2, 1}} {
		v := make([]float64, tc.n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		s := newScanner(tc.n, tc.exp)
		gotT, gotQ := s.best(v, tc.minSize)
		wantT, wantQ := 0, math.Inf(-1)
		for tt := tc.minSize; tt <= tc.n-tc.minSize; tt++ {
			for k := tt + tc.minSize; k <= tc.n; k++ {
				if q := directQ(v, tt, k, tc.exp); q > wantQ {
					wantT, wantQ = tt, q
				}
			}
		}
		if gotT != wantT || math.Abs(gotQ-wantQ) > 1e-9*math.Max(1, math.Abs(wantQ)) {
			t.Errorf("n=%d min=%d exp=%v: best split %d Q %.12g, want %d Q %.12g", tc.n, tc.minSize, tc.exp, gotT, gotQ, wantT, wantQ)
		}
	}
}

// series builds a series of segments with the given lengths and levels plus
// Gaussian noise of sd sigma.
func series(seed uint64, sigma float64, lens []int, levels []float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	var xs []float64
	for i, l := range lens {
		for range l {
			xs = append(xs, levels[i]+sigma*rng.NormFloat64())
		}
	}
	return xs
}

func TestDetectFindsKnownChangePoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xs     []float64
		want   []int
		shifts []float64
	}{
		{"one step up", series(1, 0.02, []int{10, 10}, []float64{0, 0.2}), []int{10}, []float64{0.2}},
		{"one step down late", series(2, 0.02, []int{15, 5}, []float64{0, -0.15}), []int{15}, []float64{-0.15}},
		{"up then back", series(3, 0.02, []int{8, 8, 8}, []float64{0, 0.2, 0}), []int{8, 16}, []float64{0.2, -0.2}},
		{"two steps", series(4, 0.01, []int{6, 6, 6}, []float64{0, 0.1, 0.25}), []int{6, 12}, []float64{0.1, 0.15}},
		{"noiseless step", []float64{0, 0, 0, 0, 1, 1, 1, 1}, []int{4}, []float64{1}},
		{"flat", series(5, 0.05, []int{30}, []float64{0}), nil, nil},
		{"constant", []float64{1, 1, 1, 1, 1, 1}, nil, nil},
		{"too short to split", []float64{0, 5, 0}, nil, nil},
		{"empty", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Detect(tc.xs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range res.Points {
				got = append(got, p.Index)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("change points at %v, want %v (result %+v)", got, tc.want, res)
			}
			for i, p := range res.Points {
				if p.Index != tc.want[i] {
					t.Errorf("point %d at %d, want %d", i, p.Index, tc.want[i])
				}
				if p.P > res.Alpha {
					t.Errorf("point at %d has p %v above alpha %v", p.Index, p.P, res.Alpha)
				}
				if math.Abs(p.Shift-tc.shifts[i]) > 0.05 {
					t.Errorf("point at %d: shift %.3f, want about %.3f", p.Index, p.Shift, tc.shifts[i])
				}
				if !(p.Low <= p.Shift && p.Shift <= p.High) {
					t.Errorf("point at %d: interval [%v, %v] does not hold the shift %v", p.Index, p.Low, p.High, p.Shift)
				}
				if tc.name != "noiseless step" && !(p.Low <= tc.shifts[i] && tc.shifts[i] <= p.High) {
					t.Errorf("point at %d: interval [%.3f, %.3f] misses the true shift %.3f", p.Index, p.Low, p.High, tc.shifts[i])
				}
			}
		})
	}
}

func TestDetectRepeatsWithTheSameSeed(t *testing.T) {
	xs := series(9, 0.05, []int{7, 7}, []float64{0, 0.08})
	a, err := Detect(xs, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Detect(xs, Options{Seed: 3})
	if len(a.Points) != len(b.Points) || a.Stopped != b.Stopped {
		t.Fatalf("same seed, different results: %+v vs %+v", a, b)
	}
	for i := range a.Points {
		if a.Points[i] != b.Points[i] {
			t.Errorf("point %d: %+v vs %+v", i, a.Points[i], b.Points[i])
		}
	}
}

func TestShiftIntervalFromStandardErrorsWhenTheSeriesIsTooShort(t *testing.T) {
	// A point found in three values leaves one residual degree of freedom,
	// too few for a t interval: the given standard errors decide it, and
	// without them it is unknown. No permutation test can find that point
	// (SmallestP(3) is 2/3), so the interval is computed on the split itself.
	xs := []float64{0, 0.001, 0.5}
	if res, err := Detect(xs, Options{MinSize: 1, Alpha: 0.4}); err != nil || len(res.Points) != 0 || SmallestP(len(xs)) <= 0.4 {
		t.Fatalf("Detect on 3 values = %+v, %v; want no point: a shift in 3 values cannot reach p %.3f", res, err, SmallestP(len(xs)))
	}
	r, err := Options{MinSize: 1, Alpha: 0.4}.resolve(len(xs))
	if err != nil {
		t.Fatal(err)
	}
	pts := []Point{{Index: 2}}
	bounds := []int{0, 2, 3}
	if _, df := estimateShifts(xs, bounds, pts, r); df != 1 || !math.IsNaN(pts[0].Low) || !math.IsNaN(pts[0].High) {
		t.Errorf("without standard errors and with %d df the interval should be unknown, got [%v, %v]", df, pts[0].Low, pts[0].High)
	}
	r.SE = []float64{0.01, 0.01, 0.01}
	pts = []Point{{Index: 2}}
	estimateShifts(xs, bounds, pts, r)
	p := pts[0]
	// Shift 0.5-0.0005; half-width z(0.8)·√(2·0.01²/2² + 0.01²/1²) ≈ 0.0103.
	if p.Shift < 0.499 || p.Shift > 0.5 || math.IsNaN(p.Low) || p.Low > p.Shift || p.High < p.Shift || p.High-p.Low > 0.03 || p.High-p.Low < 0.01 {
		t.Errorf("interval from standard errors [%v, %v] around %v", p.Low, p.High, p.Shift)
	}
}

func TestDetectRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		o    Options
		want string
	}{
		{"NaN", []float64{0, math.NaN(), 1, 1}, Options{}, "point 1 is NaN"},
		{"Inf", []float64{0, math.Inf(1)}, Options{}, "infinite"},
		{"alpha", []float64{0, 1}, Options{Alpha: 0.7}, "alpha 0.7"},
		{"too few permutations", []float64{0, 1}, Options{Permutations: 9}, "use at least 19"},
		{"exponent", []float64{0, 1}, Options{Exponent: 2}, "exponent 2"},
		{"min size", []float64{0, 1}, Options{MinSize: -1}, "minimum segment size -1"},
		{"standard errors", []float64{0, 1}, Options{SE: []float64{1}}, "1 standard errors for 2 points"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Detect(tc.xs, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if tc.name == "NaN" && !errors.Is(err, ErrBadValue) {
				t.Errorf("err = %v, want ErrBadValue", err)
			}
		})
	}
}

func TestSmallestPBoundsWhatATestCanReject(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want float64
	}{{1, 1}, {4, 2.0 / 6}, {7, 2.0 / 35}, {8, 2.0 / 70}, {10, 2.0 / 252}} {
		if got := SmallestP(tc.n); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("SmallestP(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
	if got := MinLength(0.05); got != 8 {
		t.Errorf("MinLength(0.05) = %d, want 8", got)
	}
	// A clean step in 7 points cannot reach 0.05; in 8 it can.
	for _, tc := range []struct {
		xs   []float64
		want int
	}{{[]float64{0, 0, 0, 1, 1, 1, 1}, 0}, {[]float64{0, 0, 0, 0, 1, 1, 1, 1}, 1}} {
		xs := slices.Clone(tc.xs)
		for i := range xs {
			xs[i] += 0.001 * float64(i%3)
		}
		res, err := Detect(xs, Options{Permutations: 999})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != tc.want {
			t.Errorf("%d points: %d change points (stopped at p %v), want %d", len(xs), len(res.Points), res.Stopped, tc.want)
		}
	}
}
