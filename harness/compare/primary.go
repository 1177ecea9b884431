package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// AllWorkloads is the workload of a primary row: a server cost over every
// workload that gates it.
const AllWorkloads = "all workloads"

// The primary figures. A per-request cost HBase ships (an object built on
// every RPC, one more comparison per cell) moves the servers' cost per
// operation in most workloads at once, by a few percent each. Each
// workload's own row is tested inside the gated family, whose Holm step
// needs its bound beyond tolerance at alpha over the family's size (about
// twenty rows in a suite that gates every workload's cost and median):
// a +5% cost with a 3% tolerance then reads INCONCLUSIVE with every
// interval shown above tolerance. The primary row of a cost asks the
// question the release asks, "did the servers' cost per operation grow
// beyond tolerance over the suite's workloads?", with the workload as a
// factor: the mean over workloads of each workload's mean log ratio,
// weighted by the inverse of its squared standard error, degrees of freedom
// by Welch-Satterthwaite. Under the null every workload's change is at most
// the tolerance, so any weighted mean of them is too. It is
// tested outside the Holm family at half the look's alpha, and gates: a
// cost confined to one workload (scans only) is still the per-workload
// rows' to find. At a change exactly at tolerance in every workload the
// primary row alone flags it with probability alpha; together with the
// family the verdict's rate stays near alpha because both read the same
// pairs (TestPrimaryCostFalseAlarmAtTolerance).

// decidePrimary tests the primary rows (Holm among them) at half the
// look's alpha and returns which regressed, by row, and the alpha left to
// the Holm family of the other gated metrics: the other half, or the whole
// when every primary row regressed (a graphical procedure, Bretz et al.
// 2009: the rejected node passes its alpha on). With no primary row the
// family has the whole. Either way the verdict's false alarm rate stays at
// most the look's alpha (TestPrimaryCostFalseAlarmAtTolerance).
func decidePrimary(details []detail, out *Comparison) (regressed map[int]bool, familyAlpha float64) {
	var rows []int
	var ps []float64
	for i, m := range out.Metrics {
		if m.costRow() {
			rows = append(rows, i)
			ps = append(ps, m.P)
		}
	}
	if len(rows) == 0 {
		return nil, out.LookAlpha
	}
	half := out.LookAlpha / 2
	adj, reject, level := holm(ps, half)
	regressed = map[int]bool{}
	all := true
	for j, i := range rows {
		out.Metrics[i].P = math.Min(1, adj[j]*2)
		details[i].level = level[j]
		regressed[i] = reject[j]
		all = all && reject[j]
	}
	if all {
		return regressed, out.LookAlpha
	}
	return regressed, half
}

// HeavyWorkloads is the workload of a primary row over the workloads whose
// operations are mostly op (YCSB's B, C and D for READ).
func HeavyWorkloads(op string) string { return op + "-heavy workloads" }

// DetectsOnly reports whether m is a row that can make the verdict
// REGRESSION but never holds a PASS back (nor asks for more pairs): one
// the suite says only detects (Config.DetectOnly), a
// primary row over the workloads made of one operation (HeavyWorkloads),
// or a latency row over one class of operations (OpClass). What a PASS
// promises, every workload's row and the cost rows over all of them say;
// these rows are there to see a change of one operation sooner.
func (m MetricResult) DetectsOnly() bool {
	return m.DetectOnly || m.Primary && (m.Workload != AllWorkloads || !metric.IsEfficiency(m.Metric))
}

// costRow reports whether m is a server cost's primary row: those are
// tested apart from the Holm family, at half the look's alpha
// (decidePrimary). A latency's class row joins the family instead: its
// pooled interval is narrow enough that Holm's step costs it little, and
// taking half the alpha from the family would cost every workload's own
// latency row power in suites that gate no cost (quick's A UPDATE p99 at
// twice its tolerance: REGRESSED 77% of seeded runs instead of 92%).
func (m MetricResult) costRow() bool { return m.Primary && metric.IsEfficiency(m.Metric) }

// The operation classes a latency primary row pools: what a user feels as
// "reads got slower" whichever workload carries them.
const (
	ClassReads  = "reads"  // READ
	ClassWrites = "writes" // UPDATE and INSERT
	ClassScans  = "scans"  // SCAN
)

