package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/policy"
	"github.com/regress-hbase/regress/harness/results"
)

// metricKey names one compared metric.
type metricKey struct{ Workload, Op, Metric string }

func (k metricKey) String() string { return k.Workload + "/" + k.Op + "/" + k.Metric }

// unit is the unit a metric is expressed in.
func (k metricKey) unit() string {
	switch k.Metric {
	case MetricThroughput:
		return "ops/s"
	case MetricAllocPerOp:
		return "B"
	}
	return "us"
}

// worseSign is +1 when a larger value is worse (latency) and -1 when a
// smaller value is worse (throughput): the flip that lets one rule decide both.
func (k metricKey) worseSign() float64 {
	if k.Metric == MetricThroughput {
		return -1
	}
	return 1
}

// value extracts the metric from a trial; 0 means the trial did not report it.
func (k metricKey) value(t *results.Trial) float64 {
	switch k.Metric {
	case MetricThroughput:
		return t.AchievedOpsPerSec
	case MetricCPUPerOp:
		if t.Server == nil {
			return 0
		}
		return t.Server.CPUPerOpMicros
	case MetricAllocPerOp:
		if t.Server == nil {
			return 0
		}
		return t.Server.AllocPerOpBytes
	}
	op, ok := t.Ops[k.Op]
	if !ok {
		return 0
	}
	l := op.Intended
	switch k.Metric {
	case MetricP50:
		return l.P50Micros
	case MetricP95:
		return l.P95Micros
	case MetricP99:
		return l.P99Micros
	case MetricP999:
		return l.P999Micros
	case MetricMean:
		return l.MeanMicros
	case MetricMin:
		return l.MinMicros
	case MetricMax:
		return l.MaxMicros
	}
	return 0
}

// below returns the bound a zero figure of k is known to lie under in t (an
// imported percentile printed as 0 whole milliseconds), or 0.
func (k metricKey) below(t *results.Trial) float64 {
	if k.value(t) != 0 {
		return 0
	}
	return t.Ops[k.Op].Below[k.Metric]
}

