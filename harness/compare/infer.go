package compare

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// This file decides a comparison from extracted samples (extract.go): plain
// numbers in, statuses and a verdict out. It never reads a trial.

// metricKey names one compared metric.
type metricKey struct{ Workload, Op, Metric string }

func (k metricKey) String() string { return k.Workload + "/" + k.Op + "/" + k.Metric }

// unit is the unit a metric is expressed in (the catalogue's).
func (k metricKey) unit() string { return metric.Of(k.Metric).Unit }

// worseSign is +1 when a larger value is worse (latency) and -1 when a
// smaller value is worse (throughput): the flip that lets one rule decide both.
func (k metricKey) worseSign() float64 { return metric.Of(k.Metric).Worse.Sign() }

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
	// outliers holds the pair ratios a server cost's row left out (robust.go).
	outliers []float64
	// slot is the slot-1 side's advantage on the log scale the estimate
	// took out (slots.go); 0 when the slots were not fitted.
	slot float64
	// slotSE and slotDF are slot's standard error and degrees of freedom,
	// from which the row's note is told once every row is fitted.
	slotSE, slotDF float64
}

// family is the gated hypotheses Holm decides together: the gated metrics'
// regression tests first, then the held rates that joined.
type family struct {
	metrics []int     // indices into Comparison.Metrics
	held    []int     // indices into Comparison.HeldRate
	p       []float64 // raw one-sided p-values, metrics' then held rates'
}

// decide runs the trial-level tests on s and fills out's statuses and verdict.
func decide(s samples, r resolved, out *Comparison) ([]detail, error) {
	spendAlpha(s, r, out)
	if len(s.missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero in some trial): "+strings.Join(s.missing, ", "))
	}
	if len(s.metrics) == 0 {
		return nil, errors.New("compare: baseline and candidate share no workload and metric that every trial reports; check that both ran the same workloads")
	}
	details, err := estimateAll(s.metrics, s.paired, r, out)
	if err != nil {
		return nil, err
	}
	applyGateRules(s.throttled, out)
	gateSources(s.metrics, out)
	out.NotCompared = append(out.NotCompared, gatedMissing(s, r)...)
	details = addPrimary(r, out, details, s.heavy)
	fam := rawPValues(details, out)
	heldBetter := testHeld(s.held, s.paired, r, out, &fam)
	// A gate whose every selector picks nothing (a misspelt op alone) is
	// INCONCLUSIVE naming them (NotCompared), as when one of several does;
	// only a gate that names nothing at all is an error.
	if len(fam.metrics) == 0 && !slices.ContainsFunc(out.HeldRate, func(h HeldRate) bool { return h.Gated }) && len(out.NotCompared) == 0 {
		return nil, fmt.Errorf("compare: the gate %v selects none of the compared metrics; gate on metrics these results report", r.Gate)
	}
	primRegressed, famAlpha := decidePrimary(details, out)
	out.FamilyAlpha = famAlpha
	regressed, heldRejected := holmFamily(fam, details, out, famAlpha)
	for i, reg := range primRegressed {
		regressed[i] = reg
	}
	heldStatuses(out.HeldRate, heldRejected, heldBetter, out.LookAlpha)
	metricStatuses(out.Metrics, details, regressed, out.LookAlpha)
	out.Verdict = verdict(out.Metrics, out.HeldRate)
	if out.Verdict == Pass && len(out.NotCompared) > 0 {
		// A gate never passes on a metric it could not compare.
		out.Verdict = VerdictInconclusive
	}
	if out.Invalid != "" {
		out.Verdict = VerdictInvalid
	}
	return details, nil
}

