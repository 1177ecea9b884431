package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/profile"
)

// VoteMaxLines caps the vote paragraph: what a voter pastes into the thread.
const VoteMaxLines = 20

// VoteWidth is the widest line of the vote paragraph: HBase votes are
// plain-text mail, read at 72-80 columns; a longer line wraps, its
// continuation indented.
const VoteWidth = 78

// VoteSide identifies one side's build beyond its version.
type VoteSide struct {
	Version   string // e.g. "2.6.2"; empty takes the comparison's side name
	RC        string // release-candidate label, e.g. "RC1"; empty for a release
	JarDigest string // digest of the side's jars, e.g. "sha256:3f2a…"; shown short
}

// Detectable is the smallest change a run could have seen in one metric.
type Detectable struct {
	Metric   string  // e.g. "p99" or "throughput"
	Fraction float64 // 0.03 = 3%
}

// VoteFrame is one frame of a differential profile that changed.
type VoteFrame struct {
	Workload             string
	Kind                 profile.Kind
	Frame                string  // "package.Class.method"
	BaseShare, CandShare float64 // fraction of each side's samples or bytes
	Delta                float64 // change per operation; the paragraph lists frames that grew (> 0)
}

// Vote is what the vote paragraph says beside the comparison.
type Vote struct {
	Baseline, Candidate VoteSide
	Machine             string // e.g. "8 cores, 32 GiB, Linux 6.1"
	JDK                 string // the JDK's version and options, e.g. "17.0.15" (results.JDK.Brief)
	Hadoop              string // the Hadoop client both sides ran, e.g. "2.10.2"; "" when they differ or it is unknown
	// Detectable, when known, is the smallest change the run could have seen.
	Detectable []Detectable
	// Frames are the top differential frames; listed when something
	// regressed and no cause was named.
	Frames []VoteFrame
	// Causes are the call paths named across the decisive workloads'
	// profiled pairs (VoteCauses); listed when something regressed.
	Causes []VoteCause
	// NoCause says why no cause or frame is named when something regressed
	// and profiles were recorded (noCause): printed in their place.
	NoCause string
	// Report is where the full report is (a path or a URL).
	Report string
	// Regress is the build of regress that decided ("regress v0.3.0 (commit ...)").
	Regress string
	// Command reproduces the run, as a shell would read it.
	Command string
}

// VoteFrames turns a differential's frames into VoteFrames for one
// workload, keeping those profile.Differential.FrameNamed names: not
// chance (P at most profile.FrameAlpha; a frame without a P, stored before
// its samples were counted, never), and a growth the whole profile shares
// (not one JVM's JIT moving samples between frames).
func VoteFrames(workload string, d *profile.Differential) []VoteFrame {
	out := make([]VoteFrame, 0, len(d.Frames))
	for _, f := range d.Frames {
		if !d.FrameNamed(f) {
			continue
		}
		out = append(out, VoteFrame{Workload: workload, Kind: d.Kind, Frame: f.Frame,
			BaseShare: f.Self.BaseShare, CandShare: f.Self.CandShare, Delta: f.Self.Delta()})
	}
	return out
}

// renderVote is --format vote: the paragraph with the report's Vote, its
// frames taken from the regressed workloads' profiles when the Vote has none.
func renderVote(w io.Writer, r Report) error {
	return WriteVote(w, r.Comparison, r.vote())
}

// vote is r.Vote with its frames filled from r.Profiles when empty.
func (r Report) vote() Vote {
	v := r.Vote
	if len(v.Frames) == 0 {
		v.Frames = voteFrames(r)
	}
	if len(v.Causes) == 0 {
		v.Causes = VoteCauses(r.Comparison, r.Profiles)
	}
	if v.NoCause == "" && len(v.Causes) == 0 && len(v.Frames) == 0 {
		v.NoCause = noCause(r)
	}
	return v
}

// WriteVote writes the vote paragraph of c (VoteParagraph) to w.
func WriteVote(w io.Writer, c *compare.Comparison, v Vote) error {
	if c == nil {
		return fmt.Errorf("report: no comparison for the vote paragraph")
	}
	_, err := io.WriteString(w, strings.Join(VoteParagraph(c, v), "\n")+"\n")
	return err
}

