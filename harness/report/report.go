// Package report renders a comparison for people and machines: a terminal
// table, Markdown for the vote thread and CI step summaries, JSON, JUnit XML,
// a self-contained HTML page with percentile plots, and .hgrm files for
// HdrHistogram's plotter. It formats what compare decided and decides nothing.
package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// DescriptiveNote is printed wherever a descriptive comparison is shown.
const DescriptiveNote = "descriptive, no significance"

// Report is everything the renderers need.
type Report struct {
	Comparison *compare.Comparison
	// Distributions are the merged latency histograms (microseconds) per
	// workload and operation; the HTML plots and the .hgrm files need them.
	Distributions []Distribution
	// Generated stamps the report; zero leaves the stamp out (golden files).
	Generated time.Time
	// Capacity, if set, is the rate sweep of `regress capacity` (a
	// *capacity.Sweep): text, Markdown and HTML add the section it renders,
	// JSON carries the sweep.
	Capacity Section
	// Profiles are the differential profiles per workload (--profile); the
	// text, Markdown and HTML reports show those of workloads that
	// REGRESSED, JSON all, and WriteAll writes each side's folded stacks.
	Profiles []WorkloadProfile
	// ProfileNotes say why profiles are missing (a JDK without JFR, a failed jcmd).
	ProfileNotes []string
	// Vote is what the vote paragraph says beside the comparison (builds,
	// machine, where the report is); its frames come from Profiles when empty.
	Vote Vote
	// Timelines are trials' latency over their window with their servers'
	// events (GC pauses, flushes...), drawn in the HTML report (timeline.go).
	Timelines []TrialTimeline
	// Shifts are each workload's operation's latency shift by percentile
	// over paired trials (deciles.go); ShiftNotes say why some or all are
	// not drawn (an unpaired comparison, too few pairs).
	Shifts     []LatencyShift
	ShiftNotes []string
	// Dir is the folder every format was written into (WriteAll's): the
	// text report's first screen names it; "" when the report is only
	// printed.
	Dir string
	// Wide makes the text report the table of every column (--wide) in
	// place of the compact one that keeps within TextWidth.
	Wide bool
	// Build is the regress build that decided (its commit, where known).
	Build Build
	// Measured is each workload's measured time: the wall time the
	// measurement windows of its compared trials covered (a duet's two
	// sides once). JUnit's times are these.
	Measured map[string]time.Duration
}

// Distribution holds one workload's operation's latency histograms, one per side (either may be nil).
type Distribution struct {
	Workload  string
	Op        string
	Baseline  *hdrhistogram.Histogram
	Candidate *hdrhistogram.Histogram
}

// Format names accepted by Render and the CLI's --format.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatJUnit    = "junit"
	FormatHTML     = "html"
	FormatVote     = "vote"
)

// formats is every stream format, in the order Formats lists and WriteAll
// writes them. A new format is one row here.
var formats = FormatTable[Report]{
	// Text, Markdown and the vote have no escaping of their own: they
	// print free text only in its inert form (freetext.go).
	{FormatText, []string{"txt", "table"}, "report.txt", plainText(renderText, 0)},
	{FormatMarkdown, []string{"md"}, "report.md", plainText(renderMarkdown, 0)},
	{FormatJSON, nil, "report.json", renderJSON},
	{FormatJUnit, []string{"xml"}, "junit.xml", renderJUnit},
	{FormatHTML, nil, "report.html", renderHTML},
	{FormatVote, nil, "vote.txt", plainText(renderVote, VoteWidth-2)},
}

// Formats lists the formats Render writes to one stream.
func Formats() []string { return formats.Names() }

// FormatName is the format a --format value names (a name or an alias, in
// any case: "JSON", "md"), false when it names none.
func FormatName(name string) (string, bool) {
	f, ok := formats.Lookup(name)
	return f.Name, ok
}

// FormatChoices lists the formats and their aliases, for errors.
func FormatChoices() string { return formats.Choices() }

