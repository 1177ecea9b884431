package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/results"
)

// This file is the one seam between stored trials and the statistics: it
// turns trials into plain numbers per metric (as benchmath takes plain
// samples and leaves extraction and pairing to its caller). Apart from the
// public entry points and the schedule check, nothing else in the package
// reads a results.Trial.

// samples is what a comparison's trials say, as plain numbers: the metrics'
// values, the schedule check's findings and what the held-rate check counts.
type samples struct {
	baseTrials, candTrials int // trials kept on each side (only shared runs when paired)
	paired                 bool
	interleaved            bool     // pairs verified back to back by start time
	duet                   bool     // every pair's two trials ran at the same time
	warnings               []string // from keeping shared runs, the schedule check and flagged trials, in that order
	runs                   int      // distinct runs among the candidate's trials (at least 1)
	metrics                []metricSample
	missing                []string    // metrics left out: absent or zero in some trial
	missingKeys            []metricKey // the same, as keys
	workloads              []string    // every workload either side ran
	// throttled says, for every workload of metrics, whether all its trials
	// ran at a target rate; held counts the misses of each such workload.
	throttled map[string]bool
	held      []heldSample
	// counts are each side's server counts per workload (counts.go).
	counts     []ServerCounts
	countNotes []string
	// heavy is each workload's operation that makes heavyShare or more of
	// both sides' operations (YCSB's B, C and D: READ), "" when none.
	heavy map[string]string
}

// metricSample is one metric's values. Log values keep each side's stored
// trial order and the shown values the pair order, so every sum is taken in
// the same order as before the split and results stay bit-identical.
type metricSample struct {
	key metricKey
	// base and cand are the per-trial values, in pair order when paired
	// (element i of both is pair i).
	base, cand []float64
	// logBase and logCand are the log values of each side's trials in stored order.
	logBase, logCand []float64
	// ratios are log(candidate/baseline) per pair, in pair order; nil when unpaired.
	ratios []float64
	// blocks numbers each ratio's instance block (pairBlocks); nil when unpaired.
	blocks []int
	// slots say, per ratio, which side held slot 1 (slots.go): +1 the
	// candidate, -1 the baseline, 0 not recorded; nil when unpaired.
	slots []int
	// opsPerTrial is the fewest operations of key.Op in any trial (0 for OpAll).
	opsPerTrial int64
	// sources say where each side's server cost figure came from (its
	// trials' distinct CPUSource or AllocSource, joined); empty for others.
	sources [2]string
}

// heldSample is one throttled workload's count of missed target rates.
type heldSample struct {
	rate  HeldRate // counts only: no status, gate or p-value yet
	pairs int      // pairs of the workload when paired, else 0
}

// extract turns both sides' trials into samples: it keeps the shared runs
// (unless unpaired), checks the schedule, pairs the trials and reads every
// metric both sides report.
func extract(bt, ct []results.Trial, unpaired bool) samples {
	var s samples
	if !unpaired {
		var w string
		if bt, ct, w = sameRuns(bt, ct); w != "" {
			s.warnings = append(s.warnings, w)
		}
		if bt, ct, w = dropOrphans(bt, ct); w != "" {
			s.warnings = append(s.warnings, w)
		}
	}
	s.baseTrials, s.candTrials = len(bt), len(ct)
	sched := checkSchedule(bt, ct, unpaired)
	s.paired, s.interleaved, s.duet = sched.paired, sched.interleaved, sched.duet
	s.warnings = append(s.warnings, sched.warnings...)
	if w := flaggedTrials(bt, ct); w != "" {
		s.warnings = append(s.warnings, w)
	}
	if w := shortCounts(bt, ct); w != "" {
		s.warnings = append(s.warnings, w)
	}
	s.counts, s.countNotes = serverCounts(bt, ct), serverCountNotes(bt, ct)
	s.runs = countRuns(ct)
	keys, missing, missingKeys := commonKeys(bt, ct)
	s.missing, s.missingKeys = missing, missingKeys
	for _, side := range [][]results.Trial{bt, ct} {
		for i := range side {
			if !slices.Contains(s.workloads, side[i].Workload) {
				s.workloads = append(s.workloads, side[i].Workload)
			}
		}
	}
	sort.Strings(s.workloads)
	s.heavy = heavyOps(bt, ct)
	for _, k := range keys {
		s.metrics = append(s.metrics, extractMetric(k, bt, ct, sched))
	}
	s.throttled = map[string]bool{}
	for _, w := range workloads(keys) {
		s.throttled[w] = throttled(w, bt, ct)
		if s.throttled[w] {
			s.held = append(s.held, heldCounts(w, bt, ct, sched))
		}
	}
	return s
}

