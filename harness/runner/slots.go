package runner

import (
	"context"
	"fmt"
	"slices"

	"github.com/regress-hbase/regress/harness/lifecycle"
)

// Counterbalanced slots (issue 43 item 1). A pair's two trials hold two
// places, slot 1 and slot 2, and whatever a place favours must not stay
// with one side for a whole run: an A/A of one release read one side 2-5%
// cheaper in every workload. In a duet, slot 1's clone is made, its
// probes read, its servers watched idle and its load started first (each
// side on its own goroutine, slot 1's spawned first), its region servers
// get the first half of the CPUs when run.pin is set, and its table is
// named regress_trial_<run>_s1_<n> (slot 2's _s2_<n>: the same length, the
// same n). Interleaved, slot 1 is the trial that runs first (the pair's
// order, random per pair as before); its table is named the same way.
//
// In a duet the slots alternate: the baseline holds slot 1 in pair p of
// the suite's k-th workload when (coin + p + k) is even, coin drawn once a
// run from its random source (Runner.Rand). Every workload's pairs then
// alternate, and every pair index has both sides in slot 1 across
// workloads, so over an even number of pairs each side holds each slot
// equally often, and a slot effect cancels in the ratio rather than lands
// in it; every trial records its slot (results.Trial.Slot) for a model to
// estimate it. Warm-up and profiled pairs, which are not counted, draw
// their slots at random.
//
// What stays fixed per side: the seed (each side's cluster seeds its own
// snapshot once, before the warm-up, both sides at once as every fresh
// instance is: seeded one after the other, the baseline's JVM met its
// first load alone), the ports each cluster chose at random when it
// started (a fresh instance chooses again), and the order both clusters
// start in, which is at once.

// slots is a paired run's slot state.
type slots struct {
	// paired is set by RunPairs: trials record their slot and clone by it.
	paired bool
	// coin is the run's draw (0 or 1), drawn at the first counted pair.
	coin  int
	drawn bool
	// seq numbers the pairs' clones, one number for both trials of a pair.
	seq int64
}

// baselineSlot is the slot (1 or 2) the baseline holds in pair of the
// workload at index workload, given the run's coin.
func baselineSlot(coin, pair, workload int) int {
	return 1 + (coin+pair+workload)%2
}

// firstSide says which side holds slot 1 in workload w's pair: 0 the
// baseline, 1 the candidate. Uncounted pairs (warm-up, profiled: pair < 0)
// draw it at random.
func (r *Runner) firstSide(pair int, w string) int {
	if pair < 0 {
		return r.rng().IntN(2)
	}
	if !r.slots.drawn {
		r.slots.coin, r.slots.drawn = r.rng().IntN(2), true
	}
	return baselineSlot(r.slots.coin, pair, max(slices.Index(r.Suite.Workloads, w), 0)) - 1
}

// nextSeq is the clone number of the next pair.
func (r *Runner) nextSeq() int64 {
	r.slots.seq++
	return r.slots.seq
}

// slotTag is the clone tag of a slot in this run: the run id and the slot.
func (r *Runner) slotTag(slot int) string { return fmt.Sprintf("%s_s%d", r.RunID, slot) }

// cloneAs clones s's seed as the trial table of slot (1 or 2) in the pair
// numbered seq; slot 0 (a single target's trial) takes the side's own name.
func (r *Runner) cloneAs(ctx context.Context, s *side, slot int, seq int64) (string, error) {
	if slot == 0 {
		return s.mgr.Clone(ctx, s.seed)
	}
	return s.mgr.CloneAs(ctx, s.seed, r.slotTag(slot), seq)
}

// slotTable names the table cloneAs makes (for tests and logs).
func (r *Runner) slotTable(slot int, seq int64) string {
	return lifecycle.TrialTable(r.slotTag(slot), seq)
}

// slotOf is the slot a counted trial of the given order records: order+1
// in a paired run, 0 (none) for a single target's.
func (r *Runner) slotOf(order int) int {
	if !r.slots.paired {
		return 0
	}
	return order + 1
}