// OpClass is the class of YCSB operation op ("" for one no class pools:
// READ-MODIFY-WRITE is a read and a write, timed as one).
func OpClass(op string) string {
	switch op {
	case "READ":
		return ClassReads
	case "UPDATE", "INSERT":
		return ClassWrites
	case "SCAN":
		return ClassScans
	}
	return ""
}

// latencyGroups are a latency metric's primary rows: for each operation
// class, the gated rows of that metric over the workloads that carry it,
// when two or more do. A wait on the Get path (a lock, a queue) moves READ
// in five core workloads by its full share; each workload's row is one of
// some forty in the Holm family and may stay undecided, the class's row,
// in the same family, reads them together.
func latencyGroups(out *Comparison, name string) []primaryGroup {
	byClass := map[string][]int{}
	for i, m := range out.Metrics {
		if m.Metric == name && m.Gated && !m.Primary {
			if c := OpClass(m.Op); c != "" {
				byClass[c] = append(byClass[c], i)
			}
		}
	}
	var gs []primaryGroup
	for _, c := range slices.Sorted(maps.Keys(byClass)) {
		rows := byClass[c]
		if len(rows) < 2 {
			continue
		}
		var ws []string
		for _, i := range rows {
			ws = append(ws, out.Metrics[i].Workload+" "+out.Metrics[i].Op)
		}
		gs = append(gs, primaryGroup{AllWorkloads, c, rows, fmt.Sprintf(
			"primary: %s's %s over every workload that gates it (%s), the inverse-variance weighted mean, tested in the Holm family with the workloads' rows; it can make the verdict REGRESSION, never hold a PASS back",
			c, name, strings.Join(ws, ", "))})
	}
	return gs
}

// primaryGroup is the workloads one primary row pools.
type primaryGroup struct {
	workload, op string
	rows         []int // the workloads' rows of the metric
	note         string
}

// primaryGroups are a server cost's primary rows: every workload that gates
// it, and, for each operation that makes heavyShare or more of the
// operations of two or more of them (but not of all), those workloads. A
// cost of one operation (the Get path) moves the workloads made of it by
// its full share and the others by less: over all six core workloads a
// Get cost of 5% of C's weighs about 3.5% and is caught one run in three,
// over B, C and D alone it weighs the whole 5% (docs/noise.md).
func primaryGroups(out *Comparison, name string, heavy map[string]string) []primaryGroup {
	var rows []int
	byOp := map[string][]int{}
	for i, m := range out.Metrics {
		if m.Metric == name && m.Gated && !m.Primary {
			rows = append(rows, i)
			if op := heavy[m.Workload]; op != "" {
				byOp[op] = append(byOp[op], i)
			}
		}
	}
	if len(rows) < 2 {
		return nil
	}
	gs := []primaryGroup{{AllWorkloads, OpAll, rows,
		"primary: the inverse-variance weighted mean over the workloads that gate it, tested outside the Holm family at half the look's alpha"}}
	for _, op := range slices.Sorted(maps.Keys(byOp)) {
		if sub := byOp[op]; len(sub) >= 2 && len(sub) < len(rows) {
			var ws []string
			for _, i := range sub {
				ws = append(ws, out.Metrics[i].Workload)
			}
			gs = append(gs, primaryGroup{HeavyWorkloads(op), op, sub, fmt.Sprintf(
				"primary: the inverse-variance weighted mean over the workloads whose operations are %.0f%% or more %s (%s), tested with the other primary rows outside the Holm family at half the look's alpha; it can make the verdict REGRESSION, never hold a PASS back",
				100*heavyShare, op, strings.Join(ws, ", "))})
		}
	}
	return gs
}

// addPrimary appends the primary rows (primaryGroups) of each server cost
// metric gated in two or more workloads and (latencyGroups) of each latency
// metric gated for one class of operations in two or more, with their
// details, and returns the details grown.
func addPrimary(r resolved, out *Comparison, details []detail, heavy map[string]string) []detail {
	for _, name := range metric.EfficiencyMetrics {
		for _, g := range primaryGroups(out, name, heavy) {
			details = addPrimaryRow(r, out, details, name, g)
		}
	}
	for _, name := range metric.LatencyMetrics {
		for _, g := range latencyGroups(out, name) {
			details = addPrimaryRow(r, out, details, name, g)
		}
	}
	return details
}