// usable reports whether v can be compared on the log scale.
func usable(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// detail keeps what NeedMorePairs needs beyond the public result.
type detail struct {
	key   metricKey
	est   estimate
	level float64 // one-sided level the interval was read at
	c     float64 // log(1+tolerance)
	// for the unpaired projection: per-side variances of the log values
	varBase, varCand float64
	nBase            int
}

// Compare compares a candidate with a baseline. It returns an error when the
// two results are not comparable (different suites or data specs, too few
// trials, bad configuration); anything merely doubtful becomes a warning.
func Compare(base, cand *results.Manifest, cfg Config) (*Comparison, error) {
	c, _, err := compare(base, cand, cfg)
	return c, err
}

// NeedMorePairs is what the scheduler calls after look number look (1-based)
// of cfg.Looks planned looks. It compares the trials so far at this look's
// share of alpha and, for each workload whose gated metrics include an
// INCONCLUSIVE one, projects from the current spread how many pairs would
// let the interval clear the tolerance boundary nearest the estimate, capped
// at cfg.MaxPairs pairs in all. A REGRESSED gated metric ends the run: the
// verdict cannot be anything but REGRESSION at a later look that is trusted.
func NeedMorePairs(base, cand *results.Manifest, cfg Config, look int) (Plan, error) {
	r, err := cfg.resolve()
	if err != nil {
		return Plan{}, err
	}
	if look < 1 || look > r.Looks {
		return Plan{}, fmt.Errorf("compare: look %d is outside the %d planned looks; count looks from 1 and plan enough of them in Config.Looks", look, r.Looks)
	}
	c, details, err := compare(base, cand, cfg)
	if err != nil {
		return Plan{}, err
	}
	return plan(c, details, r, look), nil
}

// PlanPairs projects, for every gated metric, the pairs a run of this suite
// needs. From a baseline and a candidate it uses their (paired, when they
// share runs) trials; with cand nil it uses the baseline's trials alone,
// taking the spread of a pair's log ratio as that of two independent trials.
// cfg carries the suite's alpha, tolerances, gate and planned looks.
func PlanPairs(base, cand *results.Manifest, cfg Config) ([]PairsPlan, error) {
	if cand == nil {
		cand = base
		cfg.Unpaired = true
	}
	r, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	c, details, err := compare(base, cand, cfg)
	if err != nil {
		return nil, err
	}
	return planPairs(c, details, r), nil
}

func compare(base, cand *results.Manifest, cfg Config) (*Comparison, []detail, error) {
	if base == nil || cand == nil {
		return nil, nil, errors.New("compare: baseline or candidate manifest is nil; load both results first")
	}
	r, err := cfg.resolve()
	if err != nil {
		return nil, nil, err
	}
	warnings, err := checkComparable(base, cand)
	if err != nil {
		return nil, nil, err
	}
	out := &Comparison{
		Baseline:  Side{Name: sideName(base), Trials: len(base.Trials)},
		Candidate: Side{Name: sideName(cand), Trials: len(cand.Trials)},
		Suite:     firstNonEmpty(cand.Suite.Name, base.Suite.Name),
		Alpha:     r.Alpha,
		Looks:     r.Looks,
		LookAlpha: r.lookAlpha(),
		Warnings:  warnings,
	}
	if len(base.Trials) == 0 || len(cand.Trials) == 0 {
		if err := describe(base, cand, r, out); err != nil {
			return nil, nil, err
		}
		return out, nil, nil
	}
	if len(base.Summaries) > 0 || len(cand.Summaries) > 0 {
		out.Warnings = append(out.Warnings, "imported summaries are ignored because both sides have measured trials")
	}
	details, err := infer(base.Trials, cand.Trials, r, out)
	if err != nil {
		return nil, nil, err
	}
	return out, details, nil
}

func sideName(m *results.Manifest) string {
	return firstNonEmpty(m.Label, m.Version)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// checkComparable refuses results of different suites or data specs and warns
// about environment differences: a different suite measures something else,
// while a different machine only adds noise the verdict cannot see.
func checkComparable(base, cand *results.Manifest) ([]string, error) {
	var warnings []string
	b, c := base.Suite, cand.Suite
	if b.Fingerprint != c.Fingerprint {
		return nil, fmt.Errorf("compare: baseline %q ran suite %q (fingerprint %q) but candidate %q ran suite %q (fingerprint %q); "+
			"only results of the same suite definition are comparable, so rerun one side with the other's suite",
			sideName(base), b.Name, b.Fingerprint, sideName(cand), c.Name, c.Fingerprint)
	}
	if b.DataSpec != c.DataSpec {
		return nil, fmt.Errorf("compare: baseline %q was seeded with data spec %q but candidate %q with %q; "+
			"results on different data are not comparable, so reseed one side with the other's spec",
			sideName(base), b.DataSpec, sideName(cand), c.DataSpec)
	}
	if b.Fingerprint == "" {
		warnings = append(warnings, "neither result records a suite fingerprint, so it cannot be checked that both ran the same suite")
	}
	if b, c := base.RegionServers, cand.RegionServers; b != c && b > 0 && c > 0 {
		warnings = append(warnings, fmt.Sprintf("the baseline ran on %d region server(s), the candidate on %d: "+
			"a difference may come from the cluster's shape rather than the release; run both with the same --region-servers", b, c))
	}
	if diffs := base.Environment.Diff(cand.Environment); len(diffs) > 0 {
		warnings = append(warnings, "environments differ (baseline vs candidate: "+strings.Join(diffs, "; ")+
			"); a difference may come from the machine rather than the release")
	}
	return warnings, nil
}

// describe fills a descriptive comparison: ratios of geometric means, no
// intervals, no p-values, no verdict. Used when a side has no trials (YCSB
// imports carry one summary per metric, so there is no between-trial variance
// to test against).
func describe(base, cand *results.Manifest, r resolved, out *Comparison) error {
	bt, ct := observations(base), observations(cand)
	if len(bt) == 0 {
		return fmt.Errorf("compare: baseline %q has neither trials nor imported summaries; run or import it first", sideName(base))
	}
	if len(ct) == 0 {
		return fmt.Errorf("compare: candidate %q has neither trials nor imported summaries; run or import it first", sideName(cand))
	}
	out.Descriptive = true
	out.Verdict = VerdictDescriptive
	out.Baseline.Trials, out.Candidate.Trials = len(bt), len(ct)
	out.Warnings = append(out.Warnings, "descriptive comparison: imported YCSB summaries carry one value per metric and no trials, "+
		"so these are ratios only, with no confidence interval, no significance and no verdict")
	keys, missing := descriptiveKeys(bt, ct)
	if len(missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero on a side): "+strings.Join(missing, ", "))
	}
	for _, k := range keys {
		gb, nb, belowB := geoMeanBelow(k, bt)
		gc, nc, belowC := geoMeanBelow(k, ct)
		m := MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: gc / gb,
			Tolerance: r.tol[k.Metric], Status: Descriptive, Gated: r.gated(k) && k.Metric != MetricMin && k.Metric != MetricMax,
			Pairs: min(nb, nc), BaselineBelow: belowB, CandidateBelow: belowC,
		}
		if belowB || belowC {
			// A bound is not a value: no ratio can be formed from it.
			m.Ratio = math.NaN()
			m.Note = k.Metric + " printed as 0 ms, i.e. below 1 ms, on the " + strings.Join(belowSides(belowB, belowC), " and ") + "; no ratio"
		}
		out.Metrics = append(out.Metrics, m)
	}
	if len(out.Metrics) == 0 {
		return errors.New("compare: baseline and candidate share no workload and metric; check that both ran the same workloads")
	}
	return nil
}