// Render writes r in one format to w.
func Render(w io.Writer, name string, r Report) error {
	if r.Comparison == nil {
		return errors.New("report: no comparison to render")
	}
	if strings.EqualFold(name, "hgrm") {
		return errors.New("report: hgrm is one file per operation, not one stream: write it with --out DIR")
	}
	if err := formats.Render(w, name, r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// WriteAll writes every format into dir (created if needed), plus one .hgrm
// file per side, workload and operation under dir/hgrm and each profiled
// workload's folded stacks per side under dir/profiles, and returns the paths written.
func WriteAll(dir string, r Report) ([]string, error) {
	if r.Comparison == nil {
		return nil, errors.New("report: no comparison to render")
	}
	written, err := formats.WriteFiles(dir, r)
	if err != nil {
		return written, fmt.Errorf("report: %w", err)
	}
	hg, err := writeHgrms(filepath.Join(dir, "hgrm"), r.Distributions)
	written = append(written, hg...)
	if err != nil {
		return written, err
	}
	folded, err := writeFoldedFiles(dir, r)
	return append(written, folded...), err
}

// Timestamped returns base/<UTC timestamp>, the default report directory of one run.
func Timestamped(base string, t time.Time) string {
	return filepath.Join(base, t.UTC().Format("20060102T150405Z"))
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeFile makes a workload or op name usable in a file name.
func safeFile(s string) string {
	s = unsafeChars.ReplaceAllString(s, "_")
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

// ---- shared formatting ----

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// value formats a metric value with its unit: latencies scale from µs to ms
// or s by the value as it will print (999.9 µs is "1 ms", never "1e+03 µs"),
// sizes from B to KiB or MiB; no figure prints with an exponent.
func value(v float64, unit string) string {
	if !finite(v) {
		return "n/a"
	}
	switch unit {
	case metric.Micros:
		switch r := round(math.Abs(v), 3); {
		case r >= 1e6:
			return sig(v/1e6, 3) + " s"
		case r >= 1e3:
			return sig(v/1e3, 3) + " ms"
		default:
			return sig(v, 3) + " µs"
		}
	case metric.OpsPerSec:
		return fmt.Sprintf("%.0f ops/s", v)
	case metric.Bytes:
		switch r := math.Abs(v); {
		case r >= 1<<20:
			return sig(v/(1<<20), 3) + " MiB"
		case r >= 1<<10:
			return sig(v/(1<<10), 3) + " KiB"
		default:
			return fmt.Sprintf("%.0f B", v)
		}
	}
	return sig(v, 4) + " " + unit
}

// round rounds v to digits significant digits.
func round(v float64, digits int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// sig formats v to digits significant digits as %g does, but never with an
// exponent: 1000, 12.3, 0.5, 0.00123.
func sig(v float64, digits int) string {
	r := round(v, digits)
	if r == 0 || !finite(r) {
		return strconv.FormatFloat(r, 'g', digits, 64)
	}
	decimals := max(digits-1-int(math.Floor(math.Log10(math.Abs(r)))), 0)
	out := strconv.FormatFloat(r, 'f', decimals, 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}

// baseValue and candValue format a side's figure; one only known to lie
// below a bound (an imported percentile printed as 0 ms) reads "< 1 ms".
func baseValue(m compare.MetricResult) string { return sideValue(m.Baseline, m.BaselineBelow, m.Unit) }

func candValue(m compare.MetricResult) string {
	return sideValue(m.Candidate, m.CandidateBelow, m.Unit)
}

func sideValue(v float64, below bool, unit string) string {
	if below {
		return "< " + value(v, unit)
	}
	return value(v, unit)
}

// hasCI reports whether a metric carries a confidence interval worth printing.
func hasCI(m compare.MetricResult) bool {
	return m.Status != compare.Descriptive && finite(m.CILow) && finite(m.CIHigh) && m.CIHigh > 0
}

// ratio formats "1.07 [1.02, 1.12]", or the bare ratio when there is no interval.
func ratio(m compare.MetricResult) string {
	if !finite(m.Ratio) {
		return "n/a"
	}
	if !hasCI(m) {
		return fmt.Sprintf("%.2f", m.Ratio)
	}
	// Two decimals hide a narrow interval (throughput often moves by 0.1%): show three then.
	if m.CIHigh-m.CILow < 0.02 {
		return fmt.Sprintf("%.3f [%.3f, %.3f]", m.Ratio, m.CILow, m.CIHigh)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", m.Ratio, m.CILow, m.CIHigh)
}

// delta formats the change in percent. Never "~": benchstat's means "not
// significant", and compare's UNCHANGED (within tolerance) is spelled in the status.
func delta(m compare.MetricResult) string {
	if !finite(m.Ratio) {
		return "n/a"
	}
	v := (m.Ratio - 1) * 100
	if math.Round(v*10) == 0 {
		v = 0 // no "-0.0%"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// pValue formats p, or "-" for descriptive metrics that have none.
func pValue(m compare.MetricResult) string {
	if m.Status == compare.Descriptive || !finite(m.P) {
		return "-"
	}
	if m.P < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", m.P)
}

// status names the status as shown; descriptive ones say they carry no significance.
func status(m compare.MetricResult) string {
	if m.Status == compare.Descriptive {
		return "DESCRIPTIVE (" + DescriptiveNote + ")"
	}
	return string(m.Status)
}

func gate(m compare.MetricResult) string {
	switch {
	case m.Gated && m.GatedFor != "":
		return "gate (for " + m.GatedFor + ")"
	case m.Gated:
		return "gate"
	}
	return ""
}

// passBound formats the non-inferiority bound the PASS rule reads: "≤1.08"
// for latency (an upper bound), "≥0.97" for throughput (a lower bound).
func passBound(m compare.MetricResult) string {
	return boundText(m, m.PassBound, "≤", "≥")
}

// regressionBound formats the bound the REGRESSED rule reads, at the
// metric's Holm level: "≥1.02" for latency (a lower bound), "≤0.97" for throughput.
func regressionBound(m compare.MetricResult) string {
	return boundText(m, m.RegressionBound, "≥", "≤")
}

// boundText formats bound b of m's interval with op for a metric where
// lower is better, flipped where higher is, "-" when there is none; three
// decimals near 1, where two would print "1.00".
func boundText(m compare.MetricResult, b float64, op, flipped string) string {
	if !hasCI(m) || !finite(b) || b <= 0 {
		return "-"
	}
	if metric.Of(m.Metric).Worse == metric.WorseLower {
		op = flipped
	}
	if math.Abs(b-1) < 0.01 {
		return fmt.Sprintf("%s%.3f", op, b)
	}
	return fmt.Sprintf("%s%.2f", op, b)
}

// opsPerTrial formats the fewest operations a trial recorded, "" for throughput.
func opsPerTrial(m compare.MetricResult) string {
	if m.OpsPerTrial <= 0 {
		return ""
	}
	return fmt.Sprint(m.OpsPerTrial)
}

// heldRateLine describes one workload's held-rate check in words.
func heldRateLine(h compare.HeldRate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "held rate %s: target %.0f ops/s held in %d of %d baseline and %d of %d candidate trials",
		h.Workload, h.TargetOpsPerSec, h.BaselineTrials-h.BaselineMissed, h.BaselineTrials, h.CandidateTrials-h.CandidateMissed, h.CandidateTrials)
	if h.CandidateOnly+h.BaselineOnly > 0 {
		fmt.Fprintf(&b, " (only the candidate missed in %d pairs, only the baseline in %d)", h.CandidateOnly, h.BaselineOnly)
	}
	fmt.Fprintf(&b, ": %s", h.Status)
	if h.P < 1 {
		fmt.Fprintf(&b, ", p %s", pFormat(h.P))
	}
	if h.Gated {
		b.WriteString(", gated")
	}
	return b.String()
}

func pFormat(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// noteLines are the rows' notes as lines, each text once naming every row
// it applies to (groupedNotes).
func noteLines(c *compare.Comparison) []string {
	gs := groupedNotes(c)
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	return out
}

// noteNamesMetric says whether a note begins with the metric it is about
// ("p99 not gated: ...", "cpu_per_op: 1 pair left out ..."), so its label
// need not name it again.
func noteNamesMetric(note, metric string) bool {
	rest, ok := strings.CutPrefix(note, metric)
	return ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, ":"))
}

// gatedFirst returns the gated metrics, REGRESSED first, then IMPROVED, then
// the rest in their order: what a vote thread reads first.
func gatedFirst(ms []compare.MetricResult) []compare.MetricResult {
	var out []compare.MetricResult
	for _, want := range []func(compare.Status) bool{
		func(s compare.Status) bool { return s == compare.Regressed },
		func(s compare.Status) bool { return s == compare.Improved },
		func(s compare.Status) bool { return s != compare.Regressed && s != compare.Improved },
	} {
		for _, m := range ms {
			if m.Gated && want(m.Status) {
				out = append(out, m)
			}
		}
	}
	return out
}

// headline is the one-line summary shared by text and Markdown.
func headline(c *compare.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "candidate %s vs baseline %s", c.Candidate.Name, c.Baseline.Name)
	if c.Suite != "" {
		fmt.Fprintf(&b, ", suite %s", c.Suite)
	}
	if c.Data != "" && !c.Descriptive {
		fmt.Fprintf(&b, " (data: %s)", c.Data)
	}
	switch {
	case c.Descriptive:
		fmt.Fprintf(&b, "; %d vs %d imported summaries (%s)", c.Candidate.Trials, c.Baseline.Trials, DescriptiveNote)
	case c.Paired:
		fmt.Fprintf(&b, "; paired, %d vs %d trials", c.Candidate.Trials, c.Baseline.Trials)
		switch {
		case c.Duet:
			b.WriteString(", duet (each pair's two trials at the same time)")
		case c.Interleaved:
			b.WriteString(", interleaved")
		}
		if c.Instances > 1 {
			fmt.Fprintf(&b, ", %d server instances a side (their offset inside the intervals)", c.Instances)
		}
	default:
		fmt.Fprintf(&b, "; unpaired, %d vs %d trials", c.Candidate.Trials, c.Baseline.Trials)
	}
	if !c.Descriptive && c.Alpha > 0 {
		fmt.Fprintf(&b, "; alpha %.3g", c.Alpha)
		if c.Looks > 1 {
			fmt.Fprintf(&b, " over %d looks", c.Looks)
			if c.Runs > 1 {
				fmt.Fprintf(&b, " (%d runs pooled)", c.Runs)
			}
		}
	}
	return b.String()
}

// detectLine says what the run could see: for each gated metric, the
// smallest regression it would have flagged with power 0.8, the most
// sensitive first ("this run could detect +8% workloadc cpu_per_op, ...");
// "" when nothing was estimated (descriptive comparisons).
func detectLine(c *compare.Comparison) string {
	type item struct {
		what string
		d    float64
		sign string // the worse direction's: + for latency and cost, - for throughput
	}
	var items []item
	for _, m := range c.Metrics {
		if !m.Gated || m.Detectable <= 0 || !finite(m.Detectable) {
			continue
		}
		what := m.Workload + " " + m.Metric
		if m.Op != compare.OpAll {
			what = m.Workload + " " + m.Op + " " + m.Metric
		}
		sign := "+"
		if metric.Of(m.Metric).Worse == metric.WorseLower {
			sign = "-"
		}
		items = append(items, item{what, m.Detectable, sign})
	}
	if len(items) == 0 {
		return ""
	}
	slices.SortStableFunc(items, func(a, b item) int {
		switch {
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		}
		return 0
	})
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = fmt.Sprintf("%s%.0f%% %s", it.sign, 100*it.d, it.what)
	}
	return "this run could detect (power 0.8): " + strings.Join(parts, ", ")
}