// heavyShare is the share of a workload's operations one operation must
// make for the workload to join that operation's primary row (primary.go):
// YCSB's B and D are 95% READ, C all READ, E 95% SCAN; A and F are halves.
const heavyShare = 0.9

// heavyOps is each workload's operation that makes heavyShare or more of
// its operations on each side (counted over the side's trials), "" when
// none: a workload that is a different mix on the two sides is no one
// operation's.
func heavyOps(bt, ct []results.Trial) map[string]string {
	out := map[string]string{}
	shares := func(ts []results.Trial, w string) (map[string]int64, int64) {
		n, total := map[string]int64{}, int64(0)
		for i := range ts {
			if ts[i].Workload != w {
				continue
			}
			for op, st := range ts[i].Ops {
				n[op] += st.Count
				total += st.Count
			}
		}
		return n, total
	}
	for _, side := range [][]results.Trial{bt, ct} {
		for i := range side {
			w := side[i].Workload
			if _, done := out[w]; done {
				continue
			}
			out[w] = ""
			bn, bTotal := shares(bt, w)
			cn, cTotal := shares(ct, w)
			if bTotal == 0 || cTotal == 0 {
				continue
			}
			for _, op := range slices.Sorted(maps.Keys(bn)) {
				if float64(bn[op]) >= heavyShare*float64(bTotal) && float64(cn[op]) >= heavyShare*float64(cTotal) {
					out[w] = op
				}
			}
		}
	}
	return out
}

// extractMetric reads one metric's values off both sides' trials.
func extractMetric(k metricKey, bt, ct []results.Trial, sched schedule) metricSample {
	m := metricSample{key: k}
	for i := range bt {
		if bt[i].Workload == k.Workload {
			m.logBase = append(m.logBase, math.Log(k.value(&bt[i])))
		}
	}
	for i := range ct {
		if ct[i].Workload == k.Workload {
			m.logCand = append(m.logCand, math.Log(k.value(&ct[i])))
		}
	}
	m.base, m.cand = trialValues(k, bt, ct, sched)
	if sched.paired {
		pairs := sched.pairs[k.Workload]
		m.ratios = make([]float64, len(pairs))
		m.blocks = pairBlocks(pairs)
		m.slots = make([]int, len(pairs))
		for i, p := range pairs {
			m.ratios[i] = math.Log(k.value(p[1])) - math.Log(k.value(p[0]))
			switch {
			case p[1].Slot == 1 && p[0].Slot == 2:
				m.slots[i] = 1
			case p[0].Slot == 1 && p[1].Slot == 2:
				m.slots[i] = -1
			}
		}
	}
	if k.Op != OpAll {
		m.opsPerTrial = minOps(k.Workload, k.Op, bt, ct)
	}
	if metric.IsEfficiency(k.Metric) {
		m.sources = [2]string{costSources(k, bt), costSources(k, ct)}
	}
	return m
}

// costSources joins the distinct sources of a server cost metric among one
// side's trials of k's workload ("request threads"; "" for trials stored
// before sources were).
func costSources(k metricKey, ts []results.Trial) string {
	var seen []string
	for i := range ts {
		t := &ts[i]
		if t.Workload != k.Workload || t.Server == nil {
			continue
		}
		src := metric.Of(k.Metric).Source(t.Server)
		if src == "" {
			src = "unrecorded"
		}
		if !slices.Contains(seen, src) {
			seen = append(seen, src)
		}
	}
	sort.Strings(seen)
	return strings.Join(seen, " and ")
}