// VoteParagraph is what a voter pastes into the release vote thread, at
// most VoteMaxLines lines of VoteWidth columns: the two builds, machine,
// JDK and suite; the verdict; the rows it rests on with their tolerances
// (verdictBasis: under REGRESSION what regressed, under PASS the rows over
// several workloads that hold it), the gated rows left undecided (never
// left out for larger changes), where the time went and the frames that
// grew when something regressed (the cause lines as VoteFrames give them);
// what the gate held each class of rows to and the smallest change each
// could see (what a PASS covered); how to reproduce the run elsewhere and
// the regress build that decided; notes where room is left. Latencies
// under a millisecond read "< 1 ms". A nil comparison gives no lines.
func VoteParagraph(c *compare.Comparison, v Vote) []string {
	if c == nil {
		return nil
	}
	// Names come from the store and from the command line: the paragraph is
	// pasted into mail, issue trackers and Markdown, so a name that is not
	// plain is quoted wherever it appears, its markup made inert.
	c, v = inertVote(c, v)
	bs := verdictBasis(c)
	head := []string{fmt.Sprintf("regress: HBase %s vs %s", voteSide(c.Candidate, v.Candidate), voteSide(c.Baseline, v.Baseline))}
	var env []string
	if v.Machine != "" {
		env = append(env, "machine: "+v.Machine)
	}
	if v.JDK != "" {
		env = append(env, "JDK: "+v.JDK)
	}
	if v.Hadoop != "" {
		env = append(env, "Hadoop client: "+v.Hadoop)
	}
	env = append(env, "suite: "+voteSuite(c))
	head = append(head, strings.Join(env, "; "))
	head = append(head, "Verdict: "+verdictLine(c))
	head = wrapVote(head)

	// The rows the verdict rests on, with both sides' figures while they
	// fit (what moved under a REGRESSION keeps them).
	figures := true
	var rows []string
	setRows := func() {
		rows = rows[:0]
		for _, m := range bs.Rows {
			rows = append(rows, voteRow(m, figures))
		}
		for _, h := range bs.Held {
			rows = append(rows, voteHeld(h))
		}
	}
	setRows()
	restsOn := "Rests on (candidate vs baseline"
	if !c.Descriptive && c.LookAlpha > 0 {
		restsOn += fmt.Sprintf(", [interval] one-sided at %.3g", c.LookAlpha)
	}
	restsOn += "):"
	if c.Descriptive {
		restsOn = "Largest changes (candidate vs baseline):"
	}
	within := ""
	if n := len(bs.Within); n > 0 && !c.Descriptive {
		within = fmt.Sprintf("- and %s, each within its tolerance", plural(n, "more gated row"))
	}
	// rowsBlock is the header and the first n rows, the rest counted.
	rowsBlock := func(n int) []string {
		if len(rows) == 0 {
			return nil
		}
		n = min(n, len(rows))
		out := append([]string{restsOn}, rows[:n]...)
		switch left := len(rows) - n; {
		case left > 0 && c.Verdict == compare.Pass:
			out = append(out, fmt.Sprintf("- and %s, each within its tolerance", plural(left+len(bs.Within), "more gated row")))
		case left > 0:
			what := map[compare.Verdict]string{compare.Regression: "that regressed", compare.VerdictInconclusive: "not shown within tolerance"}[c.Verdict]
			out = append(out, strings.TrimSpace(fmt.Sprintf("- and %s %s", plural(left, "more row"), what)))
			if within != "" {
				out = append(out, within)
			}
		case within != "":
			out = append(out, within)
		}
		return wrapVote(out)
	}
	// The gated rows left undecided: each a line under PASS, where they
	// are few and what a PASS did not cover; a list under REGRESSION.
	undecided := func(maxLines int) []string {
		if len(bs.Undecided) == 0 {
			return nil
		}
		if c.Verdict != compare.Regression {
			out := []string{"Undecided (only detect; no PASS held back by them):"}
			if c.Verdict == compare.VerdictInconclusive {
				out[0] = "Undecided, only detecting:"
			}
			for _, m := range bs.Undecided {
				out = append(out, voteRow(m, figures))
			}
			return wrapVote(out)
		}
		names := make([]string, len(bs.Undecided))
		for i, m := range bs.Undecided {
			names[i] = rowName(m) + " " + voteRatio(m.Ratio)
		}
		lead := fmt.Sprintf("Undecided (INCONCLUSIVE, gated): %s:", plural(len(names), "row"))
		for k := len(names); k > 0; k-- {
			l := lead + " " + strings.Join(names[:k], ", ")
			if k < len(names) {
				l += fmt.Sprintf(" and %d more", len(names)-k)
			}
			if w := wrapVote([]string{l}); len(w) <= maxLines {
				return w
			}
		}
		return wrapVote([]string{lead[:len(lead)-1]})
	}
	var cause []string
	if regressed(c) {
		cause = wrapVote(causeLines(v))
	}
	held := wrapVote(nonEmpty(voteGate(c)))
	detect := wrapVote(nonEmpty(voteDetect(c, v)))
	var after []string
	if b := regressBuild(v); b != "" {
		after = append(after, b)
	}
	if strings.Contains(v.Report, "://") { // a path on this machine tells a voter nothing
		after = append(after, "Full report: "+v.Report)
	}
	reproduce := func(maxLines int) []string {
		if v.Command == "" {
			return nil
		}
		return cutReproduce(v.Command, maxLines)
	}
	nRows, nUndecided, nReproduce := len(rows), 3, voteReproduceLines
	pass := c.Verdict == compare.Pass
	build := func() []string {
		return slices.Concat(head, rowsBlock(nRows), undecided(nUndecided), cause, held, detect, reproduce(nReproduce), wrapVote(after))
	}
	// When the paragraph would run past VoteMaxLines the least needed go
	// first. Under a PASS what it covered stays (the tolerances held, what
	// could be seen, every undecided row); the rows over several workloads
	// that only detect go first. Under a REGRESSION what moved and why
	// stays; what could be seen and the tolerances held (each row says its
	// own) go first.
	for len(build()) > VoteMaxLines {
		switch {
		case figures && c.Verdict != compare.Regression:
			figures = false
			setRows()
		case !pass && len(detect) > 0:
			detect = nil
		case !pass && len(held) > 0:
			held = nil
		case !pass && nUndecided > 1:
			nUndecided--
		case nRows > 1:
			nRows--
		case len(cause) > 1:
			// The first cause (or frame line) alone; one that does not fit
			// goes whole.
			cause = wrapVote(causeLines(v)[:1])
			if len(cause) > 1 && len(causeLines(v)) == 1 {
				cause = cause[:0]
			}
		case nReproduce > 2 && v.Command != "":
			nReproduce--
		default:
			out := build()
			return out[:VoteMaxLines]
		}
	}
	out := build()
	// Notes where room is left, each whole; none that says nothing.
	room := VoteMaxLines - len(out)
	var notes []string
	for _, n := range voteNotes(c) {
		if w := wrapVote([]string{n}); len(notes)+len(w) <= room {
			notes = append(notes, w...)
		}
	}
	at := len(out) - len(reproduce(nReproduce)) - len(wrapVote(after))
	out = slices.Concat(out[:at], notes, out[at:])
	return out
}

