package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/profile"
)

// WorkloadProfile is one workload's differential profile (--profile): each
// side's stacks summed over its region servers and profiled trials, with
// the operations those trials served, and what changed per operation.
type WorkloadProfile struct {
	Workload string
	// Trials counts the profiled trials pooled on each side.
	BaseTrials, CandTrials int
	// CPU, Alloc and Wait (the request threads' wall-clock waits) are the
	// per-kind sides and differentials; a differential is nil when neither
	// side recorded that kind.
	CPU, Alloc, Wait KindProfile
	// Source says what sampled the stacks; "" is JFR on every region server.
	Source string
	// BaseMissed and CandMissed count each side's profiled trials that did
	// not hold the rate its counted trials held: the vote takes no cause
	// from such a pair (its stacks per operation are a stall's).
	BaseMissed, CandMissed int
}

// Held reports whether both sides' profiled trials held their rate.
func (p WorkloadProfile) Held() bool { return p.BaseMissed == 0 && p.CandMissed == 0 }

// KindProfile is one kind of stacks (CPU samples or allocated bytes) of a workload's differential.
type KindProfile struct {
	Base, Cand profile.Side
	Diff       *profile.Differential
}

// profileKinds lists a workload's kinds in the order the reports show them.
func (p WorkloadProfile) profileKinds() []struct {
	kind profile.Kind
	k    KindProfile
} {
	return []struct {
		kind profile.Kind
		k    KindProfile
	}{{profile.Wait, p.Wait}, {profile.CPU, p.CPU}, {profile.Alloc, p.Alloc}}
}

// regressedWorkload reports whether a metric or the held-rate check of
// workload w REGRESSED, or a primary row that pools w did (a wait on the
// Get path is REGRESSED by the reads row with every workload's own row
// undecided: their profiles say where the time went).
func regressedWorkload(c *compare.Comparison, w string) bool {
	for _, m := range c.Metrics {
		if m.Status == compare.Regressed && (m.Workload == w || m.Primary && slices.Contains(m.Pools, w)) {
			return true
		}
	}
	for _, h := range c.HeldRate {
		if h.Workload == w && h.Status == compare.Regressed {
			return true
		}
	}
	return false
}

// ownRowRegressed reports whether a row of workload w itself REGRESSED.
func ownRowRegressed(c *compare.Comparison, w string) bool {
	return slices.ContainsFunc(c.Metrics, func(m compare.MetricResult) bool { return m.Status == compare.Regressed && m.Workload == w })
}

// shownProfiles are the profiles the text, Markdown and HTML reports show:
// those of workloads where something REGRESSED.
func shownProfiles(r Report) []WorkloadProfile {
	var out []WorkloadProfile
	for _, p := range r.Profiles {
		if regressedWorkload(r.Comparison, p.Workload) {
			out = append(out, p)
		}
	}
	return out
}

// profileHeading says whose stacks a workload's differential compares.
func profileHeading(p WorkloadProfile) string {
	return fmt.Sprintf("differential profile, %s (%s; %d baseline and %d candidate trials; normalised per operation)",
		p.Workload, cmp.Or(p.Source, "JFR on every region server"), p.BaseTrials, p.CandTrials)
}

