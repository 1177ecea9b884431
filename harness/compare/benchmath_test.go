package compare

import (
	"math"
	"testing"
)

func TestPairedIntervalOnPlainSamples(t *testing.T) {
	tests := []struct {
		name                 string
		d                    []float64
		alpha                float64
		mean, se, lo, hi     float64
		tolMean, tolInterval float64
	}{
		// R: t.test(1:5, conf.level = 0.95): 3 ± 2.77645·0.70711.
		{"known values", []float64{1, 2, 3, 4, 5}, 0.025, 3, math.Sqrt(0.5), 1.0367568385, 4.9632431615, 1e-12, 1e-8},
		{"every pair agrees: the interval is the mean", []float64{0.2, 0.2, 0.2}, 0.01, 0.2, 0, 0.2, 0.2, 1e-12, 1e-12},
		// t(0.95, 1) = 6.313751515: mean 0.15, se 0.05.
		{"two pairs", []float64{0.1, 0.2}, 0.05, 0.15, 0.05, 0.15 - 6.313751515*0.05, 0.15 + 6.313751515*0.05, 1e-12, 1e-8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mean, se, lo, hi := PairedInterval(tt.d, tt.alpha)
			near(t, "mean", mean, tt.mean, tt.tolMean)
			near(t, "se", se, tt.se, tt.tolMean)
			near(t, "lo", lo, tt.lo, tt.tolInterval)
			near(t, "hi", hi, tt.hi, tt.tolInterval)
		})
	}
}

// TestStatusReadOffItsOwnInterval is the rule as a history applies it: the
// regression decision is BeyondTolerance of the same interval.
func TestStatusReadOffItsOwnInterval(t *testing.T) {
	c := math.Log1p(0.10)
	tests := []struct {
		name          string
		lo, hi, worse float64
		beyond        bool
		want          Status
	}{
		{"latency up beyond tolerance", 0.12, 0.2, 1, true, Regressed},
		{"latency down beyond tolerance", -0.2, -0.12, 1, false, Improved},
		{"inside the band", -0.05, 0.05, 1, false, Unchanged},
		{"surely not worse", -0.2, 0.05, 1, false, NotWorse},
		{"maybe worse", -0.05, 0.2, 1, false, Inconclusive},
		{"lower bound exactly at the tolerance is not beyond it", c, 0.2, 1, false, Inconclusive},
		{"throughput fell beyond tolerance", -0.2, -0.12, -1, true, Regressed},
		{"throughput rose beyond tolerance", 0.12, 0.2, -1, false, Improved},
		{"throughput surely not down", -0.05, 0.2, -1, false, NotWorse},
		{"throughput upper bound exactly at -tolerance is not beyond it", -0.2, -c, -1, false, Inconclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			beyond := BeyondTolerance(tt.lo, tt.hi, c, tt.worse)
			if beyond != tt.beyond {
				t.Errorf("BeyondTolerance = %v, want %v", beyond, tt.beyond)
			}
			if got := StatusOf(tt.lo, tt.hi, c, tt.worse, beyond); got != tt.want {
				t.Errorf("StatusOf = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestToleranceBandIsTheStatusRulesBand(t *testing.T) {
	for _, tol := range []float64{0.05, 0.10, 1} {
		lo, hi := ToleranceBand(tol)
		c := math.Log1p(tol)
		near(t, "log of the lower edge", math.Log(lo), -c, 1e-12)
		near(t, "log of the upper edge", math.Log(hi), c, 1e-12)
		// A point just inside either edge is UNCHANGED, just outside is not.
		// (On the edge itself rounding decides: log(1/(1+t)) is not -log1p(t).)
		for _, tt := range []struct {
			r    float64
			want Status
		}{
			{lo * (1 + 1e-9), Unchanged}, {hi * (1 - 1e-9), Unchanged},
			{lo * (1 - 1e-9), Improved}, {hi * (1 + 1e-9), Inconclusive},
		} {
			x := math.Log(tt.r)
			if got := StatusOf(x, x, c, 1, false); got != tt.want {
				t.Errorf("tolerance %v: a point interval at %v is %s, want %s", tol, tt.r, got, tt.want)
			}
		}
	}
}
