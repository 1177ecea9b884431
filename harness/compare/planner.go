package compare

import (
	"math"
)

// PlanCap is the most pairs the planner projects; beyond it a metric is
// reported as needing more than PlanCap pairs.
const PlanCap = 1000

// PairsPlan is the planner's answer for one gated metric: how much it moves
// from trial to trial, and how many interleaved pairs a run needs to decide it.
type PairsPlan struct {
	Workload  string  `json:"workload"`
	Op        string  `json:"op"`
	Metric    string  `json:"metric"`
	Tolerance float64 `json:"tolerance"`
	// Spread is the standard deviation of the per-pair log ratio
	// log(candidate/baseline): about the trial-to-trial change in percent / 100.
	Spread float64 `json:"spread"`
	// Trials is how many trials (pairs when paired) the spread was measured on.
	Trials int `json:"trials"`
	// OpsPerTrial is the fewest operations of this type in a measured trial.
	OpsPerTrial int64 `json:"ops_per_trial,omitempty"`
	// PairsToPass is the pairs at which an unchanged candidate passes this
	// metric with probability 0.8 (its bound at alpha/looks within 1+tau).
	PairsToPass int `json:"pairs_to_pass"`
	// PairsToDetect is the pairs at which a change of twice the tolerance is
	// REGRESSED with probability 0.8, at the first Holm step's level
	// alpha/(looks x gated metrics), the strictest one.
	PairsToDetect int `json:"pairs_to_detect"`
	// GatedFor names the metric this one gates in place of (tail-sample rule).
	GatedFor string `json:"gated_for,omitempty"`
	// DetectOnly marks a row that only detects (compare.detect_only):
	// undecided, it never holds a PASS back, so its pairs are advice.
	DetectOnly bool `json:"detect_only,omitempty"`
}

// planPairs projects every gated metric's pairs from comparison c and its
// details (see PlanPairs).
func planPairs(c *Comparison, details []detail, r resolved) []PairsPlan {
	gated := 0
	for _, m := range c.Metrics {
		if m.Gated {
			gated++
		}
	}
	passAlpha := r.Alpha / float64(r.Looks)
	detectAlpha := passAlpha / float64(max(gated, 1))
	var out []PairsPlan
	for i, m := range c.Metrics {
		if !m.Gated || details == nil {
			continue
		}
		d := details[i]
		s := math.Sqrt(d.varBase + d.varCand)
		n := d.nBase
		if c.Paired {
			s = d.est.SE * math.Sqrt(float64(d.est.N))
			n = d.est.N
		}
		cTol := math.Log1p(m.Tolerance)
		out = append(out, PairsPlan{
			Workload: m.Workload, Op: m.Op, Metric: m.Metric, Tolerance: m.Tolerance,
			Spread: s, Trials: n, OpsPerTrial: m.OpsPerTrial, GatedFor: m.GatedFor, DetectOnly: m.DetectOnly,
			PairsToPass:   pairsFor(s, cTol, passAlpha),
			PairsToDetect: pairsFor(s, math.Log1p(2*m.Tolerance)-cTol, detectAlpha),
		})
	}
	return out
}

// pairsFor is the smallest number of pairs n >= 2 at which a one-sided
// bound at level a, of a mean of n log ratios with spread s, clears a gap
// with probability 0.8: (t(1-a, n-1) + t(0.8, n-1))·s/√n < gap.
func pairsFor(s, gap, a float64) int {
	if s == 0 {
		return 2
	}
	for n := 2; n <= PlanCap; n++ {
		df := float64(n - 1)
		if (tQuantile(1-a, df)+tQuantile(0.8, df))*s/math.Sqrt(float64(n)) < gap {
			return n
		}
	}
	return PlanCap + 1
}
