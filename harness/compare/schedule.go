package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/results"
)

// minPairsForOrderCheck is how many pairs a schedule needs before "the
// baseline always ran first" is flagged: with random orders that pattern has
// probability 2^(1-n), about 3% at 6 pairs.
const minPairsForOrderCheck = 6

// schedule is what the trials' pair indices, orders and start times say
// about how they were run.
type schedule struct {
	paired      bool
	interleaved bool // pairs verified back to back by start time
	duet        bool // every pair's two trials ran at the same time
	// pairs maps a workload to its pairs, sorted by pair index:
	// [0] is the baseline trial, [1] the candidate trial.
	pairs    map[string][][2]*results.Trial
	warnings []string
}

// checkSchedule decides between the paired and the unpaired analysis. Pairs
// are used only when they are real: every workload's baseline and candidate
// trials carry the same pair indices once each, with complementary orders,
// and (when start times are recorded) the two trials of each pair ran back to
// back. A schedule whose pairs did not run back to back (a sequential
// AAAA-BBBB schedule, or a stored baseline from an earlier run) cannot cancel
// drift, so it is analysed unpaired and flagged.
func checkSchedule(bt, ct []results.Trial, forceUnpaired bool) schedule {
	s := schedule{pairs: map[string][][2]*results.Trial{}}
	if forceUnpaired {
		s.warnings = append(s.warnings, "unpaired analysis requested: Welch's t on log values; drift between the two sets of trials is not cancelled")
		return s
	}
	byW := func(ts []results.Trial) (map[string]map[pairKey]*results.Trial, string) {
		m := map[string]map[pairKey]*results.Trial{}
		for i := range ts {
			t := &ts[i]
			if m[t.Workload] == nil {
				m[t.Workload] = map[pairKey]*results.Trial{}
			}
			k := pairKey{t.RunID, t.Pair}
			if prev, dup := m[t.Workload][k]; dup {
				return nil, fmt.Sprintf("trials %q and %q of workload %s share run %q and pair index %d", prev.ID, t.ID, t.Workload, t.RunID, t.Pair)
			}
			m[t.Workload][k] = t
		}
		return m, ""
	}
	bm, why := byW(bt)
	var cm map[string]map[pairKey]*results.Trial
	if why == "" {
		cm, why = byW(ct)
	}
	if why == "" {
		why = matchPairs(bm, cm, &s)
	}
	if why != "" {
		s.paired = false
		s.pairs = nil
		s.warnings = append(s.warnings, "unpaired comparison: "+why+
			"; comparing with Welch's t on log values, which does not cancel drift between the two sets of trials")
		return s
	}
	s.paired = true
	// Verify interleaving by start time, per workload: the two trials of each
	// pair must be neighbours in time among that workload's trials.
	var notAdjacent []string
	timed := true
	orderDisagrees := 0
	baseFirst, total, duets, pairCount := 0, 0, 0, 0
	for _, w := range sortedKeys(s.pairs) {
		ps := s.pairs[w]
		var all []*results.Trial
		for _, p := range ps {
			all = append(all, p[0], p[1])
			if p[0].Start.IsZero() || p[1].Start.IsZero() {
				timed = false
			}
			pairCount++
			if p[0].Duet && p[1].Duet {
				duets++
				continue // ran at the same time: no order to randomise or check
			}
			total++
			if p[0].Order == 0 {
				baseFirst++
			}
		}
		if !timed {
			continue
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].Start.Before(all[j].Start) })
		pos := make(map[*results.Trial]int, len(all))
		for i, t := range all {
			pos[t] = i
		}
		bad := 0
		for _, p := range ps {
			pb, pc := pos[p[0]], pos[p[1]]
			if pb-pc != 1 && pc-pb != 1 {
				bad++
			}
			if !p[0].Duet && (p[0].Order == 0) != p[0].Start.Before(p[1].Start) {
				orderDisagrees++
			}
		}
		if bad > 0 {
			notAdjacent = append(notAdjacent, fmt.Sprintf("workload %s: %d of %d pairs", w, bad, len(ps)))
		}
	}
	switch {
	case !timed:
		s.warnings = append(s.warnings, "some trials have no start time, so it cannot be verified that each pair ran back to back; the paired test assumes it did")
	case len(notAdjacent) > 0:
		s.paired, s.interleaved = false, false
		s.pairs = nil
		s.warnings = append(s.warnings, "schedule not interleaved: the two trials of a pair did not run back to back ("+
			strings.Join(notAdjacent, "; ")+"), e.g. all baseline trials before all candidate trials; "+
			"pairing would not cancel drift, so the trials are compared unpaired with Welch's t and a drift between them reads as a change. "+
			"Rerun with interleaved pairs (random order inside each pair)")
		return s
	default:
		s.interleaved = true
		s.duet = duets > 0 && duets == pairCount
		if orderDisagrees > 0 {
			s.warnings = append(s.warnings, fmt.Sprintf("the order recorded for %d pair(s) disagrees with their start times; the order field is not trustworthy", orderDisagrees))
		}
	}
	if total >= minPairsForOrderCheck && (baseFirst == 0 || baseFirst == total) {
		first := "baseline"
		if baseFirst == 0 {
			first = "candidate"
		}
		s.warnings = append(s.warnings, fmt.Sprintf("the %s ran first in all %d pairs: the order inside each pair was not randomized, "+
			"so a first-versus-second effect (warm caches, JIT, compactions) is not cancelled and reads as a change", first, total))
	}
	return s
}

