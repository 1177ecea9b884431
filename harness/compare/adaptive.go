package compare

import (
	"fmt"
	"math"
)

// Plan is the answer to the scheduler after one look at the pairs run so far.
type Plan struct {
	// More is true when a gated metric is INCONCLUSIVE, none is REGRESSED,
	// looks remain and the budget allows more pairs.
	More bool
	// Extra maps a workload to the number of pairs to add to it before the
	// next look; only workloads with an INCONCLUSIVE gated metric appear.
	Extra map[string]int
	// Inconclusive names the gated metrics still undecided, as workload/op/metric.
	Inconclusive []string
	// Comparison is this look's result; it is the final one when More is false.
	Comparison *Comparison
}

// plan is NeedMorePairs' answer from this look's comparison c and its details.
func plan(c *Comparison, details []detail, r resolved, look int) Plan {
	p := Plan{Comparison: c, Extra: map[string]int{}}
	if c.Descriptive {
		return p
	}
	for i, m := range c.Metrics {
		if m.Gated && m.Status == Inconclusive && !m.DetectsOnly() {
			p.Inconclusive = append(p.Inconclusive, details[i].key.String())
		}
	}
	if c.Verdict != VerdictInconclusive || look >= r.Looks {
		return p
	}
	for i, m := range c.Metrics {
		if !m.Gated || m.Status != Inconclusive || m.DetectsOnly() {
			continue
		}
		d := details[i]
		if d.est.InstVar > 0 && !pairsCanDecide(d, c.LookAlpha) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: more pairs cannot decide it: the offset between server instances "+
				"(%d a side so far) keeps its interval wider than the distance to the tolerance; run more instances (--instances)",
				d.key, d.est.Instances))
			continue
		}
		need := pairsNeeded(d, c.Paired, c.LookAlpha, r.MaxPairs) - d.est.N
		ws := []string{d.key.Workload}
		if m.Primary { // more pairs of every workload the primary row pools
			ws = m.Pools
		}
		for _, w := range ws {
			if need > p.Extra[w] {
				p.Extra[w] = need
			}
		}
	}
	// A held rate the candidate missed more often, but not significantly:
	// more pairs are the only way to tell; ask for as many as allowed.
	for _, h := range c.HeldRate {
		if h.Gated && h.Status == Inconclusive {
			p.Inconclusive = append(p.Inconclusive, h.Workload+"/held rate")
			if need := r.MaxPairs - h.CandidateTrials; need > p.Extra[h.Workload] {
				p.Extra[h.Workload] = need
			}
		}
	}
	for w, n := range p.Extra {
		if n <= 0 {
			delete(p.Extra, w)
		}
	}
	p.More = len(p.Extra) > 0
	return p
}

// zPower is the standard normal quantile of the power pairsNeeded aims at
// (0.8): asking only for the pairs at which the bound would just reach the
// tolerance decides half the time, which wastes a look.
const zPower = 0.8416212335729143

// pairsCanDecide reports whether any number of pairs could decide d at
// the 0.8 power pairsNeeded aims at, with the instance part of its variance
// (which pairs do not shrink) as it stands.
func pairsCanDecide(d detail, passAlpha float64) bool {
	e := d.est
	if e.InstVar <= 0 {
		return true
	}
	x := e.Mean * d.key.worseSign()
	level, gap := passAlpha, d.c-x
	if x > d.c {
		level, gap = d.level, x-d.c
	}
	return (tQuantile(1-level, e.InstDF)+zPower)*math.Sqrt(e.InstVar) < gap
}

// pairsNeeded projects the smallest number of pairs (candidate trials when
// unpaired) at which, with the current estimate and spread, the metric would
// be decided with probability 0.8: its bound at the Holm level above the tolerance when the
// estimate lies beyond it (REGRESSED), otherwise its non-inferiority bound at
// the look's level passAlpha within it (NOT WORSE). It returns most when no
// count up to most would do.
func pairsNeeded(d detail, paired bool, passAlpha float64, most int) int {
	e := d.est
	x := e.Mean * d.key.worseSign()
	level, gap := passAlpha, d.c-x
	if x > d.c {
		level, gap = d.level, x-d.c
	}
	for n := e.N + 1; n <= most; n++ {
		var se, df float64
		if paired {
			// Added pairs shrink the pairs' part of the variance; the
			// instances' part stays (they go into the last instance).
			pv := (e.SE*e.SE - e.InstVar) * float64(e.N) / float64(n)
			se = math.Sqrt(pv + e.InstVar)
			df = float64(n - 1)
			if e.InstVar > 0 {
				dfW := math.Max(float64(n-e.Instances), 1)
				df = (pv + e.InstVar) * (pv + e.InstVar) / (pv*pv/dfW + e.InstVar*e.InstVar/e.InstDF)
			}
		} else {
			qb := d.varBase / float64(d.nBase)
			qc := d.varCand / float64(n)
			se = math.Sqrt(qb + qc)
			df = float64(d.nBase + n - 2)
			if den := qb*qb/float64(d.nBase-1) + qc*qc/float64(n-1); den > 0 {
				df = (qb + qc) * (qb + qc) / den
			}
		}
		if (tQuantile(1-level, df)+zPower)*se < gap {
			return n
		}
	}
	return most
}