// addPrimaryRow appends group g's row of metric name and its detail.
func addPrimaryRow(r resolved, out *Comparison, details []detail, name string, g primaryGroup) []detail {
	rows := g.rows
	// Inverse-variance weights, each SE floored at the workloads'
	// median: a workload whose cost swings between pairs (scans: 37% a
	// pair in one A/A here, against 2-3% for the others) would
	// otherwise set the whole row's width, while weights from every
	// workload's own estimated SE are themselves noisy and made the
	// row flag a change exactly at tolerance in 7.7% of seeded runs
	// at alpha 5% (equal weights: 4.9%). With the floor the typical
	// workloads weigh the same and only a noisier one weighs less.
	floor := medianSE(details, rows)
	if !metric.IsEfficiency(name) {
		// A latency's workloads differ in how many operations of the
		// class they hold (A's writes are half its operations, B's a
		// twentieth), so their errors differ for a reason, not by chance:
		// a floor at the median would weigh B's 250 writes a trial as
		// A's 5000. The smallest error is the floor.
		floor = minSE(details, rows)
	}
	wt := make([]float64, len(rows))
	var sumW float64
	for j, i := range rows {
		se := max(details[i].est.SE, floor)
		wt[j] = 1 / (se * se)
		sumW += wt[j]
	}
	// A nested estimate's instance part is the run's offset between
	// JVMs, the same in every workload: it does not average out over
	// workloads, so it enters once (its weighted mean), not as f²·part.
	var mean, v, dfDen, logB, logC, inst, instDF float64
	n := math.MaxInt
	for j, i := range rows {
		e := details[i].est
		f := wt[j] / sumW
		mean += f * e.Mean
		se := max(e.SE, floor)
		pairs, df := se*se-e.InstVar, e.DF
		if e.Instances > 0 {
			df = float64(e.N - e.Instances)
			inst += f * e.InstVar
			instDF = max(instDF, e.InstDF)
		}
		a := f * f * max(pairs, 0)
		v += a
		if df > 0 {
			dfDen += a * a / df
		}
		n = min(n, e.N)
		logB += f * math.Log(out.Metrics[i].Baseline)
		logC += f * math.Log(out.Metrics[i].Candidate)
	}
	if inst > 0 && instDF > 0 {
		v += inst
		dfDen += inst * inst / instDF
	}
	df := float64(n - 1)
	if dfDen > 0 {
		df = v * v / dfDen
	}
	k := metricKey{g.workload, g.op, name}
	d := detail{key: k, est: estimate{Mean: mean, SE: math.Sqrt(v), DF: df, N: n},
		level: out.LookAlpha, c: math.Log1p(r.primaryTol[name])}
	details = append(details, d)
	pools := make([]string, 0, len(rows))
	for _, i := range rows {
		if w := out.Metrics[i].Workload; !slices.Contains(pools, w) {
			pools = append(pools, w)
		}
	}
	out.Metrics = append(out.Metrics, MetricResult{
		Workload: g.workload, Op: g.op, Metric: name, Unit: k.unit(),
		Baseline: math.Exp(logB), Candidate: math.Exp(logC), Ratio: math.Exp(mean),
		Tolerance: r.primaryTol[name], Gated: true, Primary: true, Pools: pools, Pairs: n,
		Note: g.note,
	})
	return details
}

// medianSE is the median of the rows' standard errors (the upper one of an
// even count), 1 when none is positive.
func medianSE(details []detail, rows []int) float64 {
	var ses []float64
	for _, i := range rows {
		if se := details[i].est.SE; se > 0 {
			ses = append(ses, se)
		}
	}
	if len(ses) == 0 {
		return 1
	}
	slices.Sort(ses)
	return ses[len(ses)/2]
}

// minSE is the smallest positive standard error of the rows, 1 when none is positive.
func minSE(details []detail, rows []int) float64 {
	m := math.Inf(1)
	for _, i := range rows {
		if se := details[i].est.SE; se > 0 {
			m = min(m, se)
		}
	}
	if math.IsInf(m, 1) {
		return 1
	}
	return m
}
