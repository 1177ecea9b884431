package progress

import (
	"time"

	"github.com/regress-hbase/regress/harness/runner"
)

// pace estimates a run's time left from its plan, corrected by how the
// run has kept to it: every slot still to run at the plan's time for its
// kind, times the ratio of the time the finished slots took to their
// plan's time. Before any slot has finished the plan alone answers, so the
// first minute says the plan's figure, not a guess from one trial; the
// profiled pairs, slower than a counted one, are in it from the start.
type pace struct {
	plan runner.Plan
	// cur is the slot running: its kind, its number among that kind's
	// slots and when it began.
	cur     slot
	started map[string]int // slots started of each kind
	trials  map[string]int // trials started of each kind
	// took and planned are the finished slots' time and their plan's.
	took, planned time.Duration
}

// priorSlots is how many slots' worth the plan weighs against the run's
// own pace.
const priorSlots = 4

type slot struct {
	kind string
	n    int
	at   time.Time
}

// start takes the start of trial (numbered among its kind's trials) at
// now: a new slot when it is not the running slot's other side.
func (p *pace) start(kind string, trial int, now time.Time) {
	if p.started == nil {
		p.started, p.trials = map[string]int{}, map[string]int{}
	}
	p.trials[kind] = max(p.trials[kind], trial)
	n := (trial + max(p.plan.PerSlot, 1) - 1) / max(p.plan.PerSlot, 1)
	if kind == p.cur.kind && n == p.cur.n {
		return
	}
	if !p.cur.at.IsZero() {
		p.took += now.Sub(p.cur.at)
		p.planned += p.plan.SlotTimeAt(p.cur.kind, p.cur.n)
	}
	p.cur = slot{kind, n, now}
	p.started[kind] = max(p.started[kind], n)
}

// left is the time left at now; false before the first trial started or
// without a plan.
func (p *pace) left(now time.Time) (time.Duration, bool) {
	if p.cur.at.IsZero() || p.plan.Counted == 0 {
		return 0, false
	}
	// The plan weighs as priorSlots slots run at its pace: one slow first
	// slot (a cold JIT) moves the estimate a little, a slow run a lot.
	prior := priorSlots * p.plan.SlotTime(runner.KindCounted)
	scale := float64(p.took+prior) / float64(p.planned+prior)
	var rest time.Duration
	for _, k := range runner.Kinds {
		for n := p.started[k] + 1; n <= p.plan.Slots(k); n++ {
			rest += p.plan.SlotTimeAt(k, n)
		}
	}
	cur := time.Duration(scale*float64(p.plan.SlotTimeAt(p.cur.kind, p.cur.n))) - now.Sub(p.cur.at)
	return time.Duration(scale*float64(rest)) + max(cur, 0), true
}

// doneTrials is how many trials of every kind have started before the
// running slot's: the bar's position.
func (p *pace) doneTrials() int {
	n := 0
	for _, t := range p.trials {
		n += t
	}
	return max(n-max(p.plan.PerSlot, 1), 0)
}