// spendAlpha records the schedule's findings and splits alpha over the looks.
// Every run pooled here was judged on its own at its planned looks, so its
// looks count again; a fixed set of unpaired trials (regress run,
// --reuse-baseline) had one look per run.
func spendAlpha(s samples, r resolved, out *Comparison) {
	out.Baseline.Trials, out.Candidate.Trials = s.baseTrials, s.candTrials
	out.Paired, out.Interleaved, out.Duet = s.paired, s.interleaved, s.duet
	out.Warnings = append(out.Warnings, s.warnings...)
	out.ServerCounts, out.ServerCountNotes = s.counts, s.countNotes
	out.Runs = s.runs
	perRun := r.Looks
	if !s.paired {
		perRun = 1
	}
	out.Looks = perRun * out.Runs
	out.LookAlpha = r.Alpha / float64(out.Looks)
	if out.Runs > 1 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("trials of %d runs are pooled; each run's looks count, so every test runs at alpha/%d", out.Runs, out.Looks))
	}
}

// estimateAll estimates every metric's log ratio and adds its result row
// (values, geometric means, ratio); bounds and statuses come later.
func estimateAll(ms []metricSample, paired bool, r resolved, out *Comparison) ([]detail, error) {
	details := make([]detail, len(ms))
	pools := poolInstances(ms, r.InstanceSD, r.InstanceRuns)
	for i, s := range ms {
		k := s.key
		d, gb, gc, err := estimateKey(s, paired, pools[k.Metric])
		if err != nil {
			return nil, err
		}
		d.c = math.Log1p(r.tol[k.Metric])
		widened := false
		if e, ok := oneInstanceOffset(d.est, pools[k.Metric], r.tightestTol(k.Metric)); ok {
			d.est, widened = e, true
		}
		out.Instances = max(out.Instances, d.est.Instances)
		d.level = out.LookAlpha
		details[i] = d
		out.Metrics = append(out.Metrics, MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: math.Exp(d.est.Mean),
			Tolerance: r.tol[k.Metric], Gated: r.gated(k), DetectOnly: r.detectOnly(k), Pairs: d.est.N,
			BaselineValues: s.base, CandidateValues: s.cand, OpsPerTrial: s.opsPerTrial,
		})
		if d.outliers != nil {
			out.Metrics[len(out.Metrics)-1].Note = outlierNote(k.Metric, d.outliers)
		}
		if d.slot != 0 {
			out.Metrics[len(out.Metrics)-1].SlotEffect = math.Exp(d.slot)
		}
		if widened {
			row := &out.Metrics[len(out.Metrics)-1]
			row.Note = strings.TrimPrefix(row.Note+"; "+widenedNote(pools[k.Metric]), "; ")
		}
	}
	noteSlots(details, out.Metrics[len(out.Metrics)-len(details):])
	return details, nil
}

// estimateKey computes the log-ratio estimate of one metric and the
// geometric means of both sides.
func estimateKey(s metricSample, paired bool, pool instancePool) (detail, float64, float64, error) {
	d := detail{key: s.key}
	mb, vb := meanVar(s.logBase)
	mc, vc := meanVar(s.logCand)
	d.varBase, d.varCand, d.nBase = vb, vc, len(s.logBase)
	if paired {
		if len(s.ratios) < 2 {
			return d, 0, 0, fmt.Errorf("compare: workload %s has %d pair(s); a significance test needs at least 2 pairs per workload "+
				"(run more pairs, or compare imported summaries descriptively)", s.key.Workload, len(s.ratios))
		}
		ratios, blocks, slots := s.ratios, s.blocks, s.slots
		if metric.IsEfficiency(s.key.Metric) {
			var left []int
			ratios, blocks, left = dropOutliers(ratios, blocks)
			if left != nil {
				slots = keptSlots(slots, left)
				for _, i := range left {
					d.outliers = append(d.outliers, s.ratios[i])
				}
				// The sides' figures are those of the pairs the row rests on.
				mb, mc = keptLogMean(s.base, left), keptLogMean(s.cand, left)
			}
		}
		d.est = pairedEstimate(ratios)
		if e, ok := nestedEstimate(ratios, blocks, pool); ok {
			d.est = e
		} else if e, b, bSE, ok := slotFit(ratios, slots); ok {
			d.est, d.slot, d.slotSE, d.slotDF = e, b, bSE, e.DF
		}
	} else {
		if len(s.logBase) < 2 || len(s.logCand) < 2 {
			return d, 0, 0, fmt.Errorf("compare: workload %s has %d baseline and %d candidate trial(s); an unpaired test needs at least 2 a side "+
				"(run more trials, or compare imported summaries descriptively)", s.key.Workload, len(s.logBase), len(s.logCand))
		}
		d.est = welchEstimate(s.logBase, s.logCand)
	}
	return d, math.Exp(mb), math.Exp(mc), nil
}

