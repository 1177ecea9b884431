// Package capacity is `regress capacity`, one slice: it finds how much load
// an HBase version sustains and whether the candidate sustains less.
//
// For each workload it steps an open-loop target rate up (geometric steps or
// a list) until a step's intended median (or p99) exceeds the SLO or the
// achieved rate falls below the held-rate threshold, bisects between the last
// good and the first bad rate, and repeats that search for several
// interleaved baseline/candidate pairs within a rate ceiling and a time
// budget (Run). Its seams to the rest:
//
//   - settings: the suite's capacity: section (package section; ConfigOf);
//   - steps: a StepRunner the runner fills (runner.Runner.Step on a fresh
//     clone), measured by StepOf and judged here (Probe, Config.Judge);
//   - verdict: Gate.Compare, one search a observation, tested with
//     compare.ComparePaired; VerdictError maps it to the exit code;
//   - reports: *Sweep is a report.Section (text, Markdown, HTML), and the
//     JSON report carries it as it is;
//   - store: Save and Load go through the results store
//     (<store>/capacity/<run id>.json), which lists and checks sweeps
//     beside the trials.
package capacity

import (
	"fmt"
	"math"
	"time"
)

// Config is one capacity run's settings.
type Config struct {
	// Workloads are swept in this order within each pair.
	Workloads []string
	// StartOpsPerSec and Factor make the geometric ladder start·Factor^i up to MaxOpsPerSec.
	StartOpsPerSec, Factor float64
	// Rates, if set, is the ladder instead (ascending).
	Rates []float64
	// MaxOpsPerSec is the rate ceiling; the ladder ends with it.
	MaxOpsPerSec float64
	// SLOP99 is the intended p99 every operation type of a good step stays
	// within; 0 leaves the tail out of the judgement.
	SLOP99 time.Duration
	// SLOP50 is the intended median every operation type of a good step stays
	// within; 0 leaves it out. On a shared VM the tail at any rate is set by
	// the machine's stalls, while the median rises only when the server queues.
	SLOP50 time.Duration
	// Hold is the fraction of the target rate a good step achieves (loadgen.HoldThreshold).
	Hold float64
	// MaxErrorRate is the fraction of failed operations a good step stays within.
	MaxErrorRate float64
	// Resolution ends the bisection once bad/good ≤ 1+Resolution.
	Resolution float64
	// StepTime is a step's planned length (warm-up plus measurement), for the budget.
	StepTime time.Duration
	// Pairs is the number of interleaved searches per side and workload.
	Pairs int
	// Budget is the wall-clock time all searches may take.
	Budget time.Duration

	// now reads the clock the budget is kept on; nil means time.Now (tests set a fake).
	now func() time.Time
}

// Ladder returns the rates the sweep climbs before bisecting: the explicit
// list, or the geometric steps from the start rate, ending at the ceiling.
func (c Config) Ladder() []float64 {
	if len(c.Rates) > 0 {
		var out []float64
		for _, r := range c.Rates {
			if c.MaxOpsPerSec <= 0 || r <= c.MaxOpsPerSec {
				out = append(out, r)
			}
		}
		return out
	}
	var out []float64
	for r := c.StartOpsPerSec; r < c.MaxOpsPerSec*(1-1e-9); r *= c.Factor {
		out = append(out, math.Round(r))
	}
	return append(out, c.MaxOpsPerSec)
}

// Validate says what is wrong with c, if anything.
func (c Config) Validate() error {
	switch {
	case len(c.Workloads) == 0:
		return fmt.Errorf("capacity: no workloads to sweep")
	case len(c.Rates) == 0 && (c.StartOpsPerSec <= 0 || c.Factor <= 1 || c.MaxOpsPerSec < c.StartOpsPerSec):
		return fmt.Errorf("capacity: start %g ops/s, factor %g, max_rate %g: need start > 0, factor > 1 and max_rate >= start", c.StartOpsPerSec, c.Factor, c.MaxOpsPerSec)
	case len(c.Ladder()) == 0:
		return fmt.Errorf("capacity: every listed rate is above max_rate %g ops/s", c.MaxOpsPerSec)
	case c.SLOP99 < 0 || c.SLOP50 < 0 || c.Hold <= 0 || c.Hold > 1 || c.Resolution <= 0:
		return fmt.Errorf("capacity: slo_p99 %v, slo_p50 %v, hold %g, resolution %g: need SLOs of 0 (off) or more, a positive hold of at most 1 and a positive resolution", c.SLOP99, c.SLOP50, c.Hold, c.Resolution)
	case c.Pairs < 1 || c.Budget <= 0:
		return fmt.Errorf("capacity: %d pairs, budget %v: need at least 1 pair and a positive budget", c.Pairs, c.Budget)
	}
	return nil
}

