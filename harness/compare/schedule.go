package compare

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/pairing"
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
	dup := func(ts []results.Trial) string {
		if _, d := pairing.Index(ts); d != nil {
			prev, t := d[0], d[1]
			return fmt.Sprintf("trials %q and %q of workload %s share run %q and pair index %d", prev.ID, t.ID, t.Workload, t.RunID, t.Pair)
		}
		return ""
	}
	why := dup(bt)
	if why == "" {
		why = dup(ct)
	}
	if why == "" {
		why = checkPairs(bt, ct, &s)
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

// checkPairs fills s.pairs with pairing's pairs of bt and ct, each
// workload's sorted by key, or says why the trials do not form pairs: a
// trial of a workload both sides ran without a partner, or a pair whose
// orders are not one first and one second. Neither side holds a key twice.
func checkPairs(bt, ct []results.Trial, s *schedule) string {
	bm, _ := pairing.Index(bt)
	cm, _ := pairing.Index(ct)
	matched := pairing.Match(bt, ct)
	for _, w := range sortedKeys(bm) {
		b, c := bm[w], cm[w]
		if c == nil {
			continue // a workload only one side ran is reported as not compared
		}
		if len(b) != len(c) {
			return unmatched(w, b, c)
		}
		byKey := make(map[pairing.Key][2]*results.Trial, len(matched[w]))
		for _, p := range matched[w] {
			byKey[pairing.KeyOf(p[0])] = p
		}
		for _, k := range sortedPairKeys(b) {
			p, ok := byKey[k]
			if !ok {
				return unmatched(w, b, c)
			}
			btr, ctr := p[0], p[1]
			if btr.Order+ctr.Order != 1 || (btr.Order != 0 && btr.Order != 1) {
				return fmt.Sprintf("workload %s: pair %d of run %q has orders %d and %d, not one first and one second", w, k.Pair, k.Run, btr.Order, ctr.Order)
			}
			s.pairs[w] = append(s.pairs[w], p)
		}
	}
	return ""
}

// unmatched says which trials of workload w have no partner (no trial of
// the other side with their run and pair) and why none can have one.
func unmatched(w string, b, c map[pairing.Key]*results.Trial) string {
	var names []string
	runs := [2]map[string]bool{{}, {}}
	for si, side := range []map[pairing.Key]*results.Trial{b, c} {
		other := []map[pairing.Key]*results.Trial{c, b}[si]
		for _, k := range sortedPairKeys(side) {
			runs[si][k.Run] = true
			if other[k] == nil {
				names = append(names, fmt.Sprintf("%s trial %s (run %s pair %d)", [2]string{"baseline", "candidate"}[si], side[k].ID, k.Run, k.Pair))
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
func sortedPairKeys(m map[pairing.Key]*results.Trial) []pairing.Key {
	return slices.SortedFunc(maps.Keys(m), pairing.Key.Compare)
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
	runs := func(ts []results.Trial) map[string]bool {
		m := map[string]bool{}
		for i := range ts {
			m[ts[i].RunID] = true
		}
		return m
	}
	kb, _ := pairing.Index(bt)
	kc, _ := pairing.Index(ct)
	rb, rc := runs(bt), runs(ct)
	complete := pairing.Match(bt, ct) // workloads with a complete pair
	var names []string
	keep := func(ts []results.Trial, other map[string]map[pairing.Key]*results.Trial, otherRuns map[string]bool, side, otherSide string) []results.Trial {
		var out []results.Trial
		for i := range ts {
			t := &ts[i]
			if otherRuns[t.RunID] && len(complete[t.Workload]) > 0 && other[t.Workload][pairing.KeyOf(t)] == nil {
				names = append(names, fmt.Sprintf("%s pair %d of run %s: %s trial %s (no %s trial of that pair is stored)", t.Workload, t.Pair, t.RunID, side, t.ID, otherSide))
				continue
			}
			out = append(out, *t)
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
