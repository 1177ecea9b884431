package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// TextWidth is the width the default terminal table and the headline
// above it keep within: --wide lifts it.
const TextWidth = 100

// The compact table is benchstat's shape: one row a metric under a line per
// workload and operation, one unit a row (both sides' figures in it), each
// side's figure with the coefficient of variation of its per-trial values
// ("cv 9%": "±" is kept for intervals), the change with its interval, the
// status spelled out and, on the rows the verdict reads, the tolerance it
// holds them to. Nothing in it is a symbol benchstat users would read
// otherwise ("~" there means "not significant").

// compactRow is one metric's cells in the compact table; a side's figure
// and its spread, and the change and its interval, are cells of their own
// so that figures align on their last digit and intervals on their bracket.
type compactRow struct {
	heading               string // the workload and operation the row sits under
	name, unit            string
	baseline, baseSpread  string
	candidate, candSpread string
	change, interval      string
	status, gateLabel     string
}

// compactCells formats m for the compact table.
func compactCells(m compare.MetricResult) compactRow {
	scale, unit := rowScale(m)
	// One count of decimals a row, three significant digits of its larger figure.
	decimals := 0
	if top := math.Max(math.Abs(m.Baseline), math.Abs(m.Candidate)) / scale; finite(top) && top > 0 {
		decimals = max(0, 2-int(math.Floor(math.Log10(top))))
	}
	r := compactRow{heading: strings.TrimSuffix(rowName(m), " "+m.Metric), name: m.Metric, unit: unit, status: shownStatus(m)}
	r.baseline, r.baseSpread = sideCell(m.Baseline, m.BaselineBelow, m.BaselineValues, scale, decimals)
	r.candidate, r.candSpread = sideCell(m.Candidate, m.CandidateBelow, m.CandidateValues, scale, decimals)
	r.change, r.interval = changeCell(m)
	if m.Gated {
		r.gateLabel = cmp.Or(tolerance(m), "gate")
	}
	return r
}

// rowScale picks one unit for a row's figures from the larger side's
// magnitude (latencies µs, ms or s; sizes B, KiB or MiB) and returns the
// divisor into it: "997 µs" and "1 ms" never meet in one row.
func rowScale(m compare.MetricResult) (float64, string) {
	v := math.Max(math.Abs(m.Baseline), math.Abs(m.Candidate))
	if !finite(v) {
		v = 0
	}
	switch m.Unit {
	case metric.Micros:
		switch r := round(v, 3); {
		case r >= 1e6:
			return 1e6, "s"
		case r >= 1e3:
			return 1e3, "ms"
		}
		return 1, "µs"
	case metric.Bytes:
		switch {
		case v >= 1<<20:
			return 1 << 20, "MiB"
		case v >= 1<<10:
			return 1 << 10, "KiB"
		}
		return 1, "B"
	}
	return 1, m.Unit
}

// sideCell formats one side's figure in the row's unit and decimals, and
// the spread of its per-trial values ("cv 1%", "" with fewer than two); a
// figure only known to lie below a bound reads "< 1.00".
func sideCell(v float64, below bool, values []float64, scale float64, decimals int) (figure, spreadCell string) {
	if !finite(v) {
		return "n/a", ""
	}
	figure = strconv.FormatFloat(v/scale, 'f', decimals, 64)
	if below {
		return "< " + figure, ""
	}
	if cv, ok := spread(values); ok {
		spreadCell = fmt.Sprintf("cv %.0f%%", 100*cv)
	}
	return figure, spreadCell
}

// spread is the coefficient of variation of the per-trial values (their
// sample standard deviation over their mean); false with fewer than two.
func spread(values []float64) (float64, bool) {
	if len(values) < 2 {
		return 0, false
	}
	var sum float64
	for _, v := range values {
		sum += v
	}
	mean := sum / float64(len(values))
	if mean == 0 || !finite(mean) {
		return 0, false
	}
	var ss float64
	for _, v := range values {
		ss += (v - mean) * (v - mean)
	}
	cv := math.Sqrt(ss/float64(len(values)-1)) / math.Abs(mean)
	return cv, finite(cv)
}

// changeCell is the change in percent and its interval, "+7.0%" and
// "[+3.0, +11.0]", to two decimals when the interval lies within ±1%
// (throughput often moves by 0.1%) and to none from 100% on ("+108");
// no interval when there is none.
func changeCell(m compare.MetricResult) (change, interval string) {
	if !finite(m.Ratio) {
		return "n/a", ""
	}
	digits := 1
	if hasCI(m) && m.CILow > 0.99 && m.CIHigh < 1.01 {
		digits = 2
	}
	pct := func(r float64, digits int) string {
		v := (r - 1) * 100
		if math.Abs(v) >= 99.95 {
			digits = 0
		}
		if p := math.Pow(10, float64(digits)); math.Round(v*p) == 0 {
			v = 0 // no "-0.0"
		}
		return fmt.Sprintf("%+.*f", digits, v)
	}
	if !hasCI(m) {
		return pct(m.Ratio, digits) + "%", ""
	}
	return pct(m.Ratio, digits) + "%", fmt.Sprintf("[%s, %s]", pct(m.CILow, digits), pct(m.CIHigh, digits))
}