// Step is one short open-loop trial at one target rate on a fresh clone.
type Step struct {
	// TargetOpsPerSec is the rate asked for; AchievedOpsPerSec what the measurement window achieved.
	TargetOpsPerSec   float64 `json:"target_ops_per_sec"`
	AchievedOpsPerSec float64 `json:"achieved_ops_per_sec"`
	// P50Micros and P99Micros are the intended (coordinated-omission-corrected)
	// latency percentiles over every operation type of the step.
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	// WorstP99Micros is the highest intended p99 of any one operation type,
	// WorstOp that type: what the SLO is checked against.
	WorstP99Micros float64 `json:"worst_p99_us"`
	WorstOp        string  `json:"worst_op"`
	// WorstP50Micros is the highest intended median of any one operation
	// type, WorstP50Op that type: what the median SLO is checked against.
	WorstP50Micros float64 `json:"worst_p50_us,omitempty"`
	WorstP50Op     string  `json:"worst_p50_op,omitempty"`
	// Ops counts the measured operations; Errors those that failed (ERROR status).
	Ops    int64 `json:"ops"`
	Errors int64 `json:"errors"`
	// Good says the step met the SLO, held the rate and stayed within the error budget; Why says what it missed.
	Good bool   `json:"good"`
	Why  string `json:"why,omitempty"`
	// Phase is "sweep" (the ladder), "confirm" (a failed ladder rate run once more) or "bisect".
	Phase string `json:"phase"`
	// Start is when the step began; Wall how long it took, clone and drop included.
	Start time.Time     `json:"start"`
	Wall  time.Duration `json:"wall_ns"`
}

// Judge sets s.Good and s.Why from the thresholds of c.
func (c Config) Judge(s *Step) {
	s.Good, s.Why = true, ""
	var why []string
	if s.TargetOpsPerSec > 0 && s.AchievedOpsPerSec < c.Hold*s.TargetOpsPerSec {
		why = append(why, fmt.Sprintf("achieved %.0f ops/s, %.1f%% of target (below %.0f%%)", s.AchievedOpsPerSec, 100*s.AchievedOpsPerSec/s.TargetOpsPerSec, 100*c.Hold))
	}
	if slo := float64(c.SLOP50.Microseconds()); slo > 0 && s.WorstP50Micros > slo {
		why = append(why, fmt.Sprintf("intended median of %s %.3g ms above the SLO %v", s.WorstP50Op, s.WorstP50Micros/1e3, c.SLOP50))
	}
	if slo := float64(c.SLOP99.Microseconds()); slo > 0 && s.WorstP99Micros > slo {
		why = append(why, fmt.Sprintf("intended p99 of %s %.3g ms above the SLO %v", s.WorstOp, s.WorstP99Micros/1e3, c.SLOP99))
	}
	if s.Ops > 0 && float64(s.Errors)/float64(s.Ops) > c.MaxErrorRate {
		why = append(why, fmt.Sprintf("%d of %d operations failed", s.Errors, s.Ops))
	}
	if s.Ops == 0 {
		why = append(why, "no operation completed")
	}
	if len(why) > 0 {
		s.Good = false
		s.Why = join(why)
	}
}

func join(xs []string) string {
	out := xs[0]
	for _, x := range xs[1:] {
		out += "; " + x
	}
	return out
}

// Stop reasons of a search.
const (
	// StopKnee: a good and a bad rate bracket the knee within the resolution.
	StopKnee = "knee"
	// StopMaxRate: every rate up to the ceiling was good; the capacity is at least the ceiling.
	StopMaxRate = "max_rate"
	// StopBudget: the time budget ran out first; the capacity is at least the best good rate.
	StopBudget = "budget"
	// StopBelowStart: the first rate was already bad; the capacity is below it.
	StopBelowStart = "below_start"
)

