package compare

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.9g, want %.9g (±%g)", what, got, want, tol)
	}
}

func TestTQuantileMatchesTables(t *testing.T) {
	// Values from standard t tables (R: qt(p, df)).
	tests := []struct{ p, df, want float64 }{
		{0.975, 4, 2.7764451052},
		{0.95, 6, 1.9431802805},
		{0.995, 10, 3.1692726669},
		{0.975, 1, 12.7062047362},
		{0.9, 30, 1.3104150588},
	}
	for _, tt := range tests {
		near(t, "tQuantile", tQuantile(tt.p, tt.df), tt.want, 1e-7)
	}
}

func TestPairedIntervalKnownValues(t *testing.T) {
	// d = 1..5: mean 3, s = 1.5811, se = 0.70711; 95% CI 3 ± 2.77645·0.70711.
	e := pairedEstimate([]float64{1, 2, 3, 4, 5})
	near(t, "mean", e.Mean, 3, 1e-12)
	near(t, "se", e.SE, math.Sqrt(0.5), 1e-12)
	near(t, "df", e.DF, 4, 0)
	lo, hi := e.interval(0.025)
	near(t, "lo", lo, 1.0367568385, 1e-8)
	near(t, "hi", hi, 4.9632431615, 1e-8)
	// The bound sits exactly at the one-sided critical value, so p = a there.
	near(t, "pAbove at the bound", e.pAbove(lo), 0.025, 1e-9)
	near(t, "pAbove far below", e.pAbove(-100), 0, 1e-7)
	near(t, "pAbove far above", e.pAbove(100), 1, 1e-7)
}

func TestWelchKnownValues(t *testing.T) {
	// R: t.test(c(2,4,6,8,10), c(1,2,3,4)) gives t = 2.2515, df = 5.5208.
	e := welchEstimate([]float64{1, 2, 3, 4}, []float64{2, 4, 6, 8, 10})
	near(t, "mean", e.Mean, 3.5, 1e-12)
	near(t, "t", e.Mean/e.SE, 2.2515, 1e-4)
	near(t, "df", e.DF, 5.5208, 1e-4)
	if e.N != 5 {
		t.Errorf("N = %d, want the candidate's 5 trials", e.N)
	}
}

func TestDegenerateSpreadGivesPointInterval(t *testing.T) {
	e := pairedEstimate([]float64{0.2, 0.2, 0.2})
	lo, hi := e.interval(0.01)
	if e.SE != 0 || math.Abs(lo-0.2) > 1e-12 || lo != hi {
		t.Fatalf("identical differences: se %g interval [%g, %g], want 0 and [0.2, 0.2]", e.SE, lo, hi)
	}
	if p := e.pAbove(0.1); p != 0 {
		t.Errorf("pAbove(0.1) = %g, want 0 when every pair is above", p)
	}
	if p := e.pAbove(0.3); p != 1 {
		t.Errorf("pAbove(0.3) = %g, want 1 when every pair is below", p)
	}
	w := welchEstimate([]float64{1, 1}, []float64{1, 1, 1})
	if math.IsNaN(w.DF) || math.IsNaN(w.SE) {
		t.Errorf("Welch on constant samples gives NaN: %+v", w)
	}
}

func TestHolm(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	adj, reject, level := holm(p, 0.05)
	// Sorted: 0.005 < 0.05/4 rejected; 0.01 < 0.05/3 rejected; 0.03 ≥ 0.05/2 stops.
	wantAdj := []float64{0.03, 0.06, 0.06, 0.02}
	wantRej := []bool{true, false, false, true}
	wantLevel := []float64{0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4}
	for i := range p {
		near(t, "adjusted", adj[i], wantAdj[i], 1e-12)
		near(t, "level", level[i], wantLevel[i], 1e-12)
		if reject[i] != wantRej[i] {
			t.Errorf("reject[%d] = %v, want %v", i, reject[i], wantRej[i])
		}
		if reject[i] != (adj[i] < 0.05) {
			t.Errorf("hypothesis %d: rejection %v disagrees with adjusted p %g", i, reject[i], adj[i])
		}
		if reject[i] != (p[i] < level[i]) {
			t.Errorf("hypothesis %d: rejection %v disagrees with its level %g (p %g)", i, reject[i], level[i], p[i])
		}
	}
}

func TestHolmStopsAtFirstAcceptance(t *testing.T) {
	// 0.04 would pass alone at 0.05, but Holm stopped at 0.03 ≥ 0.025.
	_, reject, level := holm([]float64{0.03, 0.04}, 0.05)
	if reject[0] || reject[1] {
		t.Fatalf("reject = %v, want none", reject)
	}
	if level[1] != 0.025 {
		t.Errorf("level after the stop = %g, want the stopping step's 0.025 so the interval agrees", level[1])
	}
}

func TestStatusEdges(t *testing.T) {
	c := math.Log1p(0.10)
	tests := []struct {
		name      string
		lo, hi    float64
		sign      float64
		regressed bool
		want      Status
	}{
		{"test rejected", c + 0.01, c + 0.2, 1, true, Regressed},
		{"inside the band", -0.05, 0.05, 1, false, Unchanged},
		{"touching both edges counts as inside", -c, c, 1, false, Unchanged},
		{"straddles the upper edge", 0.05, c + 0.01, 1, false, Inconclusive},
		{"straddles the lower edge: not worse, not equivalent", -c - 0.01, 0, 1, false, NotWorse},
		{"wider than the band", -c - 0.01, c + 0.01, 1, false, Inconclusive},
		{"wholly below the lower edge", -c - 0.2, -c - 0.01, 1, false, Improved},
		{"upper bound exactly at the lower edge is not improved, only not worse", -c - 0.2, -c, 1, false, NotWorse},
		{"upper bound exactly at the upper edge is not worse", -0.01, c, 1, false, Unchanged},
		// Throughput: a drop is worse, so the interval is mirrored.
		{"throughput drop beyond tolerance", -c - 0.2, -c - 0.01, -1, true, Regressed},
		{"throughput rise beyond tolerance", c + 0.01, c + 0.2, -1, false, Improved},
		{"throughput steady", -0.01, 0.01, -1, false, Unchanged},
		{"throughput maybe up a lot, surely not down", -0.01, c + 0.2, -1, false, NotWorse},
		{"throughput maybe down beyond tolerance", -c - 0.01, 0.01, -1, false, Inconclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StatusOf(tt.lo, tt.hi, c, tt.sign, tt.regressed); got != tt.want {
				t.Errorf("status = %s, want %s", got, tt.want)
			}
		})
	}
}
