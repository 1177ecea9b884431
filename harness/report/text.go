package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/regress-hbase/regress/harness/compare"
)

var textHeader = []string{"workload", "op", "metric", "baseline", "candidate", "delta", "ratio [CI]", "pass bound", "regr. bound", "status", "p", "pairs", "ops/trial", "gate"}

// row is one metric's cells, in textHeader's order.
func row(m compare.MetricResult) []string {
	return []string{m.Workload, m.Op, m.Metric, baseValue(m), candValue(m),
		delta(m), ratio(m), passBound(m), regressionBound(m), status(m), pValue(m), fmt.Sprint(m.Pairs), opsPerTrial(m), gate(m)}
}

// firstScreenRows is the most rows the first screen lists of what the
// verdict rests on: with the verdict, what the run could see and where the
// reports are, it stays within a terminal's 24 lines.
const firstScreenRows = 13

// renderText writes the terminal report, every line within TextWidth
// columns but --wide's table: first what a reader came for (the verdict
// in plain words, the rows it rests on with their tolerances, why where
// something regressed, what the run could see, where the reports are and
// what to do next), then the table of every row (benchstat's shape, or
// every column with r.Wide), then the held rates, the server counts, what
// each class of rows could see, the notes (each text once), the warnings,
// the drawn trials' server events and the profiles of what regressed.
func renderText(w io.Writer, r Report) error {
	c := r.Comparison
	var b strings.Builder
	writeFirstScreen(&b, r)
	b.WriteString("\n")
	if r.Wide {
		if err := writeWideTable(&b, c); err != nil {
			return err
		}
	} else if err := writeCompactTable(&b, c); err != nil {
		return err
	}
	key := compactKey
	if r.Wide {
		key = wideKey
	}
	var tail bytes.Buffer
	if err := writeTextNotes(&tail, c, key); err != nil {
		return err
	}
	writeTimelinesText(&tail, r)
	writeProfilesSummary(&tail, r)
	b.WriteString(wrapText(tail.String(), TextWidth))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if r.Capacity == nil {
		return nil
	}
	// The section's lines too keep within the width.
	var sec bytes.Buffer
	if err := r.Capacity.Text(&sec); err != nil {
		return err
	}
	_, err := io.WriteString(w, wrapText(sec.String(), TextWidth))
	return err
}

// writeFirstScreen writes what the terminal shows above the table.
func writeFirstScreen(b *strings.Builder, r Report) {
	c := r.Comparison
	bs := verdictBasis(c)
	b.WriteString(wrapHang(verdictLine(c), TextWidth, "  ") + "\n")
	b.WriteString(wrapText("  "+contextLine(c)+"\n", TextWidth))
	// Under REGRESSION what regressed comes first, the rows left undecided
	// after it in a line; otherwise an undecided row is one of the rows.
	listed := slices.Concat(bs.Rows, bs.Undecided)
	if c.Verdict == compare.Regression {
		listed = bs.Rows
	}
	shown := listed[:min(len(listed), firstScreenRows)]
	if t := basisTable(c, shown); t != "" {
		b.WriteString("\n" + t)
	}
	var more []string
	for _, h := range bs.Held {
		more = append(more, heldRateLine(h))
	}
	if left := len(listed) - len(shown); left > 0 {
		more = append(more, rowList(fmt.Sprintf("and %s:", plural(left, "more row")), listed[len(shown):]))
	}
	if c.Verdict == compare.Regression && len(bs.Undecided) > 0 {
		more = append(more, rowList(fmt.Sprintf("undecided (INCONCLUSIVE, gated): %s:", plural(len(bs.Undecided), "row")), bs.Undecided))
	}
	if n := len(bs.Within); n > 0 && c.Verdict != compare.VerdictDescriptive {
		more = append(more, fmt.Sprintf("and %s, each within its tolerance (the table below)", plural(n, "more gated row")))
	}
	if regressed(c) {
		more = append(more, causeLines(r.vote())...)
	}
	if d := detectShort(c, TextWidth); d != "" {
		more = append(more, d)
	}
	if r.Dir != "" {
		more = append(more, fmt.Sprintf("reports in %s: vote.txt (for the vote mail), report.html, report.md, report.json", r.Dir))
	}
	more = append(more, "next: "+nextStep(c, r))
	for _, l := range more {
		b.WriteString(wrapHang(l, TextWidth, "  ") + "\n")
	}
}

