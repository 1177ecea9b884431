package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// What a verdict rests on, worked out once and shown the same in every
// format that leads with it: the terminal report's first screen, vote.txt
// and the HTML page's first screen. The formats differ in how many rows
// they have room for, never in which rows come first.

// basis is what a comparison's verdict rests on.
type basis struct {
	// Rows decided the verdict, the most telling first: under REGRESSION
	// the rows that REGRESSED, latency first; under INCONCLUSIVE the rows
	// that hold the PASS back, nearest their tolerance first; under PASS
	// the rows over several workloads (those that hold the PASS first),
	// or, in a suite with none, the gated rows nearest their tolerance;
	// under DESCRIPTIVE the largest changes.
	Rows []compare.MetricResult
	// Held are the held-rate checks that REGRESSED or hold the PASS back.
	Held []compare.HeldRate
	// NotCompared are the gated metrics no row compares (INCONCLUSIVE).
	NotCompared []string
	// Undecided are the gated rows left INCONCLUSIVE that Rows does not
	// hold: rows that only detect (they never hold a PASS back), or under
	// REGRESSION every undecided row. No format leaves them out unsaid.
	Undecided []compare.MetricResult
	// Within are the other gated rows, each within its tolerance.
	Within []compare.MetricResult
}

// verdictBasis works out what c's verdict rests on.
func verdictBasis(c *compare.Comparison) basis {
	var b basis
	var gated []compare.MetricResult
	for _, m := range c.Metrics {
		if m.Gated {
			gated = append(gated, m)
		}
	}
	undecided := func(m compare.MetricResult) bool {
		return m.Status == compare.Inconclusive
	}
	split := func(in func(compare.MetricResult) bool) {
		for _, m := range gated {
			switch {
			case in(m):
				b.Rows = append(b.Rows, m)
			case undecided(m):
				b.Undecided = append(b.Undecided, m)
			default:
				b.Within = append(b.Within, m)
			}
		}
	}
	switch c.Verdict {
	case compare.Regression:
		split(func(m compare.MetricResult) bool { return m.Status == compare.Regressed })
		// Latency first (what users feel), a row over several workloads
		// before one workload's, then the largest.
		slices.SortStableFunc(b.Rows, func(x, y compare.MetricResult) int {
			return cmp.Or(cmp.Compare(costRank(x), costRank(y)), boolFirst(x.Primary, y.Primary), cmp.Compare(math.Abs(logRatio(y)), math.Abs(logRatio(x))))
		})
		for _, h := range c.HeldRate {
			if h.Status == compare.Regressed {
				b.Held = append(b.Held, h)
			}
		}
	case compare.VerdictInconclusive:
		split(func(m compare.MetricResult) bool { return !passes(m.Status) && !m.DetectsOnly() })
		slices.SortStableFunc(b.Rows, byTolerance)
		for _, h := range c.HeldRate {
			if h.Gated && !passes(h.Status) {
				b.Held = append(b.Held, h)
			}
		}
		b.NotCompared = c.NotCompared
	case compare.Pass:
		if slices.ContainsFunc(gated, func(m compare.MetricResult) bool { return m.Primary }) {
			split(func(m compare.MetricResult) bool { return m.Primary && passes(m.Status) })
			// The rows that hold the PASS, then those that only detect.
			slices.SortStableFunc(b.Rows, func(x, y compare.MetricResult) int { return boolFirst(!x.DetectsOnly(), !y.DetectsOnly()) })
		} else {
			split(func(m compare.MetricResult) bool { return passes(m.Status) && !m.DetectsOnly() })
			slices.SortStableFunc(b.Rows, byTolerance)
		}
	case compare.VerdictDescriptive:
		rows := gated
		if len(rows) == 0 {
			rows = c.Metrics
		}
		for _, m := range rows {
			if finite(m.Ratio) && m.Ratio > 0 {
				b.Rows = append(b.Rows, m)
			}
		}
		slices.SortStableFunc(b.Rows, func(x, y compare.MetricResult) int {
			return cmp.Or(cmp.Compare(costRank(x), costRank(y)), cmp.Compare(math.Abs(logRatio(y)), math.Abs(logRatio(x))))
		})
	}
	slices.SortStableFunc(b.Undecided, byTolerance)
	return b
}

// passes reports whether a status lets the gate pass (compare's rule).
func passes(s compare.Status) bool {
	return s == compare.Unchanged || s == compare.NotWorse || s == compare.Improved
}

// logRatio is m's change as a log ratio, 0 when it has none.
func logRatio(m compare.MetricResult) float64 {
	if !finite(m.Ratio) || m.Ratio <= 0 {
		return 0
	}
	return math.Log(m.Ratio)
}

