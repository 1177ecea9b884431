package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/regress-hbase/regress/harness/results"
)

// throttled reports whether every trial of workload w on both sides ran at a
// target rate. Then achieved throughput only follows the target (a trial
// below results.HoldThreshold of it is a missed rate, not a slower one), so
// throughput is shown and the held-rate check gates in its place.
func throttled(w string, bt, ct []results.Trial) bool {
	n := 0
	for _, side := range [][]results.Trial{bt, ct} {
		for i := range side {
			if side[i].Workload != w {
				continue
			}
			if side[i].TargetOpsPerSec <= 0 {
				return false
			}
			n++
		}
	}
	return n > 0
}

// heldRate counts the trials of workload w that missed their target rate and
// computes the one-sided p-values that the candidate misses it more often
// (pWorse) or less often (pBetter) than the baseline.
func heldRate(w string, bt, ct []results.Trial, sched schedule) (h HeldRate, pWorse, pBetter float64) {
	h = HeldRate{Workload: w}
	var targets []float64
	for i := range bt {
		if bt[i].Workload == w {
			h.BaselineTrials++
			targets = append(targets, bt[i].TargetOpsPerSec)
			if !bt[i].HeldTarget() {
				h.BaselineMissed++
			}
		}
	}
	for i := range ct {
		if ct[i].Workload == w {
			h.CandidateTrials++
			targets = append(targets, ct[i].TargetOpsPerSec)
			if !ct[i].HeldTarget() {
				h.CandidateMissed++
			}
		}
	}
	sort.Float64s(targets)
	if len(targets) > 0 {
		h.TargetOpsPerSec = targets[len(targets)/2]
	}
	if h.BaselineMissed == 0 && h.CandidateMissed == 0 {
		return h, 1, 1
	}
	if sched.paired {
		pairs := sched.pairs[w]
		for _, p := range pairs {
			bh, ch := p[0].HeldTarget(), p[1].HeldTarget()
			switch {
			case bh && !ch:
				h.CandidateOnly++
			case ch && !bh:
				h.BaselineOnly++
			}
		}
		n := len(pairs)
		return h, pairedMissP(n, h.CandidateOnly-h.BaselineOnly), pairedMissP(n, h.BaselineOnly-h.CandidateOnly)
	}
	return h, fisherP(h.CandidateMissed, h.CandidateTrials, h.BaselineMissed, h.BaselineTrials),
		fisherP(h.BaselineMissed, h.BaselineTrials, h.CandidateMissed, h.CandidateTrials)
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
