package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

var textHeader = []string{"workload", "op", "metric", "baseline", "candidate", "delta", "ratio [CI]", "status", "p", "pairs", "gate"}

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
		row := []string{m.Workload, m.Op, m.Metric, value(m.Baseline, m.Unit), value(m.Candidate, m.Unit),
			delta(m), ratio(m), status(m), pValue(m), fmt.Sprint(m.Pairs), gate(m)}
		if err := t.Append(row); err != nil {
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
	return writeNotes(w, c.Warnings, c.Descriptive, "")
}

// writeNotes prints the warnings and the reading key under a table.
func writeNotes(w io.Writer, warnings []string, descriptive bool, bullet string) error {
	if bullet == "" {
		bullet = "  - "
	}
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	p("\nratio = candidate/baseline (geometric means); for latency above 1 is slower, for throughput below 1 is slower.\n")
	if descriptive {
		p("All figures are %s: imported summaries have no trials to test.\n", DescriptiveNote)
	} else {
		p("[CI] is the confidence interval of the ratio; \"~\" means no change beyond tolerance; p is one-sided (regression), Holm-adjusted when gated.\n")
	}
	if len(warnings) > 0 {
		p("\nwarnings:\n")
		for _, s := range warnings {
			p("%s%s\n", bullet, s)
		}
	}
	return err
}
