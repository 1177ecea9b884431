package history

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
)

// Formats are the history's formats, by --format name, with the file each
// is written to under the report directory: a table of report's kind, so
// history is rendered and written as the comparison's reports are.
var Formats = report.FormatTable[*History]{
	{Name: "text", Aliases: []string{"txt", "table"}, File: "history.txt", Write: WriteText},
	{Name: "csv", File: "history.csv", Write: WriteCSV},
	{Name: "json", File: "history.json", Write: WriteJSON},
	{Name: "html", File: "history.html", Write: WriteHTML},
}

// mark is a status's one-character mark in the text table.
func mark(s compare.Status) string {
	switch s {
	case compare.Regressed:
		return " R"
	case compare.Improved:
		return " I"
	case compare.Inconclusive:
		return " ?"
	case compare.NotWorse:
		return " ~"
	}
	return ""
}

// ShiftLine is one shift as a sentence: "workloadc READ/p95: shift at
// 2.6.2, +8.7% [+6.1%, +11.3%] (p 0.005)".
func ShiftLine(s Series, sh Shift) string {
	iv := "(interval unknown: too few releases to estimate the noise)"
	if sh.Interval {
		iv = fmt.Sprintf("[%s, %s]", pctChange(sh.Low), pctChange(sh.High))
	}
	return fmt.Sprintf("%s %s: shift at %s, %s %s (p %.3f)", s.Workload, s.Metric, sh.Release, pctChange(sh.Ratio), iv, sh.P)
}

// WriteText writes one table per workload (a row per release, a column per
// metric: the change against the reference and its status mark) and the
// shifts found.
// Names read from the store (suite, releases, workloads, metrics with
// their operation) print through report.Inert, notes through
// report.InertProse, as in the comparison's text report: a stored name
// cannot pass for a line of the history's own.
func WriteText(w io.Writer, h *History) error {
	var b strings.Builder
	fmt.Fprintf(&b, "history of suite %s: %d releases against reference %s\n", report.Inert(h.Suite), len(h.Releases), report.Inert(h.Reference))
	fmt.Fprintf(&b, "cells: change of the release against the reference (geometric mean over its pairs); marks: R regressed, I improved, ~ not worse, ? inconclusive (interval bounds one-sided at alpha %.2f), * a shift starts here\n", h.Alpha)
	for _, w := range workloadsOf(h) {
		ss := seriesOf(h, w)
		fmt.Fprintf(&b, "\n%s\n", report.Inert(w))
		tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		fmt.Fprint(tw, "release")
		for _, s := range ss {
			fmt.Fprintf(tw, "\t%s", report.Inert(s.Metric))
		}
		fmt.Fprintln(tw)
		for i, r := range h.Releases {
			fmt.Fprint(tw, report.Inert(r))
			for _, s := range ss {
				fmt.Fprintf(tw, "\t%s", cellText(s, i))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "\nshifts (E-divisive means, permutation test at alpha %.2f, %d permutations, at least %d releases a segment):\n", h.Alpha, h.Permutations, h.MinSize)
	n := 0
	for _, s := range h.Series {
		for _, sh := range s.Shifts {
			sh.Release = report.Inert(sh.Release)
			fmt.Fprintf(&b, "  %s\n", ShiftLine(Series{Workload: report.Inert(s.Workload), Metric: report.Inert(s.Metric)}, sh))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(&b, "  none found")
	}
	notes := map[string]bool{}
	for _, s := range h.Series {
		if s.Note != "" && !notes[s.Note] {
			notes[s.Note] = true
			fmt.Fprintf(&b, "  not searched: %s\n", report.InertProse(s.Note))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cellText(s Series, i int) string {
	p := s.Points[i]
	switch {
	case p.Reference:
		return "ref"
	case !p.HasRatio():
		return "-"
	}
	star := ""
	for _, sh := range s.Shifts {
		if sh.Index == i {
			star = "*"
		}
	}
	return star + pctChange(p.Ratio) + mark(p.Status)
}

func workloadsOf(h *History) []string {
	var out []string
	for _, s := range h.Series {
		if len(out) == 0 || out[len(out)-1] != s.Workload {
			out = append(out, s.Workload)
		}
	}
	return out
}

func seriesOf(h *History, w string) []Series {
	var out []Series
	for _, s := range h.Series {
		if s.Workload == w {
			out = append(out, s)
		}
	}
	return out
}

// WriteCSV writes one row per series and release, for dashboards.
func WriteCSV(w io.Writer, h *History) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"workload", "metric", "unit", "higher_is_worse", "tolerance", "release", "reference", "run_id", "pairs",
		"ratio", "ci_low", "ci_high", "status", "shift_starts", "shift_ratio", "shift_ci_low", "shift_ci_high", "shift_p", "note"})
	f := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	for _, s := range h.Series {
		for i, p := range s.Points {
			row := []string{s.Workload, s.Metric, s.Unit, strconv.FormatBool(s.HigherIsWorse), strconv.FormatFloat(s.Tolerance, 'f', -1, 64),
				p.Release, strconv.FormatBool(p.Reference), p.RunID, strconv.Itoa(p.Pairs), f(p.Ratio), f(p.Low), f(p.High), string(p.Status)}
			shift := []string{"false", "", "", "", ""}
			for _, sh := range s.Shifts {
				if sh.Index == i {
					shift = []string{"true", f(sh.Ratio), f(sh.Low), f(sh.High), strconv.FormatFloat(sh.P, 'f', 4, 64)}
				}
			}
			cw.Write(append(append(row, shift...), p.Note))
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the whole history.
func WriteJSON(w io.Writer, h *History) error {
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return fmt.Errorf("history: encode JSON: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