// rowList names rows and their changes after a lead, in at most two
// lines: "undecided (INCONCLUSIVE, gated): 16 rows: workloada READ p95
// +43.5%, ... (the table below)".
func rowList(lead string, ms []compare.MetricResult) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		ch, _ := changeCell(m)
		names[i] = rowName(m) + " " + ch
	}
	return cutLine(lead+" "+strings.Join(names, ", "), 2, " ... (the table below)")
}

// wrapHang wraps one line at width, its continuations indented by hang.
func wrapHang(s string, width int, hang string) string {
	first, rest, ok := strings.Cut(wrapLine(s, width), "\n")
	if !ok {
		return first
	}
	rest = strings.Join(strings.Fields(strings.ReplaceAll(rest, "\n", " ")), " ")
	return first + "\n" + wrapLine(hang+rest, width)
}

// contextLine says what was compared and how, under the verdict: the
// sides when the verdict line does not name them, the suite, the pairs
// and the level each interval is read at.
func contextLine(c *compare.Comparison) string {
	if c.Verdict != compare.Pass && c.Verdict != compare.Regression {
		return fmt.Sprintf("candidate %s vs baseline %s; %s", c.Candidate.Name, c.Baseline.Name, runLine(c))
	}
	return runLine(c)
}

// runLine says how the trials ran and are read: the suite, the pairs, the
// level each interval is read at.
func runLine(c *compare.Comparison) string {
	var parts []string
	s := voteSuite(c)
	if c.Suite != "" {
		s = "suite " + strings.Replace(s, ", ", ": ", 1)
	}
	if c.Instances > 1 {
		s += fmt.Sprintf(", %d server instances a side (their offset inside the intervals)", c.Instances)
	}
	parts = append(parts, s)
	if !c.Descriptive && c.Alpha > 0 {
		a := fmt.Sprintf("alpha %.3g", c.Alpha)
		if c.Looks > 1 {
			a += fmt.Sprintf(" over %d looks", c.Looks)
			if c.Runs > 1 {
				a += fmt.Sprintf(" (%d runs pooled)", c.Runs)
			}
		}
		parts = append(parts, a)
		if c.LookAlpha > 0 {
			parts = append(parts, fmt.Sprintf("[CI] one-sided at %.3g", c.LookAlpha))
		}
	}
	return strings.Join(parts, "; ")
}

// nextStep says what to do with the verdict.
func nextStep(c *compare.Comparison, r Report) string {
	open := "report.html"
	if r.Dir != "" {
		open = filepath.Join(r.Dir, "report.html")
	}
	switch c.Verdict {
	case compare.Pass:
		return "paste vote.txt into the vote mail; " + open + " shows every trial of the rows above"
	case compare.Regression:
		if len(shownProfiles(r)) > 0 {
			return "open " + open + ": the regressed rows' trials and the differential profiles of what regressed"
		}
		return "open " + open + " for the regressed rows' trials"
	case compare.VerdictInconclusive:
		return "run more pairs (raise pairs.max in the suite, or run again: compare pools the runs) or hold the rows to wider tolerances"
	case compare.VerdictInvalid:
		return "fix what made the run invalid (above) and run again"
	case compare.VerdictDescriptive:
		return "to gate, compare measured trials (regress run, or the main command) instead of imported summaries"
	}
	return "open " + open
}

