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

// renderText writes a benchstat-like terminal table.
func renderText(w io.Writer, r Report) error {
	c := r.Comparison
	if _, err := fmt.Fprintf(w, "regress: %s\nverdict: %s\n\n", headline(c), verdictLine(c)); err != nil {
		return err
	}
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
	if err := writeNotes(w, c, ""); err != nil {
		return err
	}
	if lines := timelineLines(r.Timelines); len(lines) > 0 {
		if _, err := fmt.Fprintf(w, "\n%s\n", timelinesHeading); err != nil {
			return err
		}
		for _, l := range lines {
			if _, err := fmt.Fprintf(w, "  - %s\n", l); err != nil {
				return err
			}
		}
	}
	if err := writeProfilesText(w, r, "  - "); err != nil {
		return err
	}
	if r.Capacity == nil {
		return nil
	}
	return r.Capacity.Text(w)
}

// writeNotes prints the held-rate checks, the gate's notes, the reading key
// and the warnings under a table.
func writeNotes(w io.Writer, c *compare.Comparison, bullet string) error {
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
	p("\nratio = candidate/baseline (geometric means); for latency above 1 is slower, for throughput below 1 is slower.\n")
	if c.Descriptive {
		p("All figures are %s: imported summaries have no trials to test.\n", DescriptiveNote)
	} else {
		p("[CI]: each end is a one-sided bound at alpha/looks = %.3g; \"~\" means UNCHANGED (the whole CI within tolerance).\n", c.LookAlpha)
		p("pass bound: the worse end of [CI]; a gated metric lets the gate PASS when it is within tolerance (NOT WORSE, UNCHANGED or IMPROVED).\n")
		p("regr. bound: the better end at the metric's Holm level; REGRESSED when it lies beyond tolerance. p is one-sided (regression), Holm-adjusted when gated.\n")
		p("ops/trial: the fewest operations of that type in a trial; a percentile gates only with %d samples beyond it in every trial.\n", compare.MinTailSamples)
	}
	if len(c.Warnings) > 0 {
		p("\nwarnings:\n")
		for _, s := range c.Warnings {
			p("%s%s\n", bullet, s)
		}
	}
	return err
}
