package compare

import (
	"fmt"
	"math"
)

// The held-rate check on plain counts (extract.go counts the misses): its
// tests, the statuses they give, and when a workload cannot be judged.

// missP returns the one-sided p-values that the candidate misses the target rate
// more often (pWorse) or less often (pBetter) than the baseline, from h's
// counts: over the pairs where only one side missed when paired, else
// Fisher's exact test on the two sides' misses.
func missP(h HeldRate, paired bool, pairs int) (pWorse, pBetter float64) {
	if h.BaselineMissed == 0 && h.CandidateMissed == 0 {
		return 1, 1
	}
	if paired {
		return pairedMissP(pairs, h.CandidateOnly-h.BaselineOnly), pairedMissP(pairs, h.BaselineOnly-h.CandidateOnly)
	}
	return fisherP(h.CandidateMissed, h.CandidateTrials, h.BaselineMissed, h.BaselineTrials),
		fisherP(h.BaselineMissed, h.BaselineTrials, h.CandidateMissed, h.CandidateTrials)
}

// heldStatuses decides every held-rate check: rejected says which Holm
// rejected (gated ones), better holds each check's p-value that the
// candidate misses less often, alpha is the look's.
func heldStatuses(held []HeldRate, rejected map[int]bool, better []float64, alpha float64) {
	for i := range held {
		h := &held[i]
		switch {
		case rejected[i]:
			h.Status = Regressed
		case !h.Gated && h.P < alpha:
			h.Status = Regressed
		case better[i] < alpha:
			h.Status = Improved
		case h.CandidateMissed == 0 && h.BaselineMissed == 0:
			h.Status = Unchanged
		case 2*h.CandidateMissed > h.CandidateTrials && h.CandidateMissed > h.BaselineMissed:
			// The candidate mostly could not hold the rate, more often than the
			// baseline but not significantly: the gate cannot pass on it. Fewer
			// misses leave the judgement to the latency gate, whose trials
			// include the missed ones.
			h.Status = Inconclusive
		default:
			h.Status = NotWorse
		}
	}
}

// pairedMissP is the p-value of T = (pairs where only the candidate missed)
// minus (pairs where only the baseline missed) >= t over n pairs, when both
// sides miss independently with the same probability q inside each pair:
// each pair adds +1 or -1 with probability r = q(1-q) each and 0 otherwise.
// q is unknown, so the p-value is the supremum over r in (0, 1/4]; with all
// n pairs against the candidate it is 4^-n (1.6% at 3 pairs).
func pairedMissP(n, t int) float64 {
	if t <= 0 || n == 0 {
		return 1
	}
	sup := 0.0
	for i := 1; i <= 250; i++ {
		r := 0.25 * float64(i) / 250
		// dist[j] = P(T = j-n) after the pairs so far.
		dist := make([]float64, 2*n+1)
		dist[n] = 1
		for range n {
			next := make([]float64, 2*n+1)
			for j, p := range dist {
				if p == 0 {
					continue
				}
				next[j] += p * (1 - 2*r)
				if j+1 <= 2*n {
					next[j+1] += p * r
				}
				if j >= 1 {
					next[j-1] += p * r
				}
			}
			dist = next
		}
		tail := 0.0
		for j := n + t; j <= 2*n; j++ {
			tail += dist[j]
		}
		sup = math.Max(sup, tail)
	}
	return math.Min(1, sup)
}

// fisherP is the one-sided Fisher exact p-value that side x (a misses of n
// trials) misses more often than side y (b misses of m trials): the
// hypergeometric probability of a or more of the a+b misses falling on x.
func fisherP(a, n, b, m int) float64 {
	k := a + b
	if a == 0 {
		return 1
	}
	lc := func(n, k int) float64 {
		x, _ := math.Lgamma(float64(n + 1))
		y, _ := math.Lgamma(float64(k + 1))
		z, _ := math.Lgamma(float64(n - k + 1))
		return x - y - z
	}
	total := lc(n+m, k)
	p := 0.0
	for i := a; i <= min(k, n); i++ {
		if k-i > m {
			continue
		}
		p += math.Exp(lc(n, i) + lc(m, k-i) - total)
	}
	return math.Min(1, p)
}

// invalidHeld says why a workload cannot be judged: both sides missed the
// target rate in more than half of their trials, so both measured a cluster
// that could not keep up and latency compares two saturated queues.
func invalidHeld(h HeldRate) string {
	if 2*h.BaselineMissed > h.BaselineTrials && 2*h.CandidateMissed > h.CandidateTrials {
		return fmt.Sprintf("neither side held the target rate of %.0f ops/s in workload %s (baseline missed it in %d of %d trials, candidate in %d of %d); "+
			"lower run.target in the suite (or give the cluster more room) and run again",
			h.TargetOpsPerSec, h.Workload, h.BaselineMissed, h.BaselineTrials, h.CandidateMissed, h.CandidateTrials)
	}
	return ""
}
