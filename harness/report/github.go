package report

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/inputfile"
)

// annotationRows is how many rows the GitHub annotations name: a reader
// sees the verdict and its worst rows, never an annotation per row.
const annotationRows = 3

// GitHubAnnotations are the workflow commands a GitHub Actions log turns
// into annotations on the run's page, for c's reports in dir: one ::error
// per regressed gated row (at most annotationRows, the largest first, the
// last naming how many more); when nothing regressed, a ::notice of the
// verdict, a ::warning naming the undecided gated rows that keep a PASS
// from being shown, and one naming the undecided rows that only detect.
// Messages are escaped as GitHub reads them.
func GitHubAnnotations(c *compare.Comparison, dir string) []string {
	if c == nil {
		return nil
	}
	vs := fmt.Sprintf("%s vs %s", c.Candidate.Name, c.Baseline.Name)
	var out []string
	if c.Invalid != "" {
		out = append(out, annotation("error", "regress: INVALID", vs+": "+c.Invalid+"; reports: "+dir))
	}
	var regressed, undecided, detecting []string
	var worst []compare.MetricResult
	for _, m := range c.Metrics {
		switch {
		case !m.Gated:
		case m.Status == compare.Regressed:
			worst = append(worst, m)
		case m.Status == compare.Inconclusive && m.DetectOnly:
			detecting = append(detecting, annotationRow(m))
		case m.Status == compare.Inconclusive:
			undecided = append(undecided, annotationRow(m))
		}
	}
	// The largest change first: what a reader should look at.
	slices.SortStableFunc(worst, func(a, b compare.MetricResult) int { return cmp.Compare(changeSize(b), changeSize(a)) })
	for _, m := range worst {
		regressed = append(regressed, annotationRow(m))
	}
	for _, h := range c.HeldRate {
		if h.Gated && h.Status == compare.Regressed {
			regressed = append(regressed, fmt.Sprintf("%s: the candidate did not hold the %.0f ops/s the baseline held", h.Workload, h.TargetOpsPerSec))
		}
	}
	for i, row := range regressed[:min(len(regressed), annotationRows)] {
		msg := vs + ": " + row + ", REGRESSED"
		if i == annotationRows-1 && len(regressed) > annotationRows {
			msg += fmt.Sprintf(" (and %d more regressed)", len(regressed)-annotationRows)
		}
		out = append(out, annotation("error", "regress: REGRESSION", msg+"; reports: "+dir))
	}
	if len(regressed) == 0 && c.Invalid == "" {
		out = append(out, annotation("notice", "regress: "+string(c.Verdict), fmt.Sprintf("%s, suite %s: %s; reports: %s", vs, c.Suite, verdictWords(c), dir)))
		if len(undecided) > 0 {
			out = append(out, annotation("warning", "regress: undecided rows", vs+": not shown within tolerance: "+listRows(undecided)+"; run more pairs, or accept wider tolerances; reports: "+dir))
		}
		if len(detecting) > 0 {
			out = append(out, annotation("warning", "regress: undecided rows that only detect", vs+": neither shown within tolerance nor regressed (they never hold a PASS back): "+listRows(detecting)+"; reports: "+dir))
		}
	}
	return out
}

// listRows lists the first annotationRows rows and how many more there are.
func listRows(rows []string) string {
	s := strings.Join(rows[:min(len(rows), annotationRows)], "; ")
	if n := len(rows) - annotationRows; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// verdictWords says a verdict that needs no row in a few words.
func verdictWords(c *compare.Comparison) string {
	switch c.Verdict {
	case compare.Pass:
		return "no gated metric regressed, and every one that holds a PASS is within its tolerance"
	case compare.VerdictDescriptive:
		return DescriptiveNote
	}
	return string(c.Verdict)
}

// annotationRow names a row and its change: "workloadc READ p99 +7.0%
// [+3.0, +11.0] (tolerance 5%)".
func annotationRow(m compare.MetricResult) string {
	what := strings.Join(strings.Fields(m.Workload+" "+strings.TrimPrefix(m.Op, compare.OpAll)+" "+m.Metric), " ")
	change, interval := changeCell(m)
	return strings.TrimSpace(fmt.Sprintf("%s %s %s", what, change, interval)) + fmt.Sprintf(" (tolerance %.0f%%)", m.Tolerance*100)
}

// changeSize is how far a row moved, either way.
func changeSize(m compare.MetricResult) float64 {
	if !finite(m.Ratio) || m.Ratio <= 0 {
		return 0
	}
	if m.Ratio < 1 {
		return 1/m.Ratio - 1
	}
	return m.Ratio - 1
}

// annotation is one workflow command: ::kind title=T::message, escaped as
// the runner reads them (%, CR and LF in both; ':' and ',' in the title).
func annotation(kind, title, msg string) string {
	data := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	return fmt.Sprintf("::%s title=%s::%s", kind, prop.Replace(title), data.Replace(msg))
}

// AppendGitHubOutput appends each name=value pair to the file
// $GITHUB_OUTPUT names (nothing when it is unset), as a step's outputs
// (steps.ID.outputs.NAME). A value holding a line break is written in the
// delimited form. A path that names no regular file (a FIFO nobody reads,
// a directory) is an error, never waited on.
func AppendGitHubOutput(pairs [][2]string) error {
	path := os.Getenv("GITHUB_OUTPUT")
	if path == "" || len(pairs) == 0 {
		return nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("report: GitHub output %s is %s, not a regular file: set GITHUB_OUTPUT to a file, or unset it", path, inputfile.Kind(st.Mode()))
	}
	var b strings.Builder
	for _, p := range pairs {
		name, value := p[0], p[1]
		if !strings.ContainsAny(value, "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", name, value)
			continue
		}
		delim := "regress_EOF"
		for strings.Contains(value, delim) {
			delim += "_"
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", name, delim, value, delim)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("report: open GitHub output: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("report: write GitHub output: %w", err)
	}
	return f.Close()
}
