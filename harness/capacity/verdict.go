package capacity

import (
	"errors"
	"fmt"
	"math"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/metric"
)

// Gate holds the capacity comparison's settings: how capacities are tested.
type Gate struct {
	// Alpha is the family-wise error rate over the workloads' capacities (Holm).
	Alpha float64
	// Tolerance is the capacity drop tolerated, as a fraction: REGRESSED
	// when the candidate's capacity is below 1/(1+Tolerance) of the baseline's.
	Tolerance float64
}

// Compare compares the capacities a sweep found, one gated capacity metric
// per workload, with the trial-level statistics of latency metrics: one
// search is one observation, d_i = log(candidate_i/baseline_i) per pair, a
// paired t interval of the geometric-mean ratio, Holm over the workloads,
// and the tolerance band (higher is better). A pair cut short by the time
// budget is left out. A workload where some search never found the knee
// (every rate up to max_rate held, or the first rate already failed), or
// with fewer than two complete pairs, is only described: its capacity is
// "at least" (or "below") a rate, which no test can read. With no workload
// tested the verdict is DESCRIPTIVE.
func (v Gate) Compare(sw *Sweep) (*compare.Comparison, error) {
	if sw == nil || len(sw.Searches) == 0 {
		return nil, errors.New("capacity: the sweep holds no search (did the time budget allow a step?)")
	}
	if v.Alpha <= 0 || v.Alpha >= 0.5 || v.Tolerance <= 0 {
		return nil, fmt.Errorf("capacity: alpha %g, tolerance %g: need 0 < alpha < 0.5 and a positive tolerance", v.Alpha, v.Tolerance)
	}
	out := &compare.Comparison{Baseline: compare.Side{Name: sw.Baseline}, Candidate: compare.Side{Name: sw.Candidate}, Suite: sw.Suite,
		Paired: true, Interleaved: true, Alpha: v.Alpha, Looks: 1, LookAlpha: v.Alpha, Runs: 1}
	var rows []compare.PairedRatios
	var notCompared []string // workloads with no pair of searches: gated, never compared
	gated := false
	for _, w := range sw.Workloads() {
		pairs := sw.Capacities(w)
		var complete [][2]*Search
		var budget, open int
		for _, p := range pairs {
			switch {
			case p[0].Stopped == StopBudget || p[1].Stopped == StopBudget:
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
		// A search whose pair lacks the other side's (a cut or edited sweep)
		// compares with nothing: say so rather than drop it unseen.
		var sides [2]int
		for _, s := range sw.Searches {
			if s.Workload == w {
				if s.Side == Sides[0] {
					sides[0]++
				} else {
					sides[1]++ // Capacities pairs any other side as the candidate
				}
			}
		}
		if lone := sides[0] + sides[1] - 2*len(pairs); lone > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %d search(es) without the other side's search of their pair are left out (the sweep holds %d %s and %d %s searches of it: cut short or edited)", w, lone, sides[0], Sides[0], sides[1], Sides[1]))
		}
		m := compare.MetricResult{Workload: w, Op: compare.OpAll, Metric: compare.MetricCapacity, Unit: metric.Of(compare.MetricCapacity).Unit, Tolerance: v.Tolerance, Pairs: len(complete)}
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
			mb, mc := mean(lb), mean(lc)
			m.Baseline, m.Candidate, m.Ratio = math.Exp(mb), math.Exp(mc), math.Exp(mc-mb)
		} else {
			m.Ratio = math.NaN()
		}
		out.Baseline.Trials += len(use)
		out.Candidate.Trials += len(use)
		switch {
		case len(pairs) == 0:
			notCompared = append(notCompared, fmt.Sprintf("%s capacity (no pair of searches holds both sides)", w))
			m.Status = compare.Descriptive
			m.Ratio = math.NaN()
			m.Note = fmt.Sprintf("capacity not compared: no pair of searches holds both sides (%d %s, %d %s searches of %s in this sweep); nothing to compare: run the sweep again", sides[0], Sides[0], sides[1], Sides[1], w)
		case open > 0 || len(complete) == 0:
			m.Status = compare.Descriptive
			m.Note = "capacity " + DescribeOpen(use) + "; descriptive only: no knee, no test (raise capacity.max_rate, lower capacity.start, or give capacity.budget more time)"
		case len(diffs) < 2:
			m.Status = compare.Descriptive
			m.Note = fmt.Sprintf("capacity from %d complete pair(s): a significance test needs at least 2 (raise capacity.pairs or capacity.budget); descriptive only", len(diffs))
		default:
			m.Gated = true
			gated = true
		}
		if !m.Gated {
			m.P = math.NaN()
		}
		rows = append(rows, compare.PairedRatios{Row: m, LogRatios: diffs, MinVar: gridVar(use)})
	}
	if !gated {
		for _, r := range rows {
			out.Metrics = append(out.Metrics, r.Row)
		}
		out.Verdict = compare.VerdictDescriptive
		out.Warnings = append(out.Warnings, "no workload's knee was bracketed on both sides in two or more pairs: capacities are described, not tested")
		return out, nil
	}
	out.Metrics, out.Verdict = compare.ComparePaired(rows, v.Alpha)
	out.NotCompared = notCompared
	if out.Verdict == compare.Pass && len(notCompared) > 0 {
		// A gate never passes on a workload it could not compare.
		out.Verdict = compare.VerdictInconclusive
	}
	return out, nil
}

func mean(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x
	}
	return m / float64(len(xs))
}

// DescribeOpen says what searches that did not all find the knee reached,
// side by side: "baseline at least 20000 ops/s in 2 of 3 searches, candidate 4000 ops/s ...".
func DescribeOpen(pairs [][2]*Search) string {
	side := func(i int) string {
		var atLeast, below, found int
		lo, hi := math.Inf(1), 0.0
		for _, p := range pairs {
			s := p[i]
			switch {
			case s.Found:
				found++
			case s.Stopped == StopBelowStart:
				below++
			default:
				atLeast++
			}
			if s.CapacityOpsPerSec > 0 {
				lo, hi = math.Min(lo, s.CapacityOpsPerSec), math.Max(hi, s.CapacityOpsPerSec)
			}
		}
		str := Sides[i]
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

// gridVar is the variance the bisection's own grid adds to one log capacity
// ratio: a capacity is only known to lie in [good, bad), a bracket of log
// width w, so each side carries a rounding error of variance about w²/12
// and their difference the sum (both sides' rounding, the mean over the
// searches that found their knee). Without it, pairs that land on the same
// grid points give identical ratios, a zero standard error, and a verdict
// from two pairs that no measurement supports.
func gridVar(pairs [][2]*Search) float64 {
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
		return 0
	}
	return 2 * q / float64(n)
}

// VerdictError is the capacity verdict as the job's outcome: REGRESSION
// (exit 1), INCONCLUSIVE or DESCRIPTIVE (exit 4 with failOnInconclusive),
// or nil.
func VerdictError(c *compare.Comparison, failOnInconclusive bool) error {
	switch c.Verdict {
	case compare.Regression:
		return &fault.VerdictError{Verdict: fault.Regression, Err: fmt.Errorf("verdict REGRESSION: %s sustains less load than %s beyond tolerance", c.Candidate.Name, c.Baseline.Name)}
	case compare.VerdictInconclusive, compare.VerdictDescriptive:
		if failOnInconclusive {
			return &fault.VerdictError{Verdict: fault.Inconclusive, Err: errors.New("verdict " + string(c.Verdict) + " (--fail-on-inconclusive): raise capacity.pairs or capacity.budget, or capacity.max_rate when a knee was not found")}
		}
	}
	return nil
}