// Search is one side's search for one workload's knee in one pair.
type Search struct {
	Workload string `json:"workload"`
	// Side is "baseline" or "candidate"; Pair numbers the pair from 0.
	Side  string `json:"side"`
	Pair  int    `json:"pair"`
	Steps []Step `json:"steps"`
	// CapacityOpsPerSec is the highest target rate of a good step (0: none was good).
	CapacityOpsPerSec float64 `json:"capacity_ops_per_sec"`
	// KneeOpsPerSec is the lowest bad rate above the capacity (0: none was bad).
	KneeOpsPerSec float64 `json:"knee_ops_per_sec,omitempty"`
	// Found says the knee was bracketed (Stopped is StopKnee); otherwise
	// the capacity is only a lower bound ("at least") or below the start.
	Found   bool   `json:"found"`
	Stopped string `json:"stopped"`
}

// Describe says in words what the search found: "4000 ops/s (knee below 4400)", "at least 20000 ops/s (max_rate)".
func (s *Search) Describe() string {
	switch s.Stopped {
	case StopKnee:
		return fmt.Sprintf("%.0f ops/s (knee below %.0f)", s.CapacityOpsPerSec, s.KneeOpsPerSec)
	case StopMaxRate:
		return fmt.Sprintf("at least %.0f ops/s (held up to max_rate)", s.CapacityOpsPerSec)
	case StopBudget:
		return fmt.Sprintf("at least %.0f ops/s (time budget ran out)", s.CapacityOpsPerSec)
	case StopBelowStart:
		return fmt.Sprintf("below %.0f ops/s (the first step already failed)", s.KneeOpsPerSec)
	}
	return "unfinished"
}

// searcher is the state of one search: it proposes the next rate and learns
// from each step. It is a pure state machine, so the search is testable
// without a cluster or a clock.
type searcher struct {
	cfg       Config
	ladder    []float64
	idx       int
	good, bad float64
	s         *Search
	done      bool
	// confirm is set after a failed ladder step: the same rate runs once
	// more before it counts as bad, so one stray pause (a GC, a flush) far
	// below the knee does not end the climb.
	confirm bool
}

func newSearcher(cfg Config, s *Search) *searcher {
	return &searcher{cfg: cfg, ladder: cfg.Ladder(), s: s}
}

// next returns the next rate to try and its phase; ok is false when the search is over.
func (x *searcher) next() (rate float64, phase string, ok bool) {
	if x.done {
		return 0, "", false
	}
	if x.confirm {
		return x.ladder[x.idx], "confirm", true
	}
	if x.bad == 0 {
		return x.ladder[x.idx], "sweep", true
	}
	return math.Round(math.Sqrt(x.good * x.bad)), "bisect", true
}

// record learns from a step at the rate next proposed.
func (x *searcher) record(st Step) {
	x.s.Steps = append(x.s.Steps, st)
	r := st.TargetOpsPerSec
	if x.bad == 0 && !st.Good && !x.confirm {
		x.confirm = true
		return
	}
	x.confirm = false
	if st.Good {
		if r > x.good {
			x.good = r
		}
	} else if x.bad == 0 || r < x.bad {
		x.bad = r
	}
	x.s.CapacityOpsPerSec, x.s.KneeOpsPerSec = x.good, x.bad
	switch {
	case x.bad == 0:
		x.idx++
		if x.idx >= len(x.ladder) {
			x.finish(StopMaxRate)
		}
	case x.good == 0:
		x.finish(StopBelowStart)
	case x.bad <= x.good*(1+x.cfg.Resolution) || math.Round(math.Sqrt(x.good*x.bad)) <= x.good || math.Round(math.Sqrt(x.good*x.bad)) >= x.bad:
		x.finish(StopKnee)
	}
}

func (x *searcher) finish(why string) {
	x.done = true
	x.s.Stopped = why
	x.s.Found = why == StopKnee
}

// stopBudget ends an unfinished search because the budget ran out.
func (x *searcher) stopBudget() {
	if !x.done {
		x.finish(StopBudget)
	}
}
