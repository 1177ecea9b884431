package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
)

// renderMarkdown writes the report for a vote thread or a CI step summary.
func renderMarkdown(w io.Writer, r Report) error {
	_, err := w.Write(markdown(r.Comparison, -1))
	return err
}

// markdown renders at most maxRows table rows (-1: all), so a step summary can be cut to fit.
func markdown(c *compare.Comparison, maxRows int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "### regress: %s\n\n", mdEscape(headline(c)))
	fmt.Fprintf(&b, "**Verdict: %s**\n\n", mdEscape(verdictLine(c)))
	b.WriteString("| workload | op | metric | baseline | candidate | delta | ratio [CI] | status | p | pairs | gate |\n")
	b.WriteString("|---|---|---|--:|--:|--:|---|---|--:|--:|---|\n")
	rows := c.Metrics
	if maxRows >= 0 && maxRows < len(rows) {
		rows = rows[:maxRows]
	}
	for _, m := range rows {
		st := status(m)
		if m.Status == compare.Regressed {
			st = "**" + st + "**"
		}
		cells := []string{m.Workload, m.Op, m.Metric, value(m.Baseline, m.Unit), value(m.Candidate, m.Unit),
			delta(m), ratio(m), st, pValue(m), fmt.Sprint(m.Pairs), gate(m)}
		for i := range cells {
			if i != 7 {
				cells[i] = mdEscape(cells[i])
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	if len(rows) < len(c.Metrics) {
		fmt.Fprintf(&b, "\n_%d more rows left out to fit the size limit; see the full report._\n", len(c.Metrics)-len(rows))
	}
	var notes bytes.Buffer
	_ = writeNotes(&notes, c.Warnings, c.Descriptive, "- ")
	b.Write(notes.Bytes())
	return b.Bytes()
}

// mdEscape keeps table cells intact: pipes split cells and newlines end rows.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "*", `\*`)
	s = strings.ReplaceAll(s, "_", `\_`)
	return strings.ReplaceAll(s, "\n", " ")
}

// StepSummaryLimit is GitHub's cap on one step's summary.
const StepSummaryLimit = 1 << 20

// AppendStepSummary appends the Markdown report to $GITHUB_STEP_SUMMARY when
// that variable is set (it does nothing otherwise), leaving rows out so the
// file stays under GitHub's 1 MiB limit.
func AppendStepSummary(r Report) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" || r.Comparison == nil {
		return nil
	}
	var used int64
	if st, err := os.Stat(path); err == nil {
		used = st.Size()
	}
	body := fitMarkdown(r.Comparison, StepSummaryLimit-used-1024)
	if body == nil {
		return fmt.Errorf("report: step summary %s already holds %d bytes; no room under GitHub's 1 MiB limit", path, used)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("report: open step summary: %w", err)
	}
	if _, err := f.Write(append(body, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("report: write step summary: %w", err)
	}
	return f.Close()
}

// fitMarkdown returns the largest Markdown rendering within budget bytes (nil if none fits).
func fitMarkdown(c *compare.Comparison, budget int64) []byte {
	if b := markdown(c, -1); int64(len(b)) <= budget {
		return b
	}
	lo, hi := 0, len(c.Metrics) // binary search on the number of rows kept
	var best []byte
	for lo <= hi {
		mid := (lo + hi) / 2
		b := markdown(c, mid)
		if int64(len(b)) <= budget {
			best, lo = b, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}