// writeCompactTable writes c's metrics as the compact table: a header, then
// each workload and operation's line and its rows, within TextWidth
// columns (the spreads go when they would not fit). A descriptive
// comparison has no status or gate column (every row would say
// DESCRIPTIVE; the verdict line says it once).
func writeCompactTable(w io.Writer, c *compare.Comparison) error {
	rows := make([]compactRow, len(c.Metrics))
	first := map[string]int{}
	for i, m := range c.Metrics {
		rows[i] = compactCells(m)
		if _, ok := first[rows[i].heading]; !ok {
			first[rows[i].heading] = i
		}
	}
	// Each heading once: the rows over all workloads come cost by cost
	// (cpu over all, then over the READ-heavy ones, ...), gathered here
	// under their heading.
	slices.SortStableFunc(rows, func(a, b compactRow) int { return cmp.Compare(first[a.heading], first[b.heading]) })
	out := layoutCompact(rows, c.Descriptive)
	if widest(out) > TextWidth {
		for i := range rows {
			rows[i].baseSpread, rows[i].candSpread = "", ""
		}
		out = layoutCompact(rows, c.Descriptive)
	}
	_, err := io.WriteString(w, out)
	return err
}

// widest is the widest line of s, in runes.
func widest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, utf8.RuneCountInString(l))
	}
	return n
}

// layoutCompact aligns the compact table's rows under their headings.
func layoutCompact(rows []compactRow, descriptive bool) string {
	head := compactRow{unit: "unit", baseline: "baseline", candidate: "candidate", change: "change", interval: "[CI]", status: "status", gateLabel: "gate"}
	width := func(f func(compactRow) string) int {
		n := 0
		for _, r := range rows {
			n = max(n, utf8.RuneCountInString(f(r)))
		}
		return n
	}
	const indent = "  "
	wName := width(func(r compactRow) string { return r.name }) + len(indent)
	wUnit := max(width(func(r compactRow) string { return r.unit }), len(head.unit))
	wBase, wBaseSpread := width(func(r compactRow) string { return r.baseline }), width(func(r compactRow) string { return r.baseSpread })
	wCand, wCandSpread := width(func(r compactRow) string { return r.candidate }), width(func(r compactRow) string { return r.candSpread })
	wChange, wInterval := width(func(r compactRow) string { return r.change }), width(func(r compactRow) string { return r.interval })
	wStatus := width(func(r compactRow) string { return r.status })
	// A side's figure and spread, or the change and its interval, read as one column under one heading.
	side := func(fig, spr string, wf, ws int) string {
		if ws == 0 {
			return pad(fig, wf, true)
		}
		return pad(fig, wf, true) + " " + pad(spr, ws, false)
	}
	wSide := func(wf, ws int) int {
		if ws == 0 {
			return wf
		}
		return wf + 1 + ws
	}
	wBaseCol := max(wSide(wBase, wBaseSpread), len(head.baseline))
	wCandCol := max(wSide(wCand, wCandSpread), len(head.candidate))
	wChange = max(wChange, len(head.change))
	wStatus = max(wStatus, len(head.status))
	line := func(name string, r compactRow, heading bool) string {
		base, cand, change := r.baseline, r.candidate, r.change
		switch {
		case !heading:
			base, cand = side(r.baseline, r.baseSpread, wBase, wBaseSpread), side(r.candidate, r.candSpread, wCand, wCandSpread)
			change = pad(r.change, wChange, true)
			if wInterval > 0 {
				change += " " + pad(r.interval, wInterval, false)
			}
		case wInterval > 0:
			change = pad(r.change, wChange, true) + " " + pad(r.interval, wInterval, false)
		}
		cells := []string{pad(name, wName, false), pad(r.unit, wUnit, false), pad(base, wBaseCol, false), pad(cand, wCandCol, false), change}
		if !descriptive {
			cells = append(cells, pad(r.status, wStatus, false), r.gateLabel)
		}
		return strings.TrimRight(strings.Join(cells, "  "), " ") + "\n"
	}
	var b strings.Builder
	b.WriteString(line("", head, true))
	prev := ""
	for i, r := range rows {
		if i == 0 || r.heading != prev {
			b.WriteString(r.heading + "\n")
			prev = r.heading
		}
		b.WriteString(line(indent+r.name, r, false))
	}
	return b.String()
}

// pad pads s with blanks to n runes, on the left when right-aligned.
func pad(s string, n int, right bool) string {
	fill := strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0))
	if right {
		return fill + s
	}
	return s + fill
}

// wrapText wraps every line of s longer than width at blanks, each
// continuation indented past the line's own indent and bullet ("  - "):
// the headline above the compact table keeps to its width.
func wrapText(s string, width int) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		nl := strings.HasSuffix(l, "\n")
		l = strings.TrimSuffix(l, "\n")
		b.WriteString(wrapLine(l, width))
		if nl {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// wrapLine wraps one line (see wrapText); a word longer than the width
// stays whole on its own line.
func wrapLine(l string, width int) string {
	if utf8.RuneCountInString(l) <= width {
		return l
	}
	lead := len(l) - len(strings.TrimLeft(l, " "))
	if strings.HasPrefix(l[lead:], "- ") {
		lead += 2
	}
	hang := strings.Repeat(" ", lead)
	var b strings.Builder
	cur := l[:lead]
	n := utf8.RuneCountInString(cur)
	first := true
	for _, word := range strings.Fields(l[lead:]) {
		wn := utf8.RuneCountInString(word)
		if !first && n+1+wn > width {
			b.WriteString(strings.TrimRight(cur, " ") + "\n")
			cur, n, first = hang, lead, true
		}
		if !first {
			cur += " "
			n++
		}
		cur += word
		n += wn
		first = false
	}
	b.WriteString(cur)
	return b.String()
}
