package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/regress-hbase/regress/harness/capacity"
)

// MetricCapacity is the capacity metric: the highest open-loop rate a
// version sustained within the SLO, in ops/s; higher is better.
const MetricCapacity = "capacity"

// HigherIsBetter reports whether a larger value of metric is an improvement
// (throughput and capacity) rather than a slowdown (latency).
func HigherIsBetter(metric string) bool {
	return metric == MetricThroughput || metric == MetricCapacity
}

// CapacityConfig holds the capacity comparison's settings.
type CapacityConfig struct {
	// Alpha is the family-wise error rate over the workloads' capacities (Holm).
	Alpha float64
	// Tolerance is the capacity drop tolerated, as a fraction: REGRESSED
	// when the candidate's capacity is below 1/(1+Tolerance) of the baseline's.
	Tolerance float64
}

// CompareCapacity compares the capacities a sweep found, one gated
// capacity metric per workload, with the trial-level statistics of latency
// metrics: one search is one observation, d_i = log(candidate_i/baseline_i)
// per pair, a paired t interval of the geometric-mean ratio, Holm over the
// workloads, and the tolerance band (higher is better). A pair cut short by
// the time budget is left out. A workload where some search never found the
// knee (every rate up to max_rate held, or the first rate already failed),
// or with fewer than two complete pairs, is only described: its capacity is
// "at least" (or "below") a rate, which no test can read. With no workload
// tested the verdict is DESCRIPTIVE.
func CompareCapacity(sw *capacity.Sweep, cfg CapacityConfig) (*Comparison, error) {
	if sw == nil || len(sw.Searches) == 0 {
		return nil, errors.New("compare: the capacity sweep holds no search (did the time budget allow a step?)")
	}
	if cfg.Alpha <= 0 || cfg.Alpha >= 0.5 || cfg.Tolerance <= 0 {
		return nil, fmt.Errorf("compare: capacity alpha %g, tolerance %g: need 0 < alpha < 0.5 and a positive tolerance", cfg.Alpha, cfg.Tolerance)
	}
	out := &Comparison{Baseline: Side{Name: sw.Baseline}, Candidate: Side{Name: sw.Candidate}, Suite: sw.Suite,
		Paired: true, Interleaved: true, Alpha: cfg.Alpha, Looks: 1, LookAlpha: cfg.Alpha, Runs: 1}
	c := math.Log1p(cfg.Tolerance)
	var ests []estimate
	var gatedIdx []int
	var gatedP []float64
	for _, w := range sw.Workloads() {
		pairs := sw.Capacities(w)
		var complete [][2]*capacity.Search
		var budget, open int
		for _, p := range pairs {
			switch {
			case p[0].Stopped == capacity.StopBudget || p[1].Stopped == capacity.StopBudget:
				budget++
			case !p[0].Found || !p[1].Found:
				open++
				complete = append(complete, p)
			default:
				complete = append(complete, p)
			}
		}
		if budget > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %d pair(s) cut short by the time budget are left out of the capacity comparison", w, budget))
		}
		m := MetricResult{Workload: w, Op: OpAll, Metric: MetricCapacity, Unit: "ops/s", Tolerance: cfg.Tolerance, Pairs: len(complete)}
		use := complete
		if len(use) == 0 {
			use = pairs // only budget-cut searches: describe what they reached
		}
		var lb, lc, diffs []float64
		for _, p := range use {
			b, cd := p[0].CapacityOpsPerSec, p[1].CapacityOpsPerSec
			m.BaselineValues = append(m.BaselineValues, b)
			m.CandidateValues = append(m.CandidateValues, cd)
			if b > 0 && cd > 0 {
				lb, lc = append(lb, math.Log(b)), append(lc, math.Log(cd))
				diffs = append(diffs, math.Log(cd)-math.Log(b))
			}
		}
		if len(lb) > 0 {
			mb, _ := meanVar(lb)
			mc, _ := meanVar(lc)
			m.Baseline, m.Candidate, m.Ratio = math.Exp(mb), math.Exp(mc), math.Exp(mc-mb)
		} else {
			m.Ratio = math.NaN()
		}
		out.Baseline.Trials += len(use)
		out.Candidate.Trials += len(use)
		idx := len(out.Metrics)
		switch {
		case open > 0 || len(complete) == 0:
			m.Status = Descriptive
			m.Note = "capacity " + DescribeOpen(use) + "; descriptive only: no knee, no test (raise capacity.max_rate, lower capacity.start, or give capacity.budget more time)"
		case len(diffs) < 2:
			m.Status = Descriptive
			m.Note = fmt.Sprintf("capacity from %d complete pair(s): a significance test needs at least 2 (raise capacity.pairs or capacity.budget); descriptive only", len(diffs))
		default:
			m.Gated = true
			gatedIdx = append(gatedIdx, idx)
		}
		e := estimate{}
		if m.Gated {
			e = quantizedEstimate(diffs, use)
			worse := e
			worse.Mean = -worse.Mean
			m.P = worse.pAbove(c)
			gatedP = append(gatedP, m.P)
		} else {
			m.P = math.NaN()
		}
		ests = append(ests, e)
		out.Metrics = append(out.Metrics, m)
	}
	if len(gatedIdx) == 0 {
		out.Verdict = VerdictDescriptive
		out.Warnings = append(out.Warnings, "no workload's knee was bracketed on both sides in two or more pairs: capacities are described, not tested")
		return out, nil
	}
	adj, reject, level := holm(gatedP, cfg.Alpha)
	for j, i := range gatedIdx {
		m, e := &out.Metrics[i], ests[i]
		m.P = adj[j]
		lo, hi := e.interval(cfg.Alpha)
		m.CILow, m.CIHigh = math.Exp(lo), math.Exp(hi)
		_, rhi := e.interval(level[j])
		m.PassBound, m.RegressionBound = m.CILow, math.Exp(rhi)
		m.Status = status(lo, hi, c, -1, reject[j])
	}
	out.Verdict = verdict(out.Metrics, nil)
	return out, nil
}