// toleranceUsed is how much of its tolerance m's worse end uses: 1 at the
// tolerance, above it beyond; NaN without an interval or a tolerance.
func toleranceUsed(m compare.MetricResult) float64 {
	if !hasCI(m) || m.Tolerance <= 0 || !finite(m.PassBound) || m.PassBound <= 0 {
		return math.NaN()
	}
	w := math.Log(m.PassBound)
	if metric.Of(m.Metric).Worse == metric.WorseLower {
		w = -w
	}
	return w / math.Log1p(m.Tolerance)
}

// byTolerance orders the rows nearest (or furthest beyond) their tolerance first.
func byTolerance(x, y compare.MetricResult) int {
	ux, uy := toleranceUsed(x), toleranceUsed(y)
	if math.IsNaN(ux) {
		ux = math.Inf(1) // no interval: undecided, shown first
	}
	if math.IsNaN(uy) {
		uy = math.Inf(1)
	}
	return cmp.Compare(uy, ux)
}

// rowName names a row where its workload is not a heading: "workloade SCAN
// p95", "all workloads cpu_per_op", "all workloads reads p50"; a row over
// the READ-heavy workloads is of their READs, so the operation is not
// named twice ("READ-heavy workloads cpu_per_op").
func rowName(m compare.MetricResult) string {
	op := strings.TrimPrefix(m.Op, compare.OpAll)
	if m.Workload == compare.HeavyWorkloads(m.Op) {
		op = ""
	}
	return strings.Join(strings.Fields(m.Workload+" "+op+" "+m.Metric), " ")
}

// tolerance prints a row's tolerance as the band it is: "±5%"; "" without one.
func tolerance(m compare.MetricResult) string {
	if m.Tolerance <= 0 || !finite(m.Tolerance) {
		return ""
	}
	return "±" + sig(100*m.Tolerance, 3) + "%"
}

// shownStatus is a row's status as the tables print it. An UNCHANGED row
// whose interval leaves out no change reads "within ±5%" (its tolerance):
// it moved, but by less than the suite counts as a change, and a bare
// UNCHANGED beside [-15.9, -4.3] reads as a contradiction. A descriptive
// row reads DESCRIPTIVE (what that means is said once, not in each row).
func shownStatus(m compare.MetricResult) string {
	if m.Status == compare.Unchanged && hasCI(m) && (m.CILow > 1 || m.CIHigh < 1) && tolerance(m) != "" {
		return "within " + tolerance(m)
	}
	return string(m.Status)
}

// verdictLine says the verdict in plain words, the same in every format:
// what it is, of which build against which, and on how many rows it rests.
func verdictLine(c *compare.Comparison) string {
	b := verdictBasis(c)
	cand, base := c.Candidate.Name, c.Baseline.Name
	switch c.Verdict {
	case compare.Pass:
		s := fmt.Sprintf("PASS: %s is no worse than %s within every tolerance the PASS rests on; nothing regressed", cand, base)
		switch n := len(b.Undecided); {
		case n == 1:
			s += " (1 row that only detects is undecided)"
		case n > 1:
			s += fmt.Sprintf(" (%d rows that only detect are undecided)", n)
		}
		return s
	case compare.Regression:
		n := len(b.Rows) + len(b.Held)
		return fmt.Sprintf("REGRESSION: %s is worse than %s beyond tolerance in %s", cand, base, plural(n, "row"))
	case compare.VerdictInconclusive:
		if len(c.NotCompared) > 0 {
			return "INCONCLUSIVE: gated but not compared: " + strings.Join(c.NotCompared, "; ")
		}
		n := len(b.Rows) + len(b.Held)
		return fmt.Sprintf("INCONCLUSIVE: nothing regressed, but %s could not be shown within tolerance; run more pairs", plural(n, "row"))
	case compare.VerdictInvalid:
		return "INVALID: " + c.Invalid
	case compare.VerdictDescriptive:
		return "DESCRIPTIVE: ratios only (" + DescriptiveNote + "); no verdict"
	}
	return string(c.Verdict)
}

// plural is "1 row", "2 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// detectClass is what a run could see in one class of rows: the smallest
// change (a fraction, in the worse direction) a row over several workloads
// would have flagged with power 0.8, and the range over one workload's rows.
type detectClass struct {
	Metric string
	// Pooled is the smallest over the rows over several workloads (0: none).
	Pooled float64
	// Least and Most span one workload's rows (0: none); MostAt names the
	// least sensitive of them ("workloade SCAN").
	Least, Most float64
	MostAt      string
	// Sign is the worse direction's: "+", or "-" for throughput.
	Sign string
}