// keptLogMean is the mean log of the per-pair values vs without the pairs
// at the indices left.
func keptLogMean(vs []float64, left []int) float64 {
	var sum float64
	var n int
	for i, v := range vs {
		if !slices.Contains(left, i) {
			sum += math.Log(v)
			n++
		}
	}
	return sum / float64(n)
}

// rawPValues sets every metric's raw one-sided p-value of H0: worse-direction
// change <= tolerance, and starts the family with the gated ones.
func rawPValues(details []detail, out *Comparison) family {
	var fam family
	for i := range out.Metrics {
		d := &details[i]
		e := d.est
		e.Mean *= d.key.worseSign()
		out.Metrics[i].P = e.pAbove(d.c)
		if out.Metrics[i].Gated && !out.Metrics[i].costRow() {
			fam.metrics = append(fam.metrics, i)
			fam.p = append(fam.p, out.Metrics[i].P)
		}
	}
	return fam
}

// testHeld adds each throttled workload's held-rate check to out and returns
// the p-values that the candidate misses the rate less often. A check joins
// the family only when some trial missed the rate: one that no trial missed
// cannot be rejected, and counting it would only make every other gated test
// stricter.
func testHeld(held []heldSample, paired bool, r resolved, out *Comparison, fam *family) (better []float64) {
	for _, hs := range held {
		h := hs.rate
		pw, pb := missP(h, paired, hs.pairs)
		h.Gated = r.gatesThroughput(h.Workload)
		h.P = pw
		out.HeldRate = append(out.HeldRate, h)
		better = append(better, pb)
		if h.Gated && pw < 1 {
			fam.held = append(fam.held, len(out.HeldRate)-1)
			fam.p = append(fam.p, pw)
		}
		if why := invalidHeld(h); why != "" && out.Invalid == "" {
			out.Invalid = why
		}
	}
	return better
}

// holmFamily runs Holm over the family at the look's alpha, stores the
// adjusted p-values and each gated metric's Holm level, and returns which
// metrics and held rates it rejected.
func holmFamily(fam family, details []detail, out *Comparison, alpha float64) (regressed []bool, heldRejected map[int]bool) {
	adj, reject, level := holm(fam.p, alpha)
	// A p-value is shown against the look's alpha: one tested at a share
	// of it is scaled up by the same factor, so p < alpha still reads
	// "rejected".
	scale := out.LookAlpha / alpha
	for j := range adj {
		adj[j] = math.Min(1, adj[j]*scale)
	}
	regressed = make([]bool, len(out.Metrics))
	for j, i := range fam.metrics {
		out.Metrics[i].P = adj[j]
		details[i].level = level[j]
		regressed[i] = reject[j]
	}
	heldRejected = map[int]bool{}
	for j, i := range fam.held {
		out.HeldRate[i].P = adj[len(fam.metrics)+j]
		heldRejected[i] = reject[len(fam.metrics)+j]
	}
	return regressed, heldRejected
}