// writeProfilesMarkdown writes the same tables, each in a fenced block (the columns are aligned text).
func writeProfilesMarkdown(w io.Writer, r Report) error {
	var b bytes.Buffer
	for _, p := range shownProfiles(r) {
		fmt.Fprintf(&b, "\n#### %s\n", mdEscape(profileHeading(p)))
		for _, k := range p.profileKinds() {
			if k.k.Diff == nil {
				continue
			}
			b.WriteString("\n```text\n")
			if err := profile.WriteDiffTable(&b, k.k.Diff); err != nil {
				return err
			}
			b.WriteString("```\n")
		}
	}
	if notes := profileNotes(r); len(notes) > 0 {
		b.WriteString("\nProfile notes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", mdEscape(n))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// jsonProfile is one workload's differential in the JSON report.
type jsonProfile struct {
	Workload   string                `json:"workload"`
	Regressed  bool                  `json:"regressed"`
	BaseTrials int                   `json:"baseline_trials"`
	CandTrials int                   `json:"candidate_trials"`
	CPU        *profile.Differential `json:"cpu,omitempty"`
	Alloc      *profile.Differential `json:"alloc,omitempty"`
	// Wait is the request threads' wall-clock waits, in microseconds.
	Wait *profile.Differential `json:"wait,omitempty"`
	// Files are the folded stacks WriteAll puts in the report dir, relative to it.
	Files []string `json:"files,omitempty"`
}

// jsonProfiles is every workload's differential, regressed or not: data for scripts.
func jsonProfiles(r Report) []jsonProfile {
	var out []jsonProfile
	for _, p := range r.Profiles {
		jp := jsonProfile{Workload: p.Workload, Regressed: regressedWorkload(r.Comparison, p.Workload),
			BaseTrials: p.BaseTrials, CandTrials: p.CandTrials, CPU: p.CPU.Diff, Alloc: p.Alloc.Diff, Wait: p.Wait.Diff}
		for _, f := range foldedFiles(p) {
			jp.Files = append(jp.Files, f.rel)
		}
		out = append(out, jp)
	}
	return out
}

// foldedFile is one side's stacks of one kind as WriteAll writes it.
type foldedFile struct {
	rel    string // under the report dir, slash-separated
	side   string // "baseline" or "candidate"
	kind   profile.Kind
	stacks profile.Folded
}

// foldedFiles lists a workload's folded files: profiles/<workload>.<side>.<kind>.folded,
// one a side and kind of each differential whose side recorded something
// (emptySides: a file that holds no stack is neither written nor listed).
func foldedFiles(p WorkloadProfile) []foldedFile {
	var out []foldedFile
	for _, k := range p.profileKinds() {
		if k.k.Diff == nil {
			continue
		}
		for _, s := range []struct {
			name   string
			stacks profile.Folded
		}{{"baseline", k.k.Base.Stacks}, {"candidate", k.k.Cand.Stacks}} {
			if s.stacks.Total() == 0 {
				continue
			}
			out = append(out, foldedFile{rel: "profiles/" + safeFile(p.Workload) + "." + s.name + "." + string(k.kind) + ".folded",
				side: s.name, kind: k.kind, stacks: s.stacks})
		}
	}
	return out
}

// emptySides says, for each differential of p with a side that recorded no
// sample or event of its kind, that it recorded none: on a loaded machine a
// pair's request threads may wait above JFR's threshold not once. That
// side is compared as empty, and has no folded file.
func emptySides(p WorkloadProfile) []string {
	var out []string
	for _, k := range p.profileKinds() {
		if k.k.Diff == nil {
			continue
		}
		for _, s := range []struct {
			name   string
			trials int
			stacks profile.Folded
		}{{"baseline", p.BaseTrials, k.k.Base.Stacks}, {"candidate", p.CandTrials, k.k.Cand.Stacks}} {
			if s.stacks.Total() != 0 {
				continue
			}
			where := "in this pair"
			if s.trials > 1 {
				where = fmt.Sprintf("in its %d profiled trials", s.trials)
			}
			out = append(out, fmt.Sprintf("%s: no %s recorded on the %s's %s %s; compared as none, no folded file written",
				p.Workload, emptyWhat(k.kind), s.name, emptyWhere(k.kind), where))
		}
	}
	return out
}

// emptyWhat and emptyWhere name what a kind's profile records, and on which threads.
func emptyWhat(k profile.Kind) string {
	switch k {
	case profile.Alloc:
		return "allocation samples"
	case profile.Wait:
		return "waits"
	}
	return "CPU samples"
}

func emptyWhere(k profile.Kind) string {
	if k == profile.Wait {
		return "request threads"
	}
	return "region servers"
}

// profileNotes are the report's profile notes: r.ProfileNotes, then each
// workload's sides that recorded nothing (emptySides).
func profileNotes(r Report) []string {
	notes := slices.Clone(r.ProfileNotes)
	for _, p := range r.Profiles {
		notes = append(notes, emptySides(p)...)
	}
	return notes
}

// writeFoldedFiles writes every workload's folded files under dir and returns their paths.
func writeFoldedFiles(dir string, r Report) ([]string, error) {
	var written []string
	for _, p := range r.Profiles {
		for _, f := range foldedFiles(p) {
			path := filepath.Join(dir, filepath.FromSlash(f.rel))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return written, fmt.Errorf("report: create %s: %w", filepath.Dir(path), err)
			}
			if err := profile.WriteFoldedFile(path, f.stacks); err != nil {
				return written, fmt.Errorf("report: %w", err)
			}
			written = append(written, path)
		}
	}
	return written, nil
}

// htmlProfile is one regressed workload's differential on the page.
type htmlProfile struct {
	Heading string
	Graphs  []htmlFlame
	Links   []htmlLink
	// Open shows the graphs; a workload whose differentials name no frame
	// (none grew beyond chance) is folded, its heading saying so.
	Open bool
}

type htmlFlame struct {
	Title string
	SVG   template.HTML
	Table string // the differential table as text reports print it (with each CPU frame's p)
}

type htmlLink struct {
	Href, Text string
}

// htmlProfiles draws each regressed workload's differential flame graphs
// (self-contained SVG) and links each side's folded files, which WriteAll
// writes beside the page.
func htmlProfiles(r Report) ([]htmlProfile, error) {
	var out []htmlProfile
	for _, p := range shownProfiles(r) {
		hp := htmlProfile{Heading: profileHeading(p)}
		for _, k := range p.profileKinds() {
			if k.k.Diff == nil {
				continue
			}
			title := fmt.Sprintf("%s: %s per operation, %s", p.Workload, kindTitle(k.kind), r.Comparison.Candidate.Name+" vs "+r.Comparison.Baseline.Name)
			var svg strings.Builder
			if err := profile.WriteFlameGraph(&svg, title, k.kind, k.k.Base, k.k.Cand); err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
			var table strings.Builder
			if err := profile.WriteDiffTable(&table, k.k.Diff); err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
			// WriteFlameGraph escapes every text node it writes; the table
			// is text, escaped by the template.
			hp.Graphs = append(hp.Graphs, htmlFlame{Title: title, SVG: template.HTML(svg.String()), Table: table.String()})
		}
		for _, f := range foldedFiles(p) {
			hp.Links = append(hp.Links, htmlLink{Href: f.rel, Text: f.side + " " + kindTitle(f.kind) + " (folded)"})
		}
		for _, k := range p.profileKinds() {
			hp.Open = hp.Open || k.k.Diff != nil && len(VoteFrames(p.Workload, k.k.Diff)) > 0
		}
		out = append(out, hp)
	}
	// With no frame named anywhere, the first workload's graphs show.
	if len(out) > 0 && !slices.ContainsFunc(out, func(h htmlProfile) bool { return h.Open }) {
		out[0].Open = true
	}
	return out, nil
}

func kindTitle(k profile.Kind) string {
	switch k {
	case profile.Alloc:
		return "allocated bytes"
	case profile.Wait:
		return "request threads' wait time"
	}
	return "CPU samples"
}

// voteFrames are the frames that grew in the regressed workloads: where
// the waiting time went first when a latency regressed (CPU samples cannot
// see a wait), then CPU, then allocation.
func voteFrames(r Report) []VoteFrame {
	var out []VoteFrame
	kinds := []profile.Kind{profile.CPU, profile.Alloc, profile.Wait}
	if latencyRegressed(r.Comparison) {
		kinds = []profile.Kind{profile.Wait, profile.CPU, profile.Alloc}
	}
	// A workload whose own row regressed explains the change better than
	// one only pooled into a row over all workloads (wg2 named workload
	// A's waits, where the regressed Gets were D's and F's).
	// A pair that missed its rate explains a stall, not the change.
	shown := slices.DeleteFunc(shownProfiles(r), func(p WorkloadProfile) bool { return !p.Held() })
	slices.SortStableFunc(shown, func(a, b WorkloadProfile) int {
		return boolFirst(ownRowRegressed(r.Comparison, a.Workload), ownRowRegressed(r.Comparison, b.Workload))
	})
	for _, kind := range kinds {
		for _, p := range shown {
			for _, k := range p.profileKinds() {
				if k.kind == kind && k.k.Diff != nil {
					out = append(out, VoteFrames(p.Workload, k.k.Diff)...)
				}
			}
		}
	}
	return out
}

// latencyRegressed reports whether a latency (a per-operation metric) REGRESSED.
func latencyRegressed(c *compare.Comparison) bool {
	for _, m := range c.Metrics {
		if m.Status == compare.Regressed && metric.Of(m.Metric).Scope == metric.PerOp {
			return true
		}
	}
	return false
}

// writeProfilesSummary writes, for the terminal, each regressed
// workload's differentials in a line: each kind's change per operation and
// the frames that grew beyond chance (the tables are report.md's and
// report.html's), then the profile notes.
func writeProfilesSummary(b *bytes.Buffer, r Report) {
	shown := shownProfiles(r)
	if len(shown) > 0 {
		b.WriteString("\ndifferential profiles of what regressed (per operation; the frames that grew beyond chance; every frame and stack: report.md, report.html):\n")
	}
	short := map[profile.Kind]string{profile.Wait: "waits", profile.CPU: "CPU", profile.Alloc: "allocation"}
	for _, p := range shown {
		var parts []string
		for _, k := range p.profileKinds() {
			d := k.k.Diff
			if d == nil || d.BaseOps <= 0 || d.CandOps <= 0 || d.BaseTotal <= 0 {
				continue
			}
			part := short[k.kind] + " " + voteRatio(float64(d.CandTotal)/float64(d.CandOps)/(float64(d.BaseTotal)/float64(d.BaseOps)))
			var grew []string
			for _, f := range d.Frames {
				if d.FrameNamed(f) && len(grew) < 3 {
					grew = append(grew, profile.ShortFrame(f.Frame)+" "+profile.FormatPerOp(d.Kind, f.Self.Delta()))
				}
			}
			if len(grew) > 0 {
				part += " (grew: " + strings.Join(grew, ", ") + ")"
			}
			parts = append(parts, part)
		}
		if len(parts) > 0 {
			fmt.Fprintf(b, "  - %s: %s\n", p.Workload, strings.Join(parts, "; "))
		}
	}
	if notes := profileNotes(r); len(notes) > 0 {
		b.WriteString("\nprofile notes:\n")
		for _, n := range notes {
			fmt.Fprintf(b, "  - %s\n", n)
		}
	}
}
