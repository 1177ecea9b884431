package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

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

// renderText writes the terminal report: the compact table (benchstat's
// shape, within TextWidth columns, the headline above it wrapped to them)
// or, with r.Wide, every column of the comparison. The notes under either
// are one line each, for grep.
func renderText(w io.Writer, r Report) error {
	if r.Wide {
		return renderWideText(w, r)
	}
	c := r.Comparison
	var b bytes.Buffer
	head := headline(c)
	if c.Descriptive { // the verdict line says it: once above the table, never in a row
		head = strings.Replace(head, " ("+DescriptiveNote+")", "", 1)
	}
	fmt.Fprintf(&b, "regress: %s\nverdict: %s\n", head, verdictLine(c))
	for _, l := range regressedLines(c) {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, wrapText(b.String(), TextWidth)); err != nil {
		return err
	}
	if err := writeCompactTable(w, c); err != nil {
		return err
	}
	b.Reset()
	if err := writeNotesKey(&b, c, "", compactKey); err != nil {
		return err
	}
	writeTimelinesText(&b, r)
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	return writeTextTail(w, r)
}

// renderWideText writes the table of every column (--wide).
func renderWideText(w io.Writer, r Report) error {
	c := r.Comparison
	var b0 strings.Builder
	fmt.Fprintf(&b0, "regress: %s\nverdict: %s\n", headline(c), verdictLine(c))
	for _, l := range regressedLines(c) {
		b0.WriteString(l + "\n")
	}
	b0.WriteString("\n")
	if _, err := io.WriteString(w, b0.String()); err != nil {
		return err
	}
	if err := writeWideTable(w, c); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := writeNotes(&b, c, ""); err != nil {
		return err
	}
	writeTimelinesText(&b, r)
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	return writeTextTail(w, r)
}

// writeTimelinesText lists what the drawn trials' servers did.
func writeTimelinesText(b *bytes.Buffer, r Report) {
	if lines := timelineLines(r.Timelines); len(lines) > 0 {
		fmt.Fprintf(b, "\n%s\n", timelinesHeading)
		for _, l := range lines {
			fmt.Fprintf(b, "  - %s\n", l)
		}
	}
}

// writeTextTail writes the profiles and the capacity section, tables of their own.
func writeTextTail(w io.Writer, r Report) error {
	if err := writeProfilesText(w, r, "  - "); err != nil {
		return err
	}
	if r.Capacity == nil {
		return nil
	}
	return r.Capacity.Text(w)
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

// writeNotes prints the held-rate checks, the gate's notes, the reading key
// of the wide table and the warnings under a table.
func writeNotes(w io.Writer, c *compare.Comparison, bullet string) error {
	return writeNotesKey(w, c, bullet, wideKey)
}

// writeNotesKey is writeNotes with the reading key of one table's columns.
func writeNotesKey(w io.Writer, c *compare.Comparison, bullet string, key func(*compare.Comparison) string) error {
	if bullet == "" {
		bullet = "  - "
	}
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
	if notes := gateNotes(c); len(notes) > 0 {
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
	return k + fmt.Sprintf(", ± the coefficient of variation of the per-trial values; change: candidate vs baseline, [CI] each end a one-sided bound at alpha/looks = %.3g; status: UNCHANGED, NOT WORSE and IMPROVED are within tolerance; gate: the verdict reads the row. --wide adds the ratio, the bounds the gate reads, p, pairs and operations per trial.\n", c.LookAlpha)
}