// matchPairs fills s.pairs from the per-workload pair maps, or says why the
// trials do not form pairs.
func matchPairs(bm, cm map[string]map[pairKey]*results.Trial, s *schedule) string {
	for _, w := range sortedKeys(bm) {
		b, c := bm[w], cm[w]
		if c == nil {
			continue // a workload only one side ran is reported as not compared
		}
		if len(b) != len(c) {
			return unmatched(w, b, c)
		}
		for _, p := range sortedPairKeys(b) {
			ctr, ok := c[p]
			if !ok {
				return unmatched(w, b, c)
			}
			btr := b[p]
			if btr.Order+ctr.Order != 1 || (btr.Order != 0 && btr.Order != 1) {
				return fmt.Sprintf("workload %s: pair %d of run %q has orders %d and %d, not one first and one second", w, p.pair, p.run, btr.Order, ctr.Order)
			}
			s.pairs[w] = append(s.pairs[w], [2]*results.Trial{btr, ctr})
		}
	}
	return ""
}

// unmatched says which trials of workload w have no partner (no trial of
// the other side with their run and pair) and why none can have one.
func unmatched(w string, b, c map[pairKey]*results.Trial) string {
	var names []string
	runs := [2]map[string]bool{{}, {}}
	for si, side := range []map[pairKey]*results.Trial{b, c} {
		other := []map[pairKey]*results.Trial{c, b}[si]
		for _, k := range sortedPairKeys(side) {
			runs[si][k.run] = true
			if other[k] == nil {
				names = append(names, fmt.Sprintf("%s trial %s (run %s pair %d)", [2]string{"baseline", "candidate"}[si], side[k].ID, k.run, k.pair))
			}
		}
	}
	why := "a trial pairs only with the other side's trial of its own run and pair"
	shared := false
	for r := range runs[0] {
		shared = shared || runs[1][r]
	}
	if !shared {
		why = fmt.Sprintf("the sides' trials come from different runs (baseline: %s; candidate: %s), and %s", strings.Join(sortedKeys(runs[0]), ", "), strings.Join(sortedKeys(runs[1]), ", "), why)
	}
	return fmt.Sprintf("workload %s has %d baseline and %d candidate trials, %d with no partner: %s; %s", w, len(b), len(c), len(names), firstFew(names), why)
}