// descriptiveMetrics are the per-operation figures an imported summary is
// compared on: the trial metrics plus YCSB's MinLatency and MaxLatency.
var descriptiveMetrics = append(slices.Clone(latencyMetrics), MetricMin, MetricMax)

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

// geoMeanBelow is geoMean where a zero figure with a "below" bound counts
// as that bound; below reports whether any did.
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

func belowSides(b, c bool) []string {
	var out []string
	if b {
		out = append(out, "baseline")
	}
	if c {
		out = append(out, "candidate")
	}
	return out
}

// observations are the values a side contributes: its trials, or its
// imported summaries when it has none.
func observations(m *results.Manifest) []results.Trial {
	if len(m.Trials) > 0 {
		return m.Trials
	}
	return m.Summaries
}

// allKeys lists every metric a set of trials reports, sorted for display:
// by workload, then operation, then metric in latencyMetrics order, with each
// workload's throughput last.
func allKeys(ts []results.Trial) []metricKey {
	seen := map[metricKey]bool{}
	for i := range ts {
		t := &ts[i]
		for op := range t.Ops {
			for _, m := range latencyMetrics {
				seen[metricKey{t.Workload, op, m}] = true
			}
		}
		seen[metricKey{t.Workload, OpAll, MetricThroughput}] = true
		if t.Server != nil {
			for _, m := range policy.EfficiencyMetrics {
				seen[metricKey{t.Workload, OpAll, m}] = true
			}
		}
	}
	keys := make([]metricKey, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	rank := func(k metricKey) int {
		if k.Metric == MetricThroughput {
			return len(latencyMetrics)
		}
		if i := slices.Index(policy.EfficiencyMetrics, k.Metric); i >= 0 {
			return len(latencyMetrics) + 1 + i
		}
		return slices.Index(latencyMetrics, k.Metric)
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
		return rank(a) < rank(b)
	})
	return keys
}

// commonKeys returns the metrics every trial of both sides reports for its
// workload, and the names of those it had to leave out (a metric a trial does
// not report, or a workload or operation only one side ran).
func commonKeys(bt, ct []results.Trial) (keys []metricKey, missing []string) {
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
		}
	}
	return keys, missing
}

