package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/results"
)

// metricKey names one compared metric.
type metricKey struct{ Workload, Op, Metric string }

func (k metricKey) String() string { return k.Workload + "/" + k.Op + "/" + k.Metric }

// unit is the unit a metric is expressed in.
func (k metricKey) unit() string {
	if k.Metric == MetricThroughput {
		return "ops/s"
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
	if k.Metric == MetricThroughput {
		return t.AchievedOpsPerSec
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
	}
	return 0
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
	eb, ec := base.Environment, cand.Environment
	var diffs []string
	add := func(name string, x, y any) {
		if x != y {
			diffs = append(diffs, fmt.Sprintf("%s %v vs %v", name, x, y))
		}
	}
	add("cpu", eb.CPUModel, ec.CPUModel)
	add("cores", eb.Cores, ec.Cores)
	add("memory", eb.MemoryBytes, ec.MemoryBytes)
	add("os", eb.OS, ec.OS)
	add("jdk", eb.JDK, ec.JDK)
	add("host", eb.Hostname, ec.Hostname)
	if len(diffs) > 0 {
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
	keys, missing := commonKeys(bt, ct)
	if len(missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero on a side): "+strings.Join(missing, ", "))
	}
	for _, k := range keys {
		gb, nb := geoMean(k, bt)
		gc, nc := geoMean(k, ct)
		out.Metrics = append(out.Metrics, MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: gc / gb,
			Tolerance: r.tol[k.Metric], Status: Descriptive, Gated: r.gated(k),
			Pairs: min(nb, nc),
		})
	}
	if len(out.Metrics) == 0 {
		return errors.New("compare: baseline and candidate share no workload and metric; check that both ran the same workloads")
	}
	return nil
}

// observations are the values a side contributes: its trials, or its
// imported summaries when it has none.
func observations(m *results.Manifest) []results.Trial {
	if len(m.Trials) > 0 {
		return m.Trials
	}
	return m.Summaries
}

// geoMean is the geometric mean of k over the trials that report it.
func geoMean(k metricKey, ts []results.Trial) (float64, int) {
	var s float64
	n := 0
	for i := range ts {
		if ts[i].Workload != k.Workload {
			continue
		}
		if v := k.value(&ts[i]); usable(v) {
			s += math.Log(v)
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return math.Exp(s / float64(n)), n
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
	}
	keys := make([]metricKey, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	rank := func(k metricKey) int {
		if k.Metric == MetricThroughput {
			return len(latencyMetrics)
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
	keys, missing := commonKeys(bt, ct)
	if len(missing) > 0 {
		out.Warnings = append(out.Warnings, "not compared (absent or zero in some trial): "+strings.Join(missing, ", "))
	}
	if len(keys) == 0 {
		return nil, errors.New("compare: baseline and candidate share no workload and metric that every trial reports; check that both ran the same workloads")
	}
	alpha := r.lookAlpha()
	details := make([]detail, len(keys))
	for i, k := range keys {
		d, gb, gc, err := estimateKey(k, bt, ct, sched)
		if err != nil {
			return nil, err
		}
		d.c = math.Log1p(r.tol[k.Metric])
		d.level = alpha
		details[i] = d
		out.Metrics = append(out.Metrics, MetricResult{
			Workload: k.Workload, Op: k.Op, Metric: k.Metric, Unit: k.unit(),
			Baseline: gb, Candidate: gc, Ratio: math.Exp(d.est.Mean),
			Tolerance: r.tol[k.Metric], Gated: r.gated(k), Pairs: d.est.N,
		})
	}
	// Raw one-sided p-values of H0: worse-direction change ≤ tolerance.
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
	if len(gatedIdx) == 0 {
		return nil, fmt.Errorf("compare: the gate %v selects none of the compared metrics; gate on metrics these results report", r.Gate)
	}
	adj, reject, level := holm(gatedP, alpha)
	regressed := make([]bool, len(out.Metrics))
	for j, i := range gatedIdx {
		out.Metrics[i].P = adj[j]
		details[i].level = level[j]
		regressed[i] = reject[j]
	}
	for i := range out.Metrics {
		m, d := &out.Metrics[i], details[i]
		lo, hi := d.est.interval(d.level)
		m.CILow, m.CIHigh = math.Exp(lo), math.Exp(hi)
		if m.Gated {
			m.Status = status(lo, hi, d.c, d.key.worseSign(), regressed[i])
		} else {
			m.Status = status(lo, hi, d.c, d.key.worseSign(), d.key.worseSign()*pick(d.key, lo, hi) > d.c)
		}
	}
	out.Verdict = verdict(out.Metrics)
	return details, nil
}

// pick returns the interval bound nearest the worse direction's tolerance:
// the lower bound for latency, the upper bound for throughput.
func pick(k metricKey, lo, hi float64) float64 {
	if k.worseSign() > 0 {
		return lo
	}
	return hi
}

// status reads a metric's status off its interval [lo, hi] of the log ratio,
// c = log(1+tolerance), sign = worseSign. regressed is the test's decision
// (Holm for gated metrics), which agrees with the interval by construction.
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
	default:
		return Inconclusive
	}
}

// verdict combines the gated statuses: any REGRESSED fails; any INCONCLUSIVE
// (with none regressed) leaves the gate undecided; otherwise it passes.
func verdict(ms []MetricResult) Verdict {
	v := Pass
	for _, m := range ms {
		if !m.Gated {
			continue
		}
		switch m.Status {
		case Regressed:
			return Regression
		case Inconclusive:
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
