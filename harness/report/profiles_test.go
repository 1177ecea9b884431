package report

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/profile"
)

const burnFrame = "org.regress.testdata.SlowGetObserver.burn"

// slowGetProfile is a workload's differential where the candidate burns CPU in SlowGetObserver.burn.
func slowGetProfile(t *testing.T, workload string) WorkloadProfile {
	t.Helper()
	const get = "java.lang.Thread.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get;org.apache.hadoop.hbase.regionserver.HRegion.get"
	p := WorkloadProfile{Workload: workload, BaseTrials: 1, CandTrials: 1}
	for _, k := range []struct {
		kind       profile.Kind
		base, cand profile.Folded
		into       *KindProfile
	}{
		{profile.CPU, profile.Folded{get: 400}, profile.Folded{get: 420, get + ";" + burnFrame: 300}, &p.CPU},
		{profile.Alloc, profile.Folded{get: 4 << 20}, profile.Folded{get: 5 << 20}, &p.Alloc},
	} {
		b, c := profile.Side{Stacks: k.base, Ops: 100_000}, profile.Side{Stacks: k.cand, Ops: 90_000}
		d, err := profile.Diff(k.kind, b, c, 0)
		if err != nil {
			t.Fatal(err)
		}
		*k.into = KindProfile{Base: b, Cand: c, Diff: d}
	}
	return p
}

// profiledReport is the paired fixture (workloada READ p99 REGRESSED) with
// a differential for workloada and one for workloadb, which did not regress.
func profiledReport(t *testing.T) Report {
	r := Report{Comparison: pairedFixture(), Profiles: []WorkloadProfile{slowGetProfile(t, "workloada"), slowGetProfile(t, "workloadb")},
		ProfileNotes: []string{"2.6.2: no profile: JFR is off"}}
	r.Comparison.HeldRate = nil // only workloada regressed
	return r
}

func TestProfilesShowWhereAMetricRegressed(t *testing.T) {
	r := profiledReport(t)
	for _, tc := range []struct {
		format      string
		want, avoid []string
	}{
		// The terminal's is a line a workload; the tables are report.md's and report.html's.
		{FormatText, []string{"differential profiles of what regressed", "  - workloada: CPU x2 (grew: SlowGetObserver.burn +3.33 samples/1k ops)", "profile notes:", "JFR is off"},
			[]string{"  - workloadb:", "differential profile, workloadb"}},
		{FormatMarkdown, []string{"#### differential profile, workloada", "```text\nCPU samples: baseline 400", "SlowGetObserver.burn"}, []string{"differential profile, workloadb"}},
		{FormatHTML, []string{"differential profile, workloada", "<svg", `href="profiles/workloada.candidate.cpu.folded"`, `href="profiles/workloada.baseline.alloc.folded"`, "JFR is off",
			"<details><summary>Frames and stacks that changed most", "<pre>CPU samples: baseline 400", "above 0.01 maybe chance"}, []string{"differential profile, workloadb", "<script"}},
		// The cause named from the regressed row's profiled pair: from the
		// frame both sides share to the new one.
		{FormatVote, []string{"Cause (CPU, workloada READ p99: +3.33 samples/1k ops in workloada; 0.0% -> 41.7% of the side's samples", "HRegion.get -> SlowGetObserver.burn"}, []string{"in workloadb", "workloadb, self share"}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, tc.format, r); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			if tc.format == FormatVote {
				text = unwrapVote(strings.Split(text, "\n"))
			}
			for _, s := range tc.want {
				if !strings.Contains(text, s) {
					t.Errorf("lacks %q:\n%s", s, b.String())
				}
			}
			for _, s := range tc.avoid {
				if strings.Contains(b.String(), s) {
					t.Errorf("shows %q, which did not regress", s)
				}
			}
		})
	}
}