// infer runs the trial-level tests and fills statuses and the verdict.
func infer(bt, ct []results.Trial, r resolved, out *Comparison) ([]detail, error) {
	if !r.Unpaired {
		var w string
		if bt, ct, w = sameRuns(bt, ct); w != "" {
			out.Warnings = append(out.Warnings, w)
		}
		out.Baseline.Trials, out.Candidate.Trials = len(bt), len(ct)
	}
	sched := checkSchedule(bt, ct, r.Unpaired)
	out.Paired, out.Interleaved = sched.paired, sched.interleaved
	out.Warnings = append(out.Warnings, sched.warnings...)
	if w := flaggedTrials(bt, ct); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	// Alpha accounting: every run pooled here was judged on its own at its
	// planned looks, so its looks count again. A fixed set of unpaired
	// trials (regress run, --reuse-baseline) had one look per run.
	out.Runs = countRuns(ct)
	perRun := r.Looks
	if !sched.paired {
		perRun = 1
	}
	out.Looks = perRun * out.Runs
	out.LookAlpha = r.Alpha / float64(out.Looks)
	if out.Runs > 1 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("trials of %d runs are pooled; each run's looks count, so every test runs at alpha/%d", out.Runs, out.Looks))
	}
	keys, missing := commonKeys(bt, ct)
	if len(missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero in some trial): "+strings.Join(missing, ", "))
	}
	if len(keys) == 0 {
		return nil, errors.New("compare: baseline and candidate share no workload and metric that every trial reports; check that both ran the same workloads")
	}
	alpha := out.LookAlpha
	details := make([]detail, len(keys))
	index := map[metricKey]int{}
	for i, k := range keys {
		d, gb, gc, err := estimateKey(k, bt, ct, sched)
		if err != nil {
			return nil, err
		}
		d.c = math.Log1p(r.tol[k.Metric])
		d.level = alpha
		details[i] = d
		index[k] = i
		m := MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: math.Exp(d.est.Mean),
			Tolerance: r.tol[k.Metric], Gated: r.gated(k), Pairs: d.est.N,
		}
		m.BaselineValues, m.CandidateValues = trialValues(k, bt, ct, sched)
		if k.Op != OpAll {
			m.OpsPerTrial = minOps(k.Workload, k.Op, bt, ct)
		}
		out.Metrics = append(out.Metrics, m)
	}
	applyGateRules(bt, ct, index, out)

	// Raw one-sided p-values of H0: worse-direction change <= tolerance.
	var gatedIdx []int
	var gatedP []float64
	for i := range out.Metrics {
		d := &details[i]
		e := d.est
		e.Mean *= d.key.worseSign()
		out.Metrics[i].P = e.pAbove(d.c)
		if out.Metrics[i].Gated {
			gatedIdx = append(gatedIdx, i)
			gatedP = append(gatedP, out.Metrics[i].P)
		}
	}
	// Held-rate hypotheses join the family only for workloads where some
	// trial missed the rate: one that no trial missed cannot be rejected, and
	// counting it would only make every other gated test stricter.
	var heldIdx []int
	var heldBetter []float64
	for _, w := range workloads(keys) {
		if !throttled(w, bt, ct) {
			continue
		}
		h, pw, pb := heldRate(w, bt, ct, sched)
		h.Gated = r.gatesThroughput(w)
		h.P = pw
		out.HeldRate = append(out.HeldRate, h)
		heldBetter = append(heldBetter, pb)
		if h.Gated && pw < 1 {
			heldIdx = append(heldIdx, len(out.HeldRate)-1)
			gatedP = append(gatedP, pw)
		}
		if why := invalidHeld(h); why != "" && out.Invalid == "" {
			out.Invalid = why
		}
	}
	gatedHeld := 0
	for _, h := range out.HeldRate {
		if h.Gated {
			gatedHeld++
		}
	}
	if len(gatedIdx) == 0 && gatedHeld == 0 {
		return nil, fmt.Errorf("compare: the gate %v selects none of the compared metrics; gate on metrics these results report", r.Gate)
	}
	adj, reject, level := holm(gatedP, alpha)
	regressed := make([]bool, len(out.Metrics))
	for j, i := range gatedIdx {
		out.Metrics[i].P = adj[j]
		details[i].level = level[j]
		regressed[i] = reject[j]
	}
	heldRejected := map[int]bool{}
	for j, i := range heldIdx {
		out.HeldRate[i].P = adj[len(gatedIdx)+j]
		heldRejected[i] = reject[len(gatedIdx)+j]
	}
	for i := range out.HeldRate {
		h := &out.HeldRate[i]
		switch {
		case heldRejected[i]:
			h.Status = Regressed
		case !h.Gated && h.P < alpha:
			h.Status = Regressed
		case heldBetter[i] < alpha:
			h.Status = Improved
		case h.CandidateMissed == 0 && h.BaselineMissed == 0:
			h.Status = Unchanged
		case 2*h.CandidateMissed > h.CandidateTrials && h.CandidateMissed > h.BaselineMissed:
			// The candidate mostly could not hold the rate, more often than the
			// baseline but not significantly: the gate cannot pass on it. Fewer
			// misses leave the judgement to the latency gate, whose trials
			// include the missed ones.
			h.Status = Inconclusive
		default:
			h.Status = NotWorse
		}
	}
	for i := range out.Metrics {
		m, d := &out.Metrics[i], details[i]
		lo, hi := d.est.interval(alpha)
		m.CILow, m.CIHigh = math.Exp(lo), math.Exp(hi)
		rlo, rhi := d.est.interval(d.level)
		sign := d.key.worseSign()
		if sign > 0 {
			m.PassBound, m.RegressionBound = m.CIHigh, math.Exp(rlo)
		} else {
			m.PassBound, m.RegressionBound = m.CILow, math.Exp(rhi)
		}
		reg := regressed[i]
		if !m.Gated {
			reg = sign*pick(d.key, rlo, rhi) > d.c
		}
		m.Status = status(lo, hi, d.c, sign, reg)
		m.Detectable = detectable(d)
	}
	out.Verdict = verdict(out.Metrics, out.HeldRate)
	if out.Invalid != "" {
		out.Verdict = VerdictInvalid
	}
	return details, nil
}