// metricStatuses reads every metric's bounds, status and detectable change
// off its estimate: at the look's alpha for the interval and pass bound, at
// its Holm level for the regression bound.
func metricStatuses(ms []MetricResult, details []detail, regressed []bool, alpha float64) {
	for i := range ms {
		m, d := &ms[i], details[i]
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
			reg = BeyondTolerance(rlo, rhi, d.c, sign)
		}
		m.Status = StatusOf(lo, hi, d.c, sign, reg)
		m.Detectable = detectable(d)
	}
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
// throughput of a workload that ran at a target rate (throttled; the
// held-rate check gates instead), and a percentile whose trials hold fewer
// than MinTailSamples beyond it (the highest percentile that has them, or the
// mean, gates in its place).
func applyGateRules(throttled map[string]bool, out *Comparison) {
	index := map[metricKey]int{}
	for i, m := range out.Metrics {
		index[metricKey{m.Workload, m.Op, m.Metric}] = i
	}
	for i := range out.Metrics {
		m := &out.Metrics[i]
		if !m.Gated || metric.IsEfficiency(m.Metric) {
			continue
		}
		if m.Metric == MetricThroughput {
			if throttled[m.Workload] {
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
		if !f.Gated {
			// A stand-in gates as the metric it stands for: it only detects
			// where that one only detected (compare.detect_only).
			f.Gated, f.GatedFor, f.DetectOnly = true, m.Metric, m.DetectOnly
			f.Note = fmt.Sprintf("gates in place of %s: a trial recorded only %d %s operations (%s needs %d)", m.Metric, m.OpsPerTrial, m.Op, m.Metric, OpsNeeded(m.Metric))
			continue
		}
		// Standing in for several: it decides when any of them did.
		f.DetectOnly = f.DetectOnly && m.DetectOnly
	}
}

// gateSources takes out of the gate a server cost metric whose two sides
// measured it differently (the request threads' own counters on one, the
// whole process on the other: a run against a cluster regress did not
// start, a baseline stored before the agent): the two figures are not the
// same quantity, so their ratio says nothing of the release. It is listed
// among the gated metrics not compared.
func gateSources(ms []metricSample, out *Comparison) {
	for i, s := range ms {
		if s.sources[0] == s.sources[1] || !metric.IsEfficiency(s.key.Metric) {
			continue
		}
		m := &out.Metrics[i]
		m.Note = fmt.Sprintf("not gated: the sides measured it differently (baseline: %s; candidate: %s)", s.sources[0], s.sources[1])
		if m.Gated {
			m.Gated = false
			out.NotCompared = append(out.NotCompared, fmt.Sprintf("%s %s (the baseline's from %s, the candidate's from %s)", m.Workload, m.Metric, s.sources[0], s.sources[1]))
		}
	}
}

// gatedMissing lists the gated metrics no row compares: a percentile zero or
// absent in some trial, a server cost the trials did not read. Each stops the
// gate from passing.
func gatedMissing(s samples, r resolved) []string {
	var out2 []string
	have := map[metricKey]bool{}
	for _, m := range s.metrics {
		have[m.key] = true
	}
	seen := map[metricKey]bool{}
	for _, k := range s.missingKeys {
		if r.gated(k) && !seen[k] {
			seen[k] = true
			out2 = append(out2, fmt.Sprintf("%s %s %s (absent or zero in some trial)", k.Workload, k.Op, k.Metric))
		}
	}
	for _, w := range s.workloads {
		for _, m := range metric.EfficiencyMetrics {
			k := metricKey{w, OpAll, m}
			if r.gated(k) && !have[k] && !seen[k] {
				seen[k] = true
				out2 = append(out2, fmt.Sprintf("%s %s (no trial read the servers' cost)", w, m))
			}
		}
	}
	// A selector that picks nothing these results hold (a typo, an op or a
	// workload the trials did not run) gated nothing: it must not let the
	// gate pass on the metrics the other selectors picked.
	keys := slices.Collect(maps.Keys(have))
	keys = append(keys, s.missingKeys...)
	for _, w := range append(slices.Clone(s.workloads), AllWorkloads) {
		for _, m := range metric.EfficiencyMetrics {
			keys = append(keys, metricKey{w, OpAll, m})
		}
	}
	for i, sel := range r.gate {
		if !slices.ContainsFunc(keys, func(k metricKey) bool { return sel.Matches(k.Workload, k.Op, k.Metric) }) {
			out2 = append(out2, fmt.Sprintf("gate selector %q (it matches no metric of these results: a misspelt workload or op, or one these trials did not run)", r.gateText[i]))
		}
	}
	return out2
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
		if !passes(m.Status) && !m.DetectsOnly() {
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

// keptSlots is slots without the pairs at the indices left.
func keptSlots(slots []int, left []int) []int {
	var out []int
	for i, v := range slots {
		if !slices.Contains(left, i) {
			out = append(out, v)
		}
	}
	return out
}
