package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
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

// voteMaxChanges is how many metric changes the paragraph lists.
const voteMaxChanges = 4

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
	JDK                 string // e.g. "OpenJDK 17.0.15"
	Hadoop              string // the Hadoop client both sides ran, e.g. "2.10.2"; "" when they differ or it is unknown
	// Detectable, when known, is the smallest change the run could have seen.
	Detectable []Detectable
	// Frames are the top differential frames; listed when something regressed.
	Frames []VoteFrame
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

// VoteParagraph is what a voter pastes into the release vote thread, at most
// VoteMaxLines lines: the two builds, machine and JDK, suite, verdict, the
// largest changes with their intervals, the smallest detectable change when
// known, the frames that grew when something regressed, notes (each once),
// and where the full report is. Latencies under a millisecond read "< 1 ms".
// A nil comparison gives no lines.
func VoteParagraph(c *compare.Comparison, v Vote) []string {
	if c == nil {
		return nil
	}
	// Names come from the store and from the command line: the paragraph is
	// pasted into mail, issue trackers and Markdown, so a name that is not
	// plain is quoted wherever it appears, its markup made inert.
	c, v = inertVote(c, v)
	var head []string
	head = append(head, fmt.Sprintf("regress: HBase %s vs %s", voteSide(c.Candidate, v.Candidate), voteSide(c.Baseline, v.Baseline)))
	var env []string
	if v.Machine != "" {
		env = append(env, "machine: "+v.Machine)
	}
	if v.JDK != "" {
		env = append(env, "JDK: "+strings.TrimPrefix(v.JDK, "JDK ")) // a label's own word once
	}
	if v.Hadoop != "" {
		env = append(env, "Hadoop client: "+v.Hadoop)
	}
	env = append(env, "suite: "+voteSuite(c))
	head = append(head, strings.Join(env, "; "))
	head = append(head, "Verdict: "+verdictLine(c))

	var changes []string
	if cs, more := voteChanges(c); len(cs) > 0 {
		h := "Largest changes (candidate vs baseline"
		if !c.Descriptive && c.LookAlpha > 0 {
			h += fmt.Sprintf(", [interval] one-sided at %.3g", c.LookAlpha)
		}
		h += "):"
		if more > 0 {
			h = strings.TrimSuffix(h, ":") + fmt.Sprintf("; %d more in the full report:", more)
		}
		changes = append([]string{h}, cs...)
	}
	var frames []string
	if regressed(c) {
		frames = voteFrameLines(v.Frames)
	}
	var detect, gate []string
	if len(v.Detectable) > 0 {
		parts := make([]string, 0, len(v.Detectable))
		for _, d := range v.Detectable {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", d.Metric, d.Fraction*100))
		}
		detect = []string{"Smallest change this run could detect: " + strings.Join(parts, ", ")}
	}
	if g := voteGate(c); g != "" {
		gate = []string{g}
	}
	var after []string
	if v.Regress != "" {
		after = append(after, "Decided by "+v.Regress)
	}
	if v.Report != "" {
		after = append(after, "Full report: "+v.Report)
	}
	reproduce := func(maxLines int) []string {
		if v.Command == "" {
			return nil
		}
		return cutReproduce(v.Command, maxLines)
	}
	last := slices.Concat(reproduce(voteReproduceLines), wrapVote(after))

	head = wrapVote(head)
	// The blocks in the order they print; when the paragraph would run
	// past VoteMaxLines the least needed go first: what the run could
	// detect, then what the gate held (the full report has both), never
	// the changes, the frames or how to reproduce the run.
	blocks := [][]string{wrapVote(changes), wrapVote(detect), wrapVote(gate), wrapVote(frames)}
	size := func() int {
		n := len(head) + len(last)
		for _, b := range blocks {
			n += len(b)
		}
		return n
	}
	for _, drop := range []int{1, 2} {
		if size() > VoteMaxLines {
			blocks[drop] = nil
		}
	}
	// Still too long: the frames of one workload, then fewer changes;
	// the head and how to reproduce the run always fit.
	if size() > VoteMaxLines && len(frames) > 1 {
		blocks[3] = wrapVote(frames[:1])
	}
	// The header and the largest change (latency first) always print.
	for size() > VoteMaxLines && len(changes) > 2 {
		blocks[0] = wrapVote(changes[:len(changes)-1])
		changes = changes[:len(changes)-1]
	}
	// A command too long to fit (a dozen --*-conf flags) is cut; the
	// whole command is in the full report (report.md), never lost.
	if over := size() - VoteMaxLines; over > 0 && v.Command != "" {
		n := len(reproduce(voteReproduceLines))
		last = slices.Concat(reproduce(max(2, n-over)), wrapVote(after))
	}
	tail := slices.Concat(blocks...)
	room := VoteMaxLines - len(head) - len(tail) - len(last)
	notes := voteNotes(c)
	var kept []string
	for i, n := range notes {
		w := wrapVote([]string{n})
		more := fmt.Sprintf("Note: %d more notes in the full report", len(notes)-i)
		if len(kept)+len(w) > room || i < len(notes)-1 && len(kept)+len(w) >= room {
			if len(kept) < room {
				kept = append(kept, more)
			}
			break
		}
		kept = append(kept, w...)
	}
	out := slices.Concat(head, tail, kept, last)
	return out[:min(len(out), VoteMaxLines)]
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

// voteChanges lists the largest changes: regressions first, then
// improvements, then the rest, each by size; gated metrics only when there
// are any. It returns the lines and how many changes it left out.
func voteChanges(c *compare.Comparison) ([]string, int) {
	type item struct {
		rank    int
		primary bool // a row over all workloads: the one a voter reads first
		size    float64
		line    string
	}
	var items []item
	rank := func(s compare.Status) int {
		switch s {
		case compare.Regressed:
			return 0
		case compare.Improved:
			return 1
		}
		return 2
	}
	ms := c.Metrics
	if slices.ContainsFunc(ms, func(m compare.MetricResult) bool { return m.Gated }) {
		ms = slices.DeleteFunc(slices.Clone(ms), func(m compare.MetricResult) bool { return !m.Gated })
	}
	for _, m := range ms {
		if !finite(m.Ratio) || m.Ratio <= 0 {
			continue
		}
		// Latency first within a status: it is what users feel; the
		// servers' cost says why.
		r := 2 * rank(m.Status)
		if metric.Of(m.Metric).Scope != metric.PerOp {
			r++
		}
		items = append(items, item{r, m.Primary, math.Abs(math.Log(m.Ratio)), voteMetric(m)})
	}
	for _, h := range c.HeldRate {
		if h.Status != compare.Regressed {
			continue
		}
		items = append(items, item{1, false, math.Inf(1), fmt.Sprintf("- %s held rate %.0f ops/s: missed in %d of %d candidate and %d of %d baseline trials, %s",
			h.Workload, h.TargetOpsPerSec, h.CandidateMissed, h.CandidateTrials, h.BaselineMissed, h.BaselineTrials, h.Status)})
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), boolFirst(a.primary, b.primary), cmp.Compare(b.size, a.size))
	})
	var lines []string
	for _, it := range items[:min(voteMaxChanges, len(items))] {
		lines = append(lines, it.line)
	}
	return lines, len(items) - len(lines)
}

