package runner

import (
	"fmt"
	"time"
)

// The kinds of trial a run runs, as progress counts them apart: only the
// counted ones are the report's trials.
const (
	// KindWarmup is an unmeasured warm-up trial (run.warmup_rounds).
	KindWarmup = "warm-up"
	// KindCounted is a trial the verdict counts.
	KindCounted = "counted"
	// KindProfiled is a trial of the profiled pair, recorded and never counted.
	KindProfiled = "profiled"
)

// Plan is what a run will do, known before its first trial: the trials of
// each kind (warm-up as many as it may take, counted as the pairs planned
// so far, the profiled pairs), how many run at once, and the time it
// should take. A run sends it again whenever it changes (warm-up settled
// early, a look added pairs).
type Plan struct {
	// Warmup, Counted and Profiled are trials of each kind, both sides'.
	Warmup, Counted, Profiled int
	// Sides is how many sides the run measures; PerSlot how many trials run
	// at once (2 in a duet, else 1): a slot is one such turn.
	Sides, PerSlot int
	// Window is a trial's time by the suite: its idle watch, warm-up and
	// measurement windows.
	Window time.Duration
}

// The time a slot takes beyond its windows (clone, prewarm, probes, drop),
// and a profiled slot beyond that (the recorders' start, stop and reading),
// measured on the 2-core VM with the release suite (2026-12-07: 16.2 s a
// duet slot of 13 s of windows; the profiled pairs 30-42 s a slot, the
// first 71 s with the throwaway recording before it): a plan's estimate
// before the run's own pace is known.
const (
	slotOverhead     = 3500 * time.Millisecond
	profiledOverhead = 20 * time.Second
	profileStart     = 35 * time.Second
)

// Trials is the plan's trials of kind.
func (p Plan) Trials(kind string) int {
	switch kind {
	case KindWarmup:
		return p.Warmup
	case KindCounted:
		return p.Counted
	case KindProfiled:
		return p.Profiled
	}
	return 0
}

// Slots is how many turns kind's trials take.
func (p Plan) Slots(kind string) int {
	per := max(p.PerSlot, 1)
	return (p.Trials(kind) + per - 1) / per
}

// SlotTime is a slot of kind's time by the plan.
func (p Plan) SlotTime(kind string) time.Duration {
	d := p.Window + slotOverhead
	if kind == KindProfiled {
		d += profiledOverhead
	}
	return d
}

// SlotTimeAt is slot n's (from 1) of kind by the plan: the first profiled
// slot also carries the recorders' first start.
func (p Plan) SlotTimeAt(kind string, n int) time.Duration {
	d := p.SlotTime(kind)
	if kind == KindProfiled && n == 1 {
		d += profileStart
	}
	return d
}

// Kinds are the kinds of trial in the order a run runs them.
var Kinds = []string{KindWarmup, KindCounted, KindProfiled}

// Estimate is the whole run's time by the plan, the profiled pairs' first
// recording included.
func (p Plan) Estimate() time.Duration {
	var d time.Duration
	for _, k := range Kinds {
		for n := 1; n <= p.Slots(k); n++ {
			d += p.SlotTimeAt(k, n)
		}
	}
	return d
}

// String says the plan in a line: "100 counted trials (50 a side), up to
// 24 warm-up, 12 profiled; about 23m of trials".
func (p Plan) String() string {
	s := fmt.Sprintf("%d counted trials", p.Counted)
	if p.Sides > 1 {
		s += fmt.Sprintf(" (%d a side)", p.Counted/p.Sides)
	}
	if p.Warmup > 0 {
		s += fmt.Sprintf(", up to %d warm-up", p.Warmup)
	}
	if p.Profiled > 0 {
		s += fmt.Sprintf(", %d profiled", p.Profiled)
	}
	return s + "; about " + Minutes(p.Estimate()) + " of trials"
}

// Minutes says a time as a person plans by it: "21 min", "45 s".
func Minutes(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	}
	return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
}

// kindOf is the kind of a trial of pair (runner.trial's numbering).
func kindOf(pair int) string {
	switch {
	case pair == profilePair:
		return KindProfiled
	case pair < 0:
		return KindWarmup
	}
	return KindCounted
}

// newPlan is the plan of a run of sides sides with counted trials planned
// so far, each side started instances times.
func (r *Runner) newPlan(sides, counted, instances int) Plan {
	per := 1
	if sides == 2 && r.duet() {
		per = 2
	}
	run := r.Suite.Run
	return Plan{Warmup: sides * len(r.Suite.Workloads) * r.warmupRoundsAtMost() * instances, Counted: counted,
		Profiled: r.profiledTrials(sides), Sides: sides, PerSlot: per, Window: run.Idle + run.Warmup + run.Measure}
}

// setPlan makes p the run's plan and sends it.
func (r *Runner) setPlan(p Plan) {
	r.plan = p
	r.emit(Event{Phase: "plan", Plan: &p})
}

// Plan is the plan of a run of the suite on sides sides (1 or 2) before it
// starts, as the suite asks (its run.instances when a pair of sides):
// the job shows it before the clusters start.
func (r *Runner) Plan(sides int) Plan {
	instances := 1
	if sides == 2 && r.LoadHosts == nil {
		instances = max(r.Suite.Run.Instances, 1)
	}
	return r.newPlan(sides, sides*len(r.Suite.Workloads)*r.Suite.Pairs.Initial, instances)
}

// planOf is the run's plan once it knows which sides it can start afresh.
func (r *Runner) planOf(sides int) Plan {
	if sides == 1 {
		return r.newPlan(1, len(r.Suite.Workloads)*r.Suite.Pairs.Initial, 1)
	}
	return r.newPlan(2, 2*len(r.Suite.Workloads)*r.Suite.Pairs.Initial, r.instances())
}

// announce numbers the next trial of pair's kind on s and sends its start.
func (r *Runner) announce(s *side, w string, pair int, msg string) {
	r.started++
	kind := kindOf(pair)
	if r.kindStarted == nil {
		r.kindStarted = map[string]int{}
	}
	r.kindStarted[kind]++
	s.kind, s.number = kind, r.kindStarted[kind]
	r.emit(Event{Phase: "trial", Target: s.t.Name, Workload: w, Kind: kind, Trial: s.number, Trials: r.plan.Trials(kind), Message: msg})
}

// done sends the run's end: the counted trials it stored, and the others by kind.
func (r *Runner) done(target string) {
	r.plan.Warmup, r.plan.Profiled = r.kindStarted[KindWarmup], r.kindStarted[KindProfiled]
	r.emit(Event{Phase: "done", Target: target, Kind: KindCounted, Trial: r.stored, Trials: r.stored, Plan: &r.plan})
}
