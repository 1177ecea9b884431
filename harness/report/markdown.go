package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/inputfile"
)

// renderMarkdown writes the report for a vote thread or a CI step summary.
// It starts with the vote paragraph, fenced so it reads as the plain text a
// voter pastes, and adds the regressed workloads' differential profiles.
func renderMarkdown(w io.Writer, r Report) error {
	var vote bytes.Buffer
	if err := WriteVote(&vote, r.Comparison, r.vote()); err != nil {
		return err
	}
	// The fence outlasts any run of backticks in the paragraph, which would end it early.
	fence := strings.Repeat("`", max(3, longestRun(vote.String(), '`')+1))
	var b bytes.Buffer
	b.WriteString(fence + "text\n")
	b.Write(vote.Bytes())
	b.WriteString(fence + "\n\n")
	if v := r.vote(); v.Command != "" && ReproduceCut(r.Comparison, v) {
		f := strings.Repeat("`", max(3, longestRun(v.Command, '`')+1))
		fmt.Fprintf(&b, "Reproduce (the whole command, cut in the paragraph above):\n\n%ssh\n%s\n%s\n\n", f, v.Command, f)
	}
	b.Write(markdown(r.Comparison, -1))
	b.WriteString(shiftMarkdown(r))
	if lines := timelineLines(r.Timelines); len(lines) > 0 {
		fmt.Fprintf(&b, "\n%s\n\n", mdEscape(timelinesHeading))
		for _, l := range lines {
			fmt.Fprintf(&b, "- %s\n", mdEscape(l))
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	if err := writeProfilesMarkdown(w, r); err != nil {
		return err
	}
	if r.Capacity == nil {
		return nil
	}
	return r.Capacity.Markdown(w)
}

// markdown renders the vote-thread report: the verdict, the gated metrics
// (REGRESSED and IMPROVED first), the held-rate checks and the gate's notes,
// then every metric in a collapsed section. maxRows caps the rows of the full
// table (-1: all), so a step summary can be cut to fit.
func markdown(c *compare.Comparison, maxRows int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "### regress: %s\n\n", mdEscape(headline(c)))
	fmt.Fprintf(&b, "**Verdict: %s**\n\n", mdEscape(verdictLine(c)))
	if gated := gatedFirst(c.Metrics); len(gated) > 0 {
		b.WriteString("Gated metrics:\n\n")
		all := len(gated)
		if maxRows >= 0 && maxRows < all {
			gated = gated[:maxRows]
		}
		mdTable(&b, gated)
		if len(gated) < all {
			fmt.Fprintf(&b, "\n_%d more gated rows left out to fit the size limit; see the full report._\n", all-len(gated))
		}
	}
	if len(c.HeldRate) > 0 {
		b.WriteString("\n")
		for _, h := range c.HeldRate {
			fmt.Fprintf(&b, "- %s\n", mdEscape(heldRateLine(h)))
		}
	}
	if d := detectLine(c); d != "" {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(d))
	}
	if notes := noteLines(c); len(notes) > 0 {
		b.WriteString("\nNotes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", mdEscape(n))
		}
	}
	rows := c.Metrics
	if maxRows >= 0 && maxRows < len(rows) {
		rows = rows[:maxRows]
	}
	fmt.Fprintf(&b, "\n<details><summary>All %d metrics</summary>\n\n", len(c.Metrics))
	mdTable(&b, rows)
	if len(rows) < len(c.Metrics) {
		fmt.Fprintf(&b, "\n_%d more rows left out to fit the size limit; see the full report._\n", len(c.Metrics)-len(rows))
	}
	b.WriteString("\n</details>\n")
	var notes bytes.Buffer
	key := *c
	key.HeldRate = nil
	key.Metrics = nil // the held rates and gate notes are printed above already
	_ = writeNotes(&notes, &key, "- ")
	b.Write(notes.Bytes())
	return b.Bytes()
}

// mdTable writes one Markdown table of metrics; REGRESSED is bold.
func mdTable(b *bytes.Buffer, ms []compare.MetricResult) {
	b.WriteString("| " + strings.Join(textHeader, " | ") + " |\n")
	b.WriteString("|---|---|---|--:|--:|--:|---|--:|--:|---|--:|--:|--:|---|\n")
	statusCol := slices.Index(textHeader, "status")
	for _, m := range ms {
		cells := row(m)
		for i := range cells {
			cells[i] = mdEscape(cells[i])
		}
		if m.Status == compare.Regressed || m.Status == compare.Improved {
			cells[statusCol] = "**" + cells[statusCol] + "**"
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// mdEscape keeps table cells intact (pipes split cells and newlines end
// rows) and free text inert: a '<' that could open an HTML tag, comment or
// autolink is written as an entity, and backticks cannot open code.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "*", `\*`)
	s = strings.ReplaceAll(s, "_", `\_`)
	s = strings.ReplaceAll(s, "`", "\\`")
	s = htmlStart.ReplaceAllString(s, "&lt;$1")
	return strings.ReplaceAll(s, "\n", " ")
}

// htmlStart is a '<' that Markdown would take for the start of raw HTML or an autolink.
var htmlStart = regexp.MustCompile(`<([A-Za-z/!?])`)

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
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
		if !st.Mode().IsRegular() {
			// A FIFO nobody reads would block the write (and the command)
			// for ever; GitHub sets the variable to a regular file.
			return fmt.Errorf("report: step summary %s is %s, not a regular file: set GITHUB_STEP_SUMMARY to a file, or unset it", path, inputfile.Kind(st.Mode()))
		}
		used = st.Size()
	}
	body := fitMarkdown(inertReport(r, 0).Comparison, StepSummaryLimit-used-1024)
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