// trialValues lists the metric's per-trial values of both sides, in pair
// order when paired.
func trialValues(k metricKey, bt, ct []results.Trial, sched schedule) (b, c []float64) {
	if sched.paired {
		for _, p := range sched.pairs[k.Workload] {
			b = append(b, k.value(p[0]))
			c = append(c, k.value(p[1]))
		}
		return b, c
	}
	for i := range bt {
		if bt[i].Workload == k.Workload {
			b = append(b, k.value(&bt[i]))
		}
	}
	for i := range ct {
		if ct[i].Workload == k.Workload {
			c = append(c, k.value(&ct[i]))
		}
	}
	return b, c
}

// value reads the metric off a trial through the catalogue; 0 means the
// trial did not report it.
func (k metricKey) value(t *results.Trial) float64 { return metric.Of(k.Metric).Value(t, k.Op) }

// below returns the bound a zero figure of k is known to lie under in t (an
// imported percentile printed as 0 whole milliseconds), or 0.
func (k metricKey) below(t *results.Trial) float64 {
	if k.value(t) != 0 {
		return 0
	}
	return t.Ops[k.Op].Below[k.Metric]
}

// minOps is the fewest operations of op any trial of workload w recorded.
func minOps(w, op string, sides ...[]results.Trial) int64 {
	n := int64(-1)
	for _, ts := range sides {
		for i := range ts {
			if ts[i].Workload != w {
				continue
			}
			c := ts[i].Ops[op].Count
			if n < 0 || c < n {
				n = c
			}
		}
	}
	return max(n, 0)
}

// countRuns is the number of distinct runs among the trials (at least 1).
func countRuns(ts []results.Trial) int {
	seen := map[string]bool{}
	for i := range ts {
		seen[ts[i].RunID] = true
	}
	return max(len(seen), 1)
}

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

// heldCounts counts the trials of workload w that missed their target rate
// on each side and, when paired, the pairs where only one side missed.
func heldCounts(w string, bt, ct []results.Trial, sched schedule) heldSample {
	h := HeldRate{Workload: w}
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
	if !sched.paired {
		return heldSample{rate: h}
	}
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
	return heldSample{rate: h, pairs: len(pairs)}
}