// basisTable lists rows the verdict rests on: each row's name, both
// sides' figures in one unit, the change with its interval, the tolerance
// the gate holds it to and the status; the figures go when the table would
// not fit TextWidth. "" when there is nothing to list.
func basisTable(c *compare.Comparison, ms []compare.MetricResult) string {
	if len(ms) == 0 {
		return ""
	}
	type cells struct{ name, figures, change, tol, status string }
	rows := []cells{{"rests on", "baseline -> candidate", "change [CI]", "gate", "status"}}
	if c.Descriptive {
		rows[0] = cells{"largest changes", "baseline -> candidate", "change", "", ""}
	}
	for _, m := range ms {
		scale, unit := rowScale(m)
		decimals := 0
		if top := math.Max(math.Abs(m.Baseline), math.Abs(m.Candidate)) / scale; finite(top) && top > 0 {
			decimals = max(0, 2-int(math.Floor(math.Log10(top))))
		}
		bf, _ := sideCell(m.Baseline, m.BaselineBelow, nil, scale, decimals)
		cf, _ := sideCell(m.Candidate, m.CandidateBelow, nil, scale, decimals)
		ch, iv := changeCell(m)
		r := cells{name: rowName(m), figures: bf + " -> " + cf + " " + unit, change: strings.TrimSpace(ch + " " + iv)}
		if !c.Descriptive {
			r.tol, r.status = tolerance(m), shownStatus(m)
		}
		rows = append(rows, r)
	}
	layout := func(withFigures bool) string {
		cols := []func(cells) string{
			func(r cells) string { return r.name },
			func(r cells) string { return r.figures },
			func(r cells) string { return r.change },
			func(r cells) string { return r.tol },
			func(r cells) string { return r.status },
		}
		if !withFigures {
			cols = append(cols[:1], cols[2:]...)
		}
		ws := make([]int, len(cols))
		for i, f := range cols {
			for _, r := range rows {
				ws[i] = max(ws[i], utf8.RuneCountInString(f(r)))
			}
		}
		var b strings.Builder
		for _, r := range rows {
			var parts []string
			for i, f := range cols {
				parts = append(parts, pad(f(r), ws[i], false))
			}
			b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
		}
		return b.String()
	}
	if t := layout(true); widest(t) <= TextWidth {
		return t
	}
	rows[0].figures = "base -> cand" // a shorter heading before the figures go
	if t := layout(true); widest(t) <= TextWidth {
		return t
	}
	return layout(false)
}

// cutLine wraps s at TextWidth (continuations indented by two) into at
// most n lines, ending with more when cut.
func cutLine(s string, n int, more string) string {
	if l := wrapHang(s, TextWidth, "  "); strings.Count(l, "\n") < n {
		return l
	}
	words := strings.Fields(s)
	for k := len(words) - 1; k > 0; k-- {
		cut := strings.TrimSuffix(strings.Join(words[:k], " "), ",") + more
		if l := wrapHang(cut, TextWidth, "  "); strings.Count(l, "\n") < n {
			return l
		}
	}
	return wrapHang(words[0]+more, TextWidth, "  ")
}

// writeTimelinesText lists what the drawn trials' servers did; where
// every line ends in the same source ("(from the servers' GC logs and
// logs)") the heading says it once.
func writeTimelinesText(b *bytes.Buffer, r Report) {
	lines := timelineLines(r.Timelines)
	if len(lines) == 0 {
		return
	}
	heading := timelinesHeading
	if i := strings.LastIndex(lines[0], " ("); i > 0 && strings.HasSuffix(lines[0], ")") {
		source := lines[0][i:]
		if !slices.ContainsFunc(lines, func(l string) bool { return !strings.HasSuffix(l, source) }) {
			for k := range lines {
				lines[k] = strings.TrimSuffix(lines[k], source)
			}
			heading = strings.TrimSuffix(heading, ":") + "," + strings.TrimSuffix(strings.TrimPrefix(source, " ("), ")") + ":"
		}
	}
	fmt.Fprintf(b, "\n%s\n", heading)
	for _, l := range lines {
		fmt.Fprintf(b, "  - %s\n", l)
	}
}