// nonEmpty is s as a line, none when s is empty.
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// regressBuild is the line naming the regress build that decided, the one
// place every format prints it from (vote.txt, the HTML's provenance).
func regressBuild(v Vote) string {
	if v.Regress == "" {
		return ""
	}
	return "Decided by " + v.Regress
}

// voteRow is one row the verdict rests on: "- all workloads cpu_per_op:
// -3.3% [-4.1%, -2.6%], NOT WORSE (tolerance 3%)", with both sides'
// figures first when asked ("269 µs -> 288 µs, ").
func voteRow(m compare.MetricResult, figures bool) string {
	s := "- " + rowName(m) + ": "
	if figures {
		s += voteValue(m.Metric, m.Baseline, m.BaselineBelow, m.Unit) + " -> " + voteValue(m.Metric, m.Candidate, m.CandidateBelow, m.Unit) + ", "
	}
	s += voteRatio(m.Ratio)
	if hasCI(m) {
		s += fmt.Sprintf(" [%s, %s]", voteRatio(m.CILow), voteRatio(m.CIHigh))
	}
	if m.Status == compare.Descriptive { // the verdict line says it, once
		return s
	}
	st := shownStatus(m)
	s += ", " + st
	if t := tolerance(m); t != "" && !strings.HasSuffix(st, t) {
		s += " (" + t + ")"
	}
	if b := verdictBoundNote(m); b != "" {
		s += " " + b
	}
	return s
}