// flaggedTrials names the trials whose window held a flush, compaction or
// split on their servers: their latency and server cost include that work,
// which a pair's other trial may not have met.
func flaggedTrials(bt, ct []results.Trial) string {
	var names []string
	for si, side := range [][]results.Trial{bt, ct} {
		who := [2]string{"baseline", "candidate"}[si]
		for i := range side {
			sv := side[i].Server
			if !sv.Flagged() {
				continue
			}
			var what []string
			for _, e := range []struct {
				n    int
				name string
			}{{sv.Flushes, "flush"}, {sv.Compactions, "compaction"}, {sv.Splits, "split"}} {
				if e.n > 0 {
					what = append(what, fmt.Sprintf("%d %s", e.n, e.name))
				}
			}
			names = append(names, fmt.Sprintf("%s pair %d %s (%s)", side[i].Workload, side[i].Pair, who, strings.Join(what, ", ")))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%d trial(s) had a flush, compaction or split on their servers inside the measurement window: %s; their latency and server cost include that work",
		len(names), firstFew(names))
}

// firstFew joins the first six of names with "; " and says how many more there are.
func firstFew(names []string) string {
	const show = 6
	if len(names) <= show {
		return strings.Join(names, "; ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], "; "), len(names)-show)
}

// allKeys lists every metric a set of trials reports, sorted for display:
// by workload, then operation, then metric in the catalogue's order, with
// each workload's throughput and server costs last. A server cost is listed
// only where a trial read the servers.
func allKeys(ts []results.Trial) []metricKey {
	seen := map[metricKey]bool{}
	rows := metric.All()
	for i := range ts {
		t := &ts[i]
		for _, m := range rows {
			if !m.Gated() {
				continue
			}
			switch m.Scope {
			case metric.PerOp:
				for op := range t.Ops {
					seen[metricKey{t.Workload, op, m.Name}] = true
				}
			case metric.PerTrial:
				seen[metricKey{t.Workload, OpAll, m.Name}] = true
			case metric.Server:
				if t.Server != nil {
					seen[metricKey{t.Workload, OpAll, m.Name}] = true
				}
			}
		}
	}
	keys := make([]metricKey, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Workload != b.Workload {
			return a.Workload < b.Workload
		}
		if (a.Op == OpAll) != (b.Op == OpAll) {
			return b.Op == OpAll
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return metric.Rank(a.Metric) < metric.Rank(b.Metric)
	})
	return keys
}

// commonKeys returns the metrics every trial of both sides reports for its
// workload, and the names of those it had to leave out (a metric a trial does
// not report, or a workload or operation only one side ran).
func commonKeys(bt, ct []results.Trial) (keys []metricKey, missing []string, missingKeys []metricKey) {
	all := allKeys(append(slices.Clone(bt), ct...))
	for _, k := range all {
		ok := true
		nb, nc := 0, 0
		for _, side := range [][]results.Trial{bt, ct} {
			for i := range side {
				if side[i].Workload != k.Workload {
					continue
				}
				if !usable(k.value(&side[i])) {
					ok = false
				}
			}
		}
		for i := range bt {
			if bt[i].Workload == k.Workload {
				nb++
			}
		}
		for i := range ct {
			if ct[i].Workload == k.Workload {
				nc++
			}
		}
		if ok && nb > 0 && nc > 0 {
			keys = append(keys, k)
		} else {
			missing = append(missing, k.String())
			missingKeys = append(missingKeys, k)
		}
	}
	return keys, missing, missingKeys
}

// descriptiveKeys returns the metrics every summary of both sides reports,
// a zero percentile with a "below" bound counting as reported, and the names
// of those left out.
func descriptiveKeys(bt, ct []results.Trial) (keys []metricKey, missing []string) {
	seen := map[metricKey]bool{}
	var all []metricKey
	for _, side := range [][]results.Trial{bt, ct} {
		for i := range side {
			t := &side[i]
			ops := make([]string, 0, len(t.Ops))
			for op := range t.Ops {
				ops = append(ops, op)
			}
			sort.Strings(ops)
			for _, op := range ops {
				for _, m := range descriptiveMetrics {
					k := metricKey{t.Workload, op, m}
					if !seen[k] {
						seen[k] = true
						all = append(all, k)
					}
				}
			}
			if k := (metricKey{t.Workload, OpAll, MetricThroughput}); !seen[k] {
				seen[k] = true
				all = append(all, k)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Workload != b.Workload {
			return a.Workload < b.Workload
		}
		if (a.Op == OpAll) != (b.Op == OpAll) {
			return b.Op == OpAll
		}
		return a.Op < b.Op
	})
	for _, k := range all {
		nb, nc, ok := 0, 0, true
		for si, side := range [][]results.Trial{bt, ct} {
			for i := range side {
				if side[i].Workload != k.Workload {
					continue
				}
				if si == 0 {
					nb++
				} else {
					nc++
				}
				if !usable(k.value(&side[i])) && k.below(&side[i]) <= 0 {
					ok = false
				}
			}
		}
		if ok && nb > 0 && nc > 0 {
			keys = append(keys, k)
		} else {
			missing = append(missing, k.String())
		}
	}
	return keys, missing
}

// geoMeanBelow is the geometric mean of k over the trials of its workload,
// where a zero figure with a "below" bound counts as that bound; below
// reports whether any did.
func geoMeanBelow(k metricKey, ts []results.Trial) (g float64, n int, below bool) {
	var s float64
	for i := range ts {
		if ts[i].Workload != k.Workload {
			continue
		}
		v := k.value(&ts[i])
		if b := k.below(&ts[i]); b > 0 {
			v, below = b, true
		}
		if usable(v) {
			s += math.Log(v)
			n++
		}
	}
	if n == 0 {
		return 0, 0, below
	}
	return math.Exp(s / float64(n)), n, below
}