func TestProfilesLeaveTheReportsAsTheyWereWithoutProfiles(t *testing.T) {
	for _, f := range []string{FormatText, FormatJSON, FormatHTML} {
		var with, without bytes.Buffer
		r := Report{Comparison: pairedFixture()}
		if err := Render(&without, f, r); err != nil {
			t.Fatal(err)
		}
		r.Profiles, r.ProfileNotes = []WorkloadProfile{}, nil
		if err := Render(&with, f, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(with.Bytes(), without.Bytes()) || strings.Contains(with.String(), "profile") {
			t.Errorf("%s: an empty profile list changed the report or mentions profiles", f)
		}
	}
}

func TestProfilesJSONCarriesEveryWorkload(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, FormatJSON, profiledReport(t)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Profiles []struct {
			Workload  string `json:"workload"`
			Regressed bool   `json:"regressed"`
			CPU       struct {
				BaseOps int64 `json:"base_ops"`
				Frames  []struct {
					Frame string `json:"frame"`
				} `json:"frames"`
			} `json:"cpu"`
			Files []string `json:"files"`
		} `json:"profiles"`
		Notes []string `json:"profile_notes"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Profiles) != 2 || !got.Profiles[0].Regressed || got.Profiles[1].Regressed {
		t.Fatalf("profiles %+v: want workloada regressed and workloadb not", got.Profiles)
	}
	p := got.Profiles[0]
	if p.CPU.BaseOps != 100_000 || len(p.CPU.Frames) == 0 || p.CPU.Frames[0].Frame != burnFrame || len(p.Files) != 4 || len(got.Notes) != 1 {
		t.Errorf("workloada: %+v, notes %q", p, got.Notes)
	}
}

func TestWriteAllWritesEachSidesFoldedStacks(t *testing.T) {
	dir := t.TempDir()
	r := profiledReport(t)
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "profiles", "workloada.candidate.cpu.folded"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := profile.ReadFolded(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total() != r.Profiles[0].CPU.Cand.Stacks.Total() {
		t.Errorf("folded file holds %d samples, want %d", got.Total(), r.Profiles[0].CPU.Cand.Stacks.Total())
	}
	for _, name := range []string{"vote.txt", "profiles/workloadb.baseline.alloc.folded"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
}

func TestMarkdownStartsWithTheVoteParagraph(t *testing.T) {
	r := Report{Comparison: pairedFixture(), Vote: Vote{Report: "https://ci.example.org/run/7/report.html"}}
	var md, vote bytes.Buffer
	if err := Render(&md, FormatMarkdown, r); err != nil {
		t.Fatal(err)
	}
	if err := Render(&vote, FormatVote, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "```text\n"+vote.String()+"```\n\n### regress:") {
		t.Errorf("report.md does not open with the vote paragraph:\n%.600s", md.String())
	}
	if n := strings.Count(vote.String(), "\n"); n > VoteMaxLines || !strings.Contains(vote.String(), "Full report: https://ci.example.org/run/7/report.html") {
		t.Errorf("vote: %d lines:\n%s", n, vote.String())
	}
	// A path on this machine tells a voter nothing: no "Full report:" line.
	r.Vote.Report = "reports/x/report.html"
	vote.Reset()
	if err := Render(&vote, FormatVote, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(vote.String(), "reports/x") {
		t.Errorf("vote names a local path:\n%s", vote.String())
	}
	if regressedWorkload(r.Comparison, "workloadb") || !regressedWorkload(r.Comparison, "workloadc") {
		t.Error("regressedWorkload: workloadb did not regress; workloadc missed its held rate")
	}
}

// TestFlameGraphRendersInChromium opens a report whose regressed workload
// has a differential profile in headless Chromium: the frame that grew most
// (SlowGetObserver.burn) must be drawn in the deepest red.
func TestFlameGraphRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	if _, err := WriteAll(dir, profiledReport(t)); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, bin, filepath.Join(dir, "report.html"), 5000)
	// diffColour's deepest red, rgb(255,45,45): the largest growth.
	if n := countColour(img, "#ff2d2d"); n < 200 {
		t.Errorf("the frame that grew most is drawn on %d pixels, want a visible deep red frame", n)
	}
}

// TestProfileHeadingNamesTheProfiler: JFR when the source is not given (every
// stored profile before /prof), the source's words otherwise.
func TestProfileHeadingNamesTheProfiler(t *testing.T) {
	p := WorkloadProfile{Workload: "workloadc", BaseTrials: 1, CandTrials: 1}
	if h := profileHeading(p); !strings.Contains(h, "(JFR on every region server; 1 baseline") {
		t.Errorf("heading %q, want JFR named", h)
	}
	p.Source = "async-profiler through /prof on every region server"
	if h := profileHeading(p); !strings.Contains(h, "(async-profiler through /prof on every region server; 1 baseline") {
		t.Errorf("heading %q, want async-profiler named", h)
	}
}

// TestVoteFramesComeFromAWorkloadThatRegressed: a workload only pooled into
// a regressed row over all workloads gives way to one whose own row
// regressed (wg2 named workload A's waits; D's and F's Gets had regressed).
func TestVoteFramesComeFromAWorkloadThatRegressed(t *testing.T) {
	c := pairedFixture()
	c.Metrics = []compare.MetricResult{
		{Workload: "all workloads", Op: "reads", Metric: "p50", Ratio: 1.16, Status: compare.Regressed, Gated: true, Primary: true, Pools: []string{"workloada", "workloadd"}},
		{Workload: "workloada", Op: "READ", Metric: "p50", Ratio: 1.14, Status: compare.Inconclusive, Gated: true},
		{Workload: "workloadd", Op: "READ", Metric: "p50", Ratio: 1.16, Status: compare.Regressed, Gated: true},
	}
	r := Report{Comparison: c, Profiles: []WorkloadProfile{slowGetProfile(t, "workloada"), slowGetProfile(t, "workloadd")}}
	frames := voteFrames(r)
	if len(frames) == 0 || frames[0].Workload != "workloadd" {
		t.Fatalf("vote frames %+v, want workloadd's first", frames)
	}
}

// waitlessProfile is slowGetProfile with a wait differential whose
// candidate recorded no wait (a loaded machine's pair: no wait above JFR's
// threshold), and a baseline that recorded no allocation.
func waitlessProfile(t *testing.T, workload string) WorkloadProfile {
	t.Helper()
	p := slowGetProfile(t, workload)
	for _, k := range []struct {
		kind       profile.Kind
		base, cand profile.Side
		into       *KindProfile
	}{
		{profile.Wait, profile.Side{Stacks: profile.Folded{"[lock];rpc;get": 9000}, Samples: profile.Folded{"[lock];rpc;get": 9}, Ops: 100_000},
			profile.Side{Stacks: profile.Folded{}, Samples: profile.Folded{}, Ops: 90_000}, &p.Wait},
		{profile.Alloc, profile.Side{Stacks: profile.Folded{}, Ops: 100_000}, p.Alloc.Cand, &p.Alloc},
	} {
		d, err := profile.Diff(k.kind, k.base, k.cand, 0)
		if err != nil {
			t.Fatal(err)
		}
		*k.into = KindProfile{Base: k.base, Cand: k.cand, Diff: d}
	}
	return p
}

// TestAnEmptySideIsNotListed: a side that recorded nothing of a kind has
// no folded file, in the report dir or in any report's list of files, and
// every report says it recorded none; every file listed holds stacks.
func TestAnEmptySideIsNotListed(t *testing.T) {
	r := profiledReport(t)
	r.Profiles[0] = waitlessProfile(t, "workloada")
	const (
		noWait  = "workloada: no waits recorded on the candidate's request threads in this pair"
		noAlloc = "workloada: no allocation samples recorded on the baseline's region servers in this pair"
	)
	dir := t.TempDir()
	written, err := WriteAll(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"workloada.candidate.wait.folded", "workloada.baseline.alloc.folded"} {
		if _, err := os.Stat(filepath.Join(dir, "profiles", name)); err == nil {
			t.Errorf("profiles/%s written for a side that recorded nothing", name)
		}
	}
	for _, name := range []string{"workloada.baseline.wait.folded", "workloada.candidate.alloc.folded", "workloadb.baseline.alloc.folded"} {
		if st, err := os.Stat(filepath.Join(dir, "profiles", name)); err != nil || st.Size() == 0 {
			t.Errorf("profiles/%s not written with its stacks: %v", name, err)
		}
	}
	for _, path := range written {
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			t.Errorf("WriteAll lists %s, which is empty or missing: %v", path, err)
		}
	}
	for _, f := range []string{"report.txt", "report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if text := html.UnescapeString(string(b)); !strings.Contains(text, noWait) || !strings.Contains(text, noAlloc) ||
			strings.Contains(text, "candidate.wait.folded") || strings.Contains(text, "baseline.alloc.folded\"") {
			t.Errorf("%s does not say which sides recorded nothing, or links their files:\n%s", f, text)
		}
	}
	var got struct {
		Profiles []struct {
			Workload string   `json:"workload"`
			Files    []string `json:"files"`
			Wait     *struct {
				CandTotal int64 `json:"cand_total"`
			} `json:"wait"`
		} `json:"profiles"`
		Notes []string `json:"profile_notes"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	p := got.Profiles[0]
	if p.Wait == nil || p.Wait.CandTotal != 0 || len(p.Files) != 4 || !slices.Contains(got.Notes, noWait+"; compared as none, no folded file written") {
		t.Errorf("JSON profile %+v, notes %q: want the wait differential against an empty candidate, four files listed, and the note", p, got.Notes)
	}
	for _, f := range p.Files {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil || st.Size() == 0 {
			t.Errorf("report.json lists %s, which is empty or missing: %v", f, err)
		}
	}
}