// detectClasses are the gated rows' detectable changes by metric, latency first.
func detectClasses(c *compare.Comparison) []detectClass {
	by := map[string]*detectClass{}
	var order []string
	for _, m := range c.Metrics {
		if !m.Gated || m.Detectable <= 0 || !finite(m.Detectable) {
			continue
		}
		d := by[m.Metric]
		if d == nil {
			d = &detectClass{Metric: m.Metric, Sign: "+"}
			if metric.Of(m.Metric).Worse == metric.WorseLower {
				d.Sign = "-"
			}
			by[m.Metric] = d
			order = append(order, m.Metric)
		}
		if m.Primary {
			if d.Pooled == 0 || m.Detectable < d.Pooled {
				d.Pooled = m.Detectable
			}
			continue
		}
		if d.Least == 0 || m.Detectable < d.Least {
			d.Least = m.Detectable
		}
		if m.Detectable > d.Most {
			d.Most, d.MostAt = m.Detectable, strings.TrimSuffix(rowName(m), " "+m.Metric)
		}
	}
	slices.SortStableFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(costRank(compare.MetricResult{Metric: a}), costRank(compare.MetricResult{Metric: b})), cmp.Compare(metric.Rank(a), metric.Rank(b)))
	})
	out := make([]detectClass, 0, len(order))
	for _, name := range order {
		out = append(out, *by[name])
	}
	return out
}

// span prints a class's range from its most to its least sensitive row:
// "+5% to +26%", "+5%" when they round alike.
func (d detectClass) span() string {
	lo, hi := d.Least, d.Most
	if d.Pooled > 0 {
		lo = min(d.Pooled, cmp.Or(lo, d.Pooled))
		hi = max(hi, d.Pooled)
	}
	a, b := fmt.Sprintf("%s%.0f%%", d.Sign, 100*lo), fmt.Sprintf("%s%.0f%%", d.Sign, 100*hi)
	if a == b {
		return a
	}
	return a + " to " + b
}

// costClass merges the servers' costs into one class for a line with room
// for one ("cost"), their rows' figures pooled.
func costClass(ds []detectClass) []detectClass {
	var out []detectClass
	merged := detectClass{Metric: "cost", Sign: "+"}
	found := false
	for _, d := range ds {
		if metric.Of(d.Metric).Scope != metric.Server {
			out = append(out, d)
			continue
		}
		found = true
		if d.Pooled > 0 && (merged.Pooled == 0 || d.Pooled < merged.Pooled) {
			merged.Pooled = d.Pooled
		}
		if d.Least > 0 && (merged.Least == 0 || d.Least < merged.Least) {
			merged.Least = d.Least
		}
		merged.Most = max(merged.Most, d.Most)
	}
	if found {
		out = append(out, merged)
	}
	return out
}

// detectShort is what the run could see in one line of at most width
// columns: each class's range ("could see (power 0.8): p50 +5% to +26%,
// ..., cost +5% to +63%"), each class's smallest alone when the ranges do
// not fit; "" when nothing was estimated.
func detectShort(c *compare.Comparison, width int) string {
	ds := costClass(detectClasses(c))
	if len(ds) == 0 {
		return ""
	}
	const lead = "could see (power 0.8): "
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Metric + " " + d.span()
	}
	if s := lead + strings.Join(parts, ", "); len([]rune(s)) <= width {
		return s
	}
	for i, d := range ds {
		least := d.Least
		if d.Pooled > 0 && (least == 0 || d.Pooled < least) {
			least = d.Pooled
		}
		parts[i] = fmt.Sprintf("%s %s%.0f%%", d.Metric, d.Sign, 100*least)
	}
	return lead + strings.Join(parts, ", ")
}

// detectTable is what each class of gated rows could see, for the
// terminal: a row per metric with the smallest change a row over several
// workloads would have flagged (power 0.8), the range over one workload's
// rows and the least sensitive of those; "" when nothing was estimated.
// Every row's own figure is in report.md and report.json.
func detectTable(c *compare.Comparison) string {
	ds := detectClasses(c)
	if len(ds) == 0 {
		return ""
	}
	rows := [][]string{{"  metric", "pooled", "a workload", "least sensitive"}}
	for _, d := range ds {
		r := []string{"  " + d.Metric, "-", "-", "-"}
		if d.Pooled > 0 {
			r[1] = fmt.Sprintf("%s%.0f%%", d.Sign, 100*d.Pooled)
		}
		if d.Least > 0 {
			r[2] = (detectClass{Least: d.Least, Most: d.Most, Sign: d.Sign}).span()
			r[3] = d.MostAt
		}
		rows = append(rows, r)
	}
	return "could see (power 0.8): the smallest change each class of gated rows would have flagged\n" +
		alignColumns(rows, 4) + "  every row's figure: report.md, report.json\n"
}