// voteMetric is one change: "- workloada READ p99: 3.34 ms -> 3.57 ms,
// +7.0% [+3.0%, +11.0%], REGRESSED"; a ratio of 2 or more reads as a
// factor: "- workloadc READ p50: 362 µs -> 1.45 ms, x4.0 [x3.84, x4.18]".
func voteMetric(m compare.MetricResult) string {
	what := strings.Join(strings.Fields(m.Workload+" "+strings.TrimPrefix(m.Op, compare.OpAll)+" "+m.Metric), " ")
	s := fmt.Sprintf("- %s: %s -> %s, %s", what,
		voteValue(m.Metric, m.Baseline, m.BaselineBelow, m.Unit), voteValue(m.Metric, m.Candidate, m.CandidateBelow, m.Unit), voteRatio(m.Ratio))
	if hasCI(m) {
		s += fmt.Sprintf(" [%s, %s]", voteRatio(m.CILow), voteRatio(m.CIHigh))
	}
	s += ", " + status(m)
	if b := verdictBoundNote(m); b != "" {
		s += " " + b
	}
	return s
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

// voteNotes are the gate's notes and the warnings, each text once, naming
// every metric it applies to.
func voteNotes(c *compare.Comparison) []string {
	var order []string
	where := map[string][]string{}
	add := func(note, at string) {
		if _, ok := where[note]; !ok {
			order = append(order, note)
		}
		if at != "" && !slices.Contains(where[note], at) {
			where[note] = append(where[note], at)
		}
	}
	// A percentile too few operations kept from gating is one note for
	// every operation it applies to, whatever each trial's count.
	type tail struct{ metric, fallback string }
	var tails []tail
	tailAt := map[tail][]string{}
	tailOps := map[tail][]int64{}
	for _, m := range c.Metrics {
		fb := compare.TailFallback(m)
		switch {
		case m.Note == "":
		case m.GatedFor != "":
			// "gates in place of p95" restates the p95 row's own note
			// ("p95 not gated: ...; p50 gates in its place").
		case m.Primary:
			// What a primary row is, the full report says; the vote's
			// change line names it ("all workloads").
		case m.Metric == metric.Throughput && !m.Gated && len(c.HeldRate) > 0:
			// A method note: at a target rate the held-rate check gates
			// instead, as the full report says once.
		case !m.Gated && m.SlotEffect != 0 && strings.HasPrefix(m.Note, compare.SlotNotePrefix):
			// What a slot was worth in a row the verdict does not read
			// (the pairs took it out of the ratio): the full report's.
		case !m.Gated && fb != "":
			k := tail{m.Metric, fb}
			if _, ok := tailAt[k]; !ok {
				tails = append(tails, k)
			}
			if at := m.Workload + " " + m.Op; !slices.Contains(tailAt[k], at) {
				tailAt[k] = append(tailAt[k], at)
			}
			tailOps[k] = append(tailOps[k], m.OpsPerTrial)
		default:
			at := m.Workload + " " + m.Op
			if !noteNamesMetric(m.Note, m.Metric) {
				at += " " + m.Metric
			}
			add(m.Note, at)
		}
	}
	for _, k := range tails {
		note := compare.TailNotes(k.metric, k.fallback, tailOps[k])
		for _, at := range tailAt[k] {
			add(note, at)
		}
	}
	for _, w := range c.Warnings {
		add(w, "")
	}
	out := make([]string, 0, len(order))
	for _, n := range order {
		s := "Note: " + n
		if at := where[n]; len(at) > 0 {
			s = "Note (" + strings.Join(at, ", ") + "): " + n
		}
		out = append(out, s)
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

// voteGate says what the verdict held each gated metric to: "Held to:
// p50 5% a workload, 3% over all workloads; ...", latencies first, then
// the servers' costs, each tolerance once.
func voteGate(c *compare.Comparison) string {
	if c.Descriptive {
		return ""
	}
	type tols struct{ each, over []float64 }
	byMetric := map[string]*tols{}
	var order []string
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
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(metric.Rank(a), metric.Rank(b)) })
	pcts := func(fs []float64) string {
		var ps []string
		for _, f := range fs {
			ps = append(ps, fmt.Sprintf("%.3g%%", f*100))
		}
		return strings.Join(ps, "/")
	}
	var parts []string
	for _, name := range order {
		t := byMetric[name]
		s := name
		if len(t.each) > 0 {
			s += " " + pcts(t.each) + " a workload"
		}
		if len(t.over) > 0 {
			if len(t.each) > 0 {
				s += ","
			}
			s += " " + pcts(t.over) + " pooled"
		}
		parts = append(parts, s)
	}
	return "Held to (worse by more than this is REGRESSION): " + strings.Join(parts, "; ")
}

// regressedLines are the REGRESSED rows and held rates in the vote's words,
// latency first then the servers' cost, largest first: what the text
// report says under its verdict, before the table.
func regressedLines(c *compare.Comparison) []string {
	type item struct {
		cost bool
		size float64
		line string
	}
	var items []item
	for _, m := range c.Metrics {
		if m.Status != compare.Regressed || !finite(m.Ratio) || m.Ratio <= 0 {
			continue
		}
		items = append(items, item{metric.Of(m.Metric).Scope != metric.PerOp, math.Abs(math.Log(m.Ratio)), voteMetric(m)})
	}
	for _, h := range c.HeldRate {
		if h.Status == compare.Regressed {
			items = append(items, item{true, math.Inf(1), fmt.Sprintf("- %s held rate %.0f ops/s: missed in %d of %d candidate and %d of %d baseline trials, %s",
				h.Workload, h.TargetOpsPerSec, h.CandidateMissed, h.CandidateTrials, h.BaselineMissed, h.BaselineTrials, h.Status)})
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		if a.cost != b.cost {
			if a.cost {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.size, a.size)
	})
	var out []string
	for _, it := range items {
		out = append(out, it.line)
	}
	return out
}