// sortedPairKeys returns a pair map's keys by run, then pair.
func sortedPairKeys(m map[pairKey]*results.Trial) []pairKey {
	idx := make([]pairKey, 0, len(m))
	for k := range m {
		idx = append(idx, k)
	}
	sort.Slice(idx, func(i, j int) bool {
		if idx[i].run != idx[j].run {
			return idx[i].run < idx[j].run
		}
		return idx[i].pair < idx[j].pair
	})
	return idx
}

// pairKey identifies a pair: pair indices match only within one run.
type pairKey struct {
	run  string
	pair int
}

// sameRuns keeps, when the two sides share runs, only the trials of the
// shared runs: a baseline manifest accumulates trials from runs against
// other candidates, and only the trials interleaved with this candidate pair
// with it. Without shared runs every trial is kept (an unpaired comparison).
func sameRuns(bt, ct []results.Trial) (b, c []results.Trial, warning string) {
	runs := func(ts []results.Trial) map[string]bool {
		m := map[string]bool{}
		for i := range ts {
			m[ts[i].RunID] = true
		}
		return m
	}
	rb, rc := runs(bt), runs(ct)
	shared := map[string]bool{}
	for r := range rb {
		if rc[r] {
			shared[r] = true
		}
	}
	if len(shared) == 0 || (len(shared) == len(rb) && len(shared) == len(rc)) {
		return bt, ct, ""
	}
	keep := func(ts []results.Trial) ([]results.Trial, int) {
		var out []results.Trial
		for _, t := range ts {
			if shared[t.RunID] {
				out = append(out, t)
			}
		}
		return out, len(ts) - len(out)
	}
	b, db := keep(bt)
	c, dc := keep(ct)
	return b, c, fmt.Sprintf("using only the trials of the run(s) both sides share (%s); %d baseline and %d candidate trial(s) from other runs are left out",
		strings.Join(sortedKeys(shared), ", "), db, dc)
}

// dropOrphans leaves out, in each run both sides share, the trials of a
// pair the other side holds no trial of (a run stopped between a pair's two
// trials stores the first alone), and names each and why. The complete pairs
// stay paired; before, one half pair sent the whole comparison to the
// unpaired test with only the sides' trial counts as the reason. A
// workload without one complete pair keeps its trials (checkSchedule then
// says why it cannot pair them).
func dropOrphans(bt, ct []results.Trial) (b, c []results.Trial, warning string) {
	type key struct {
		workload, run string
		pair          int
	}
	keys := func(ts []results.Trial) (map[key]bool, map[string]bool) {
		k, runs := map[key]bool{}, map[string]bool{}
		for i := range ts {
			k[key{ts[i].Workload, ts[i].RunID, ts[i].Pair}] = true
			runs[ts[i].RunID] = true
		}
		return k, runs
	}
	kb, rb := keys(bt)
	kc, rc := keys(ct)
	complete := map[string]bool{} // workloads with a complete pair
	for k := range kb {
		if kc[k] {
			complete[k.workload] = true
		}
	}
	var names []string
	keep := func(ts []results.Trial, other map[key]bool, otherRuns map[string]bool, side, otherSide string) []results.Trial {
		var out []results.Trial
		for _, t := range ts {
			if otherRuns[t.RunID] && complete[t.Workload] && !other[key{t.Workload, t.RunID, t.Pair}] {
				names = append(names, fmt.Sprintf("%s pair %d of run %s: %s trial %s (no %s trial of that pair is stored)", t.Workload, t.Pair, t.RunID, side, t.ID, otherSide))
				continue
			}
			out = append(out, t)
		}
		return out
	}
	b = keep(bt, kc, rc, "baseline", "candidate")
	c = keep(ct, kb, rb, "candidate", "baseline")
	if len(names) == 0 {
		return bt, ct, ""
	}
	return b, c, fmt.Sprintf("%d trial(s) have no partner and are left out, the complete pairs compared paired: %s; a run stopped (interrupted, or failed) between a pair's two trials stores the first alone",
		len(names), firstFew(names))
}

// sortedKeys returns a map's keys in order, so warnings and pairs are deterministic.
func sortedKeys[K interface{ ~int | ~string }, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