// voteHeld is a held-rate check among the rows.
func voteHeld(h compare.HeldRate) string {
	return fmt.Sprintf("- %s held rate %.0f ops/s: missed in %d of %d candidate and %d of %d baseline trials, %s",
		h.Workload, h.TargetOpsPerSec, h.CandidateMissed, h.CandidateTrials, h.BaselineMissed, h.BaselineTrials, h.Status)
}

// voteDetect says what each class of gated rows could see: "Could see
// (power 0.8): p50 +5% to +39%, ..., server cost +5% to +63%", each from
// the row over several workloads to the least sensitive workload's; the
// Vote's own figures when the comparison estimated none.
func voteDetect(c *compare.Comparison, v Vote) string {
	ds := costClass(detectClasses(c))
	var parts []string
	for _, d := range ds {
		name := d.Metric
		if name == "cost" {
			name = "server cost"
		}
		parts = append(parts, name+" "+d.span())
	}
	if len(parts) == 0 {
		for _, d := range v.Detectable {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", d.Metric, d.Fraction*100))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Could see (power 0.8): " + strings.Join(parts, ", ")
}

// boolFirst orders true before false.
func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// voteReproduceLines is the most lines the Reproduce command takes in the
// paragraph: a command of a dozen --*-conf flags would take half of it.
const voteReproduceLines = 4

// reproduceCut ends a Reproduce line the paragraph had to cut.
const reproduceCut = " ... (the whole command: the full report)"

// cutReproduce is "Reproduce: cmd" wrapped, in at most maxLines lines: cut
// at an argument, marked reproduceCut, when the whole does not fit.
func cutReproduce(cmd string, maxLines int) []string {
	whole := wrapVote([]string{"Reproduce: " + cmd})
	if len(whole) <= maxLines {
		return whole
	}
	words := strings.Fields(cmd)
	for n := len(words) - 1; n > 0; n-- {
		if l := wrapVote([]string{"Reproduce: " + strings.Join(words[:n], " ") + reproduceCut}); len(l) <= maxLines {
			return l
		}
	}
	return wrapVote([]string{"Reproduce: " + words[0] + reproduceCut})
}

// ReproduceCut reports whether the vote paragraph of c with v cuts its
// Reproduce command, so the full report prints the whole command.
func ReproduceCut(c *compare.Comparison, v Vote) bool {
	words := strings.Fields(strings.Join(VoteParagraph(c, v), " "))
	return strings.Contains(strings.Join(words, " "), strings.TrimSpace(reproduceCut))
}

// voteSide names a build: "2.6.2 RC1 (jars 3f2a9c1d)".
func voteSide(s compare.Side, v VoteSide) string {
	name := cmp.Or(v.Version, s.Name)
	if v.RC != "" {
		name += " " + v.RC
	}
	if d := shortDigest(v.JarDigest); d != "" {
		name += " (jars " + d + ")"
	}
	return name
}

// shortDigest keeps the first 8 hex digits of a digest, dropping an "algo:" prefix.
func shortDigest(d string) string {
	if i := strings.LastIndexByte(d, ':'); i >= 0 {
		d = d[i+1:]
	}
	return d[:min(8, len(d))]
}

// voteSuite names the suite and how its trials ran: "smoke, 36 duet pairs
// over 6 workloads" (a side's trials count every workload's).
func voteSuite(c *compare.Comparison) string {
	s := cmp.Or(c.Suite, "(unnamed)")
	over := ""
	if n := workloadCount(c); n > 1 {
		over = fmt.Sprintf(" over %d workloads", n)
	}
	pairs := min(c.Candidate.Trials, c.Baseline.Trials)
	var ran string
	switch {
	case c.Descriptive:
		ran = fmt.Sprintf("%d vs %d imported summaries", c.Candidate.Trials, c.Baseline.Trials)
	case c.Paired && c.Duet:
		ran = fmt.Sprintf("%d duet pairs", pairs)
	case c.Paired && c.Interleaved:
		ran = fmt.Sprintf("%d interleaved pairs", pairs)
	case c.Paired:
		ran = fmt.Sprintf("%d pairs", pairs)
	default:
		ran = fmt.Sprintf("%d vs %d unpaired trials", c.Candidate.Trials, c.Baseline.Trials)
	}
	return s + ", " + ran + over
}

// workloadCount is how many workloads the comparison's metrics cover.
func workloadCount(c *compare.Comparison) int {
	seen := map[string]bool{}
	for _, m := range c.Metrics {
		if !m.Primary { // "all workloads" is a row over them, not one more
			seen[m.Workload] = true
		}
	}
	return len(seen)
}

func regressed(c *compare.Comparison) bool {
	if c.Verdict == compare.Regression {
		return true
	}
	for _, m := range c.Metrics {
		if m.Status == compare.Regressed {
			return true
		}
	}
	return false
}

// verdictBoundNote says, for a gated metric whose printed interval lies
// beyond its tolerance but that is not REGRESSED, the bound the verdict
// used: the interval is read at the look's alpha, the regression decision
// at the metric's Holm level over every gated metric, which is wider.
func verdictBoundNote(m compare.MetricResult) string {
	if !m.Gated || m.Status == compare.Regressed || !hasCI(m) || !finite(m.RegressionBound) || m.RegressionBound <= 0 {
		return ""
	}
	bandLo, bandHi := compare.ToleranceBand(m.Tolerance)
	worse := m.CILow > bandHi
	if metric.Of(m.Metric).Worse == metric.WorseLower {
		worse = m.CIHigh < bandLo
	}
	if !worse {
		return ""
	}
	return fmt.Sprintf("(the verdict's bound, Holm-adjusted over the gated metrics: %+.1f%%, within the %.0f%% tolerance)", (m.RegressionBound-1)*100, m.Tolerance*100)
}

// voteRatio prints a change: "+7.0%" below twice, "x4.0" from there (a
// percentage of +300% reads worse than "four times").
func voteRatio(r float64) string {
	if r >= 2 {
		return fmt.Sprintf("x%.3g", r)
	}
	return fmt.Sprintf("%+.1f%%", (r-1)*100)
}

// voteValue prints a figure as the tables do (a latency of 362 us as
// "362 µs", 1450 us as "1.45 ms"); an imported percentile only known to lie
// below a millisecond (YCSB's whole milliseconds) reads "< 1 ms".
func voteValue(name string, v float64, below bool, unit string) string {
	if metric.Of(name).Scope == metric.PerOp && finite(v) && below && v <= 1000 {
		return "< 1 ms"
	}
	return sideValue(v, below, unit)
}

// causeLines are the vote's cause lines: the causes named across the
// decisive workloads' pairs (VoteCauses), else the frames that grew.
func causeLines(v Vote) []string {
	if lines := voteCauseLines(v.Causes); len(lines) > 0 {
		return lines
	}
	if lines := voteFrameLines(v.Frames); len(lines) > 0 || v.NoCause == "" {
		return lines
	}
	return []string{v.NoCause}
}

// voteFrameLines lists the frames that grew, one line per workload and kind, at most two lines.
func voteFrameLines(frames []VoteFrame) []string {
	type key struct {
		workload string
		kind     profile.Kind
	}
	var order []key
	grown := map[key][]VoteFrame{}
	for _, f := range frames {
		if f.Delta <= 0 {
			continue
		}
		k := key{f.Workload, f.Kind}
		if _, ok := grown[k]; !ok {
			order = append(order, k)
		}
		grown[k] = append(grown[k], f)
	}
	var lines []string
	for _, k := range order[:min(2, len(order))] {
		fs := grown[k]
		slices.SortStableFunc(fs, func(a, b VoteFrame) int { return cmp.Compare(b.Delta, a.Delta) })
		parts := make([]string, 0, 3)
		for _, f := range fs[:min(3, len(fs))] {
			parts = append(parts, fmt.Sprintf("%s %.1f%% -> %.1f%% (%s)", profile.ShortFrame(f.Frame), f.BaseShare*100, f.CandShare*100, profile.FormatPerOp(f.Kind, f.Delta)))
		}
		switch k.kind {
		case profile.Wait:
			lines = append(lines, fmt.Sprintf("Where the time went (request threads' waits, %s, share of wait time): %s", k.workload, strings.Join(parts, ", ")))
		case profile.Alloc:
			lines = append(lines, fmt.Sprintf("Frames that grew (allocation, %s, self share): %s", k.workload, strings.Join(parts, ", ")))
		default:
			lines = append(lines, fmt.Sprintf("Frames that grew (CPU, %s, self share): %s", k.workload, strings.Join(parts, ", ")))
		}
	}
	return lines
}

// voteNotes are the notes a voter can use, each text once naming every
// row it applies to, then the warnings: not what a row over several
// workloads is, nor that throughput follows a target rate, nor what a
// slot was worth in a row the verdict does not read (the full report's).
func voteNotes(c *compare.Comparison) []string {
	var out []string
	for _, g := range groupedNotes(c) {
		if g.Kind == notePrimary || g.Kind == noteThroughput || g.Kind == noteSlot {
			continue
		}
		out = append(out, "Note: "+g.String())
	}
	for _, w := range c.Warnings {
		out = append(out, "Note: "+w)
	}
	return out
}

// wrapVote breaks each line longer than VoteWidth at spaces, the
// continuation indented by two; a word longer than the width stays whole.
func wrapVote(lines []string) []string {
	var out []string
	for _, l := range lines {
		// One pass over the line's runes (a note naming a thousand
		// operations is one long line: cut anew at each wrap, it cost
		// the square of its length).
		r, indent := []rune(l), 0
		for len(r)+indent > VoteWidth {
			cut := -1
			for i := VoteWidth; i > 2; i-- {
				if r[i-indent] == ' ' {
					cut = i - indent
					break
				}
			}
			if cut < 0 {
				break
			}
			out = append(out, strings.Repeat(" ", indent)+strings.TrimRight(string(r[:cut]), " "))
			r = r[cut:]
			for len(r) > 0 && r[0] == ' ' {
				r = r[1:]
			}
			indent = 2
		}
		out = append(out, strings.Repeat(" ", indent)+string(r))
	}
	return out
}

// voteGate says what the verdict held each gated metric to, latencies
// first, then the servers' costs: "Held to (a workload/pooled): p50
// 10%/3%, p95 30%/10%, ...", a metric's tolerances a workload's and over
// several workloads' rows ("-/3%" with no workload's row), each once.
func voteGate(c *compare.Comparison) string {
	if c.Descriptive {
		return ""
	}
	type tols struct{ each, over []float64 }
	byMetric := map[string]*tols{}
	var order []string
	anyOver := false
	for _, m := range c.Metrics {
		if !m.Gated || m.Tolerance <= 0 {
			continue
		}
		t := byMetric[m.Metric]
		if t == nil {
			t = &tols{}
			byMetric[m.Metric] = t
			order = append(order, m.Metric)
		}
		if m.Primary {
			anyOver = true
			if !slices.Contains(t.over, m.Tolerance) {
				t.over = append(t.over, m.Tolerance)
			}
		} else if !slices.Contains(t.each, m.Tolerance) {
			t.each = append(t.each, m.Tolerance)
		}
	}
	if len(order) == 0 {
		return ""
	}
	slices.SortStableFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(costRank(compare.MetricResult{Metric: a}), costRank(compare.MetricResult{Metric: b})), cmp.Compare(metric.Rank(a), metric.Rank(b)))
	})
	pcts := func(fs []float64) string {
		if len(fs) == 0 {
			return "-"
		}
		var ps []string
		for _, f := range fs {
			ps = append(ps, sig(f*100, 3)+"%")
		}
		return strings.Join(ps, ",")
	}
	var parts []string
	for _, name := range order {
		t := byMetric[name]
		if anyOver {
			parts = append(parts, name+" "+pcts(t.each)+"/"+pcts(t.over))
		} else {
			parts = append(parts, name+" "+pcts(t.each))
		}
	}
	if anyOver {
		return "Held to (a workload/pooled): " + strings.Join(parts, ", ")
	}
	return "Held to: " + strings.Join(parts, ", ")
}