// writeWideTable writes every column of the comparison's metrics.
func writeWideTable(w io.Writer, c *compare.Comparison) error {
	var tbl bytes.Buffer
	t := tablewriter.NewTable(&tbl,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleASCII),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenRows: tw.Off, BetweenColumns: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	t.Header(textHeader)
	for _, m := range c.Metrics {
		if err := t.Append(row(m)); err != nil {
			return fmt.Errorf("report: text table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("report: text table: %w", err)
	}
	// The table pads every cell, the last one included; trailing blanks only clutter diffs.
	for _, line := range strings.SplitAfter(tbl.String(), "\n") {
		if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n"))); err != nil {
			return err
		}
	}
	return nil
}

// writeNotes prints, as bullets (Markdown's), the held-rate checks, the
// server counts, what the run could detect, the gate's notes, the wide
// table's reading key and the warnings.
func writeNotes(w io.Writer, c *compare.Comparison, bullet string) error {
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	if len(c.HeldRate) > 0 {
		p("\n")
		for _, h := range c.HeldRate {
			p("%s%s\n", bullet, heldRateLine(h))
		}
	}
	if lines := serverCountLines(c); len(lines) > 0 {
		p("\n%s\n", serverCountsHeading)
		for _, l := range lines {
			p("%s%s\n", bullet, l)
		}
	}
	if d := detectLine(c); d != "" {
		p("\n%s\n", d)
	}
	if notes := noteLines(c); len(notes) > 0 {
		p("\nnotes:\n")
		for _, n := range notes {
			p("%s%s\n", bullet, n)
		}
	}
	p("%s", wideKey(c))
	if len(c.Warnings) > 0 {
		p("\nwarnings:\n")
		for _, s := range c.Warnings {
			p("%s%s\n", bullet, s)
		}
	}
	return err
}

// writeTextNotes prints under the terminal's table, each note and list
// grouped rather than one a workload: the held-rate checks, the server
// counts (a table), what each class of rows could see (a table), the
// notes (what the rows over several workloads are in one line), the
// table's reading key and the warnings.
func writeTextNotes(w io.Writer, c *compare.Comparison, key func(*compare.Comparison) string) error {
	const bullet = "  - "
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	if lines := heldRateLines(c); len(lines) > 0 {
		p("\n")
		for _, l := range lines {
			p("%s%s\n", bullet, l)
		}
	}
	if t := serverCountsTable(c); t != "" {
		p("\n%s", t)
	}
	if t := detectTable(c); t != "" {
		p("\n%s", t)
	}
	var notes, pooled []string
	for _, g := range groupedNotes(c) {
		if g.Kind == notePrimary {
			for _, a := range g.At {
				if !slices.Contains(pooled, a.row) {
					pooled = append(pooled, a.row)
				}
			}
			continue
		}
		notes = append(notes, g.String())
	}
	if len(pooled) > 0 {
		notes = append(notes, strings.Join(pooled, ", ")+": rows over several workloads, the inverse-variance weighted mean of the rows that gate them; which rows each pools and how it is tested: report.md")
	}
	if len(notes) > 0 {
		p("\nnotes:\n")
		for _, n := range notes {
			p("%s%s\n", bullet, n)
		}
	}
	p("%s", key(c))
	if len(c.Warnings) > 0 {
		p("\nwarnings:\n")
		for _, s := range c.Warnings {
			p("%s%s\n", bullet, s)
		}
	}
	return err
}

// wideKey explains the wide table's columns.
func wideKey(c *compare.Comparison) string {
	k := "\nratio = candidate/baseline (geometric means); for latency above 1 is slower, for throughput below 1 is slower.\n"
	if c.Descriptive {
		return k + "All figures are " + DescriptiveNote + ": imported summaries have no trials to test.\n"
	}
	return k + fmt.Sprintf("[CI]: each end is a one-sided bound at alpha/looks = %.3g; delta is the change in percent, the status says whether it is within tolerance.\n", c.LookAlpha) +
		"pass bound: the worse end of [CI]; a gated metric lets the gate PASS when it is within tolerance (NOT WORSE, UNCHANGED or IMPROVED).\n" +
		"regr. bound: the better end at the metric's Holm level; REGRESSED when it lies beyond tolerance. p is one-sided (regression), Holm-adjusted when gated.\n" +
		fmt.Sprintf("ops/trial: the fewest operations of that type in a trial; a percentile gates only with %d samples beyond it in every trial.\n", compare.MinTailSamples)
}

// compactKey explains the compact table's columns.
func compactKey(c *compare.Comparison) string {
	k := "\nbaseline, candidate: geometric means of the trials"
	if c.Descriptive {
		return k + "' summaries; change: candidate vs baseline (imported summaries have no trials to test).\n"
	}
	return k + fmt.Sprintf(", each with cv, the coefficient of variation of its per-trial values; change: candidate vs baseline, [CI] each end a one-sided bound at alpha/looks = %.3g; status: UNCHANGED, NOT WORSE and IMPROVED are within tolerance (\"within ±5%%\": UNCHANGED, the interval leaving out no change but inside the tolerance); gate: the tolerance the verdict holds the row to, blank where it does not read the row. --wide adds the ratio, the bounds the gate reads, p, pairs and operations per trial.\n", c.LookAlpha)
}