// DescribeOpen says what searches that did not all find the knee reached,
// side by side: "baseline at least 20000 ops/s in 2 of 3 searches, candidate 4000 ops/s ...".
func DescribeOpen(pairs [][2]*capacity.Search) string {
	side := func(i int) string {
		var atLeast, below, found int
		lo, hi := math.Inf(1), 0.0
		for _, p := range pairs {
			s := p[i]
			switch {
			case s.Found:
				found++
			case s.Stopped == capacity.StopBelowStart:
				below++
			default:
				atLeast++
			}
			if s.CapacityOpsPerSec > 0 {
				lo, hi = math.Min(lo, s.CapacityOpsPerSec), math.Max(hi, s.CapacityOpsPerSec)
			}
		}
		str := capacity.Sides[i]
		n := len(pairs)
		if atLeast > 0 {
			str += fmt.Sprintf(" at least %.0f ops/s in %d of %d searches", lo, atLeast, n)
		}
		if below > 0 {
			str += fmt.Sprintf(" below the start rate in %d of %d searches", below, n)
		}
		if found > 0 {
			str += fmt.Sprintf(" knee found in %d of %d", found, n)
		}
		if hi > 0 && lo < hi {
			str += fmt.Sprintf(" (range %.0f-%.0f ops/s)", lo, hi)
		}
		return str
	}
	return side(0) + ", " + side(1)
}

// quantizedEstimate is the paired t estimate of the log capacity ratios d,
// with the variance of d floored at what the bisection's own grid adds: a
// capacity is only known to lie in [good, bad), a bracket of log width w, so
// each side carries a rounding error of variance about w²/12 and their
// difference the sum. Without the floor, pairs that land on the same grid
// points give d identical to the last digit, a zero standard error, and a
// verdict from two pairs that no measurement supports.
func quantizedEstimate(d []float64, pairs [][2]*capacity.Search) estimate {
	e := pairedEstimate(d)
	var q float64
	var n int
	for _, p := range pairs {
		for _, s := range p {
			if s.Found && s.CapacityOpsPerSec > 0 && s.KneeOpsPerSec > s.CapacityOpsPerSec {
				w := math.Log(s.KneeOpsPerSec / s.CapacityOpsPerSec)
				q += w * w / 12
				n++
			}
		}
	}
	if n == 0 {
		return e
	}
	floor := 2 * q / float64(n) // both sides' rounding, the mean over searches
	if v := e.SE * e.SE * float64(e.N); v < floor {
		e.SE = math.Sqrt(floor / float64(e.N))
	}
	return e
}