// countRuns is the number of distinct runs among the trials (at least 1).
func countRuns(ts []results.Trial) int {
	seen := map[string]bool{}
	for i := range ts {
		seen[ts[i].RunID] = true
	}
	return max(len(seen), 1)
}

// workloads lists the workloads of keys in order.
func workloads(keys []metricKey) []string {
	var ws []string
	for _, k := range keys {
		if !slices.Contains(ws, k.Workload) {
			ws = append(ws, k.Workload)
		}
	}
	return ws
}

// applyGateRules takes out of the gate what cannot decide there and says why:
// throughput of a workload that ran at a target rate (the held-rate check
// gates instead), and a percentile whose trials hold fewer than
// MinTailSamples beyond it (the highest percentile that has them, or the
// mean, gates in its place).
func applyGateRules(bt, ct []results.Trial, index map[metricKey]int, out *Comparison) {
	for i := range out.Metrics {
		m := &out.Metrics[i]
		if !m.Gated {
			continue
		}
		if policy.IsEfficiency(m.Metric) {
			continue
		}
		if m.Metric == MetricThroughput {
			if throttled(m.Workload, bt, ct) {
				m.Gated = false
				m.Note = "throughput not gated: the trials ran at a target rate, which throughput only follows; the held-rate check gates instead"
			}
			continue
		}
		fb := tailFallback(m.Metric, m.OpsPerTrial)
		if fb == "" {
			continue
		}
		m.Gated = false
		m.Note = tailNote(m.Metric, fb, m.OpsPerTrial)
		j, ok := index[metricKey{m.Workload, m.Op, fb}]
		if !ok {
			continue
		}
		f := &out.Metrics[j]
		if f.Gated && f.GatedFor == "" {
			continue // gated in its own right already
		}
		if !f.Gated || f.GatedFor == "" {
			f.Gated, f.GatedFor = true, m.Metric
			f.Note = fmt.Sprintf("gates in place of %s: a trial recorded only %d %s operations (%s needs %d)", m.Metric, m.OpsPerTrial, m.Op, m.Metric, OpsNeeded(m.Metric))
		}
	}
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

// pick returns the interval bound nearest the worse direction's tolerance:
// the lower bound for latency, the upper bound for throughput.
func pick(k metricKey, lo, hi float64) float64 {
	if k.worseSign() > 0 {
		return lo
	}
	return hi
}

// status reads a metric's status off its interval [lo, hi] of the log ratio
// at the look's level, c = log(1+tolerance), sign = worseSign. regressed is
// the test's decision (Holm for gated metrics, read off the bound at the Holm
// level). The worse-direction bound within c is non-inferiority (NOT WORSE);
// UNCHANGED adds the better-direction bound within -c (equivalence);
// IMPROVED needs the worse-direction bound below -c.
func status(lo, hi, c, sign float64, regressed bool) Status {
	if sign < 0 {
		lo, hi = -hi, -lo
	}
	switch {
	case regressed:
		return Regressed
	case hi < -c:
		return Improved
	case lo >= -c && hi <= c:
		return Unchanged
	case hi <= c:
		return NotWorse
	default:
		return Inconclusive
	}
}

// passes reports whether a gated status lets the gate pass.
func passes(s Status) bool { return s == Unchanged || s == NotWorse || s == Improved }

// verdict combines the gated statuses: any REGRESSED fails; otherwise the
// gate passes when every gated metric is shown no worse than its tolerance
// (an intersection-union test: each at the look's alpha, no multiplicity
// correction needed), and is INCONCLUSIVE when one is not.
func verdict(ms []MetricResult, held []HeldRate) Verdict {
	v := Pass
	for _, m := range ms {
		if !m.Gated {
			continue
		}
		if m.Status == Regressed {
			return Regression
		}
		if !passes(m.Status) {
			v = VerdictInconclusive
		}
	}
	for _, h := range held {
		if !h.Gated {
			continue
		}
		if h.Status == Regressed {
			return Regression
		}
		if !passes(h.Status) {
			v = VerdictInconclusive
		}
	}
	return v
}

// estimateKey computes the log-ratio estimate of one metric and the
// geometric means of both sides.
func estimateKey(k metricKey, bt, ct []results.Trial, sched schedule) (detail, float64, float64, error) {
	d := detail{key: k}
	var lb, lc []float64
	for i := range bt {
		if bt[i].Workload == k.Workload {
			lb = append(lb, math.Log(k.value(&bt[i])))
		}
	}
	for i := range ct {
		if ct[i].Workload == k.Workload {
			lc = append(lc, math.Log(k.value(&ct[i])))
		}
	}
	mb, vb := meanVar(lb)
	mc, vc := meanVar(lc)
	d.varBase, d.varCand, d.nBase = vb, vc, len(lb)
	if sched.paired {
		pairs := sched.pairs[k.Workload]
		if len(pairs) < 2 {
			return d, 0, 0, fmt.Errorf("compare: workload %s has %d pair(s); a significance test needs at least 2 pairs per workload "+
				"(run more pairs, or compare imported summaries descriptively)", k.Workload, len(pairs))
		}
		diffs := make([]float64, len(pairs))
		for i, p := range pairs {
			diffs[i] = math.Log(k.value(p[1])) - math.Log(k.value(p[0]))
		}
		d.est = pairedEstimate(diffs)
	} else {
		if len(lb) < 2 || len(lc) < 2 {
			return d, 0, 0, fmt.Errorf("compare: workload %s has %d baseline and %d candidate trial(s); an unpaired test needs at least 2 a side "+
				"(run more trials, or compare imported summaries descriptively)", k.Workload, len(lb), len(lc))
		}
		d.est = welchEstimate(lb, lc)
	}
	return d, math.Exp(mb), math.Exp(mc), nil
}

// detectPower is the power at which Detectable is stated.
const detectPower = 0.8

// detectable is the smallest true change in the worse direction that the
// one-sided regression test at d's level rejects with probability
// detectPower: the tolerance plus the noise's margin, (t(1-level) +
// t(power)) standard errors, on the log scale.
func detectable(d detail) float64 {
	if d.est.N < 2 || d.level <= 0 {
		return 0
	}
	x := d.c
	if d.est.SE > 0 {
		x += (tQuantile(1-d.level, d.est.DF) + tQuantile(detectPower, d.est.DF)) * d.est.SE
	}
	if d.key.worseSign() < 0 {
		return -math.Expm1(-x)
	}
	return math.Expm1(x)
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
	const show = 6
	total, more := len(names), ""
	if len(names) > show {
		more = fmt.Sprintf(" and %d more", len(names)-show)
		names = names[:show]
	}
	return fmt.Sprintf("%d trial(s) had a flush, compaction or split on their servers inside the measurement window: %s%s; their latency and server cost include that work",
		total, strings.Join(names, "; "), more)
}
