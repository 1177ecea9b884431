package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/profile"
)

const tailNote = "p99 not gated: a trial recorded only 2000 operations, so 20 samples lie beyond p99 (50 needed; p99 needs 5000 operations per trial); p95 gates in its place"

// voteComparison is a paired REGRESSION whose tail-sample note applies to two
// metrics, with a sub-millisecond p50 and a held rate the candidate missed.
func voteComparison() *compare.Comparison {
	return &compare.Comparison{
		Verdict: compare.Regression, Suite: "quick", Paired: true, Interleaved: true, Alpha: 0.05, Looks: 2, LookAlpha: 0.025,
		Baseline: compare.Side{Name: "2.6.1", Trials: 15}, Candidate: compare.Side{Name: "2.6.2", Trials: 15},
		Metrics: []compare.MetricResult{
			{Workload: "workloada", Op: "READ", Metric: "p99", Unit: "us", Baseline: 3335, Candidate: 3568.45, Ratio: 1.07, CILow: 1.03, CIHigh: 1.11, Status: compare.Regressed, Gated: true},
			{Workload: "workloada", Op: "READ", Metric: "p50", Unit: "us", Baseline: 641, Candidate: 647.4, Ratio: 1.01, CILow: 0.99, CIHigh: 1.03, Status: compare.Unchanged, Gated: true},
			{Workload: "workloada", Op: "UPDATE", Metric: "p99", Unit: "us", Baseline: 4635, Candidate: 4125, Ratio: 0.89, CILow: 0.85, CIHigh: 0.93, Status: compare.Improved, Gated: true},
			{Workload: "workloadb", Op: "UPDATE", Metric: "p99", Unit: "us", Baseline: 5100, Candidate: 5000, Ratio: 0.98, CILow: 0.8, CIHigh: 1.2, Status: compare.Inconclusive, Note: tailNote},
			{Workload: "workloadb", Op: "READ", Metric: "p99", Unit: "us", Baseline: 5100, Candidate: 5000, Ratio: 0.98, CILow: 0.8, CIHigh: 1.2, Status: compare.Inconclusive, Note: tailNote},
			{Workload: "workloadb", Op: "UPDATE", Metric: "p95", Unit: "us", Baseline: 2100, Candidate: 2050, Ratio: 0.976, CILow: 0.85, CIHigh: 1.04, Status: compare.NotWorse, Gated: true, GatedFor: "p99"},
			{Workload: "workloadc", Op: "ALL", Metric: "throughput", Unit: "ops/s", Baseline: 9998, Candidate: 9996.1, Ratio: 0.9998, CILow: 0.999, CIHigh: 1.0006, Status: compare.Unchanged, Gated: true},
		},
		HeldRate: []compare.HeldRate{
			{Workload: "workloadc", TargetOpsPerSec: 10000, BaselineTrials: 5, CandidateTrials: 5, CandidateMissed: 5, CandidateOnly: 5, Status: compare.Regressed, Gated: true, P: 0.001},
		},
		Warnings: []string{"baseline environment differs: cores: 2 != 4"},
	}
}

// slowGetFrames is the differential of a candidate whose coprocessor burns CPU in every Get.
func slowGetFrames(t *testing.T) []VoteFrame {
	const get = "java.lang.Thread.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get;org.apache.hadoop.hbase.regionserver.HRegion.get"
	d, err := profile.Diff(profile.CPU,
		profile.Side{Ops: 1_000_000, Stacks: profile.Folded{get + ";org.apache.hadoop.hbase.regionserver.StoreScanner.next": 400, get: 20}},
		profile.Side{Ops: 1_100_000, Stacks: profile.Folded{get + ";org.apache.hadoop.hbase.regionserver.StoreScanner.next": 440, get: 30,
			get + ";org.apache.hadoop.hbase.regionserver.RegionCoprocessorHost.preGet;org.regress.testdata.SlowGetObserver.burn": 300}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return VoteFrames("workloadc", d)
}

func fullVote(t *testing.T) Vote {
	return Vote{
		Baseline:  VoteSide{Version: "2.6.1", JarDigest: "sha256:9b8e7f6a5d4c3b2a1f0e"},
		Candidate: VoteSide{Version: "2.6.2", RC: "RC1", JarDigest: "sha256:3f2a9c1d00112233"},
		Machine:   "2 cores, 8 GiB, Linux 6.1", JDK: "OpenJDK 17.0.15", Hadoop: "3.3.6",
		Detectable: []Detectable{{Metric: "p99", Fraction: 0.031}, {Metric: "throughput", Fraction: 0.012}},
		Frames:     slowGetFrames(t),
		Report:     "reports/20261202T001500Z/report.html",
		Regress:    "regress v0.9.0 (commit 0123456789ab; go1.26.8)",
		Command:    "regress --baseline 2.6.1 --candidate 2.6.2 --candidate-label 2.6.2RC1 --suite quick",
	}
}

func TestVoteGolden(t *testing.T) {
	pass := voteComparison()
	pass.Verdict, pass.Metrics, pass.HeldRate, pass.Warnings = compare.Pass, pass.Metrics[1:2], nil, nil
	for _, tc := range []struct {
		name string
		c    *compare.Comparison
		v    Vote
	}{
		{"vote_regression.txt", voteComparison(), fullVote(t)},
		{"vote_pass.txt", pass, fullVote(t)},
		{"vote_descriptive.txt", descriptiveVoteFixture(), Vote{Report: "reports/import/report.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteVote(&buf, tc.c, tc.v); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.name)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./harness/report -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the golden file; got:\n%s", path, buf.String())
			}
		})
	}
}

// descriptiveVoteFixture is imported YCSB summaries with a p95 printed as 0 ms.
func descriptiveVoteFixture() *compare.Comparison {
	return &compare.Comparison{
		Verdict: compare.VerdictDescriptive, Suite: "ycsb-import", Descriptive: true,
		Baseline: compare.Side{Name: "0.98.4", Trials: 1}, Candidate: compare.Side{Name: "1.2.1", Trials: 2},
		Metrics: []compare.MetricResult{
			{Workload: "workloada", Op: "READ", Metric: "p99", Unit: "us", Baseline: 4875, Candidate: 3335, Ratio: 0.684, Status: compare.Descriptive, Gated: true},
			{Workload: "workloada", Op: "READ", Metric: "p95", Unit: "us", Baseline: 1000, Candidate: 2000, Ratio: 2, Status: compare.Descriptive, Gated: true,
				BaselineBelow: true, Note: "p95 printed as 0 ms, i.e. below 1 ms, on the baseline"},
		},
	}
}

// smokeTails is smoke's PASS whose rarer operations were too few for p95,
// each trial's count its own.
func smokeTails() *compare.Comparison {
	c := &compare.Comparison{Verdict: compare.Pass, Suite: "smoke", Paired: true}
	for _, m := range []struct {
		w, op string
		ops   int64
	}{{"workloadb", "UPDATE", 117}, {"workloadd", "INSERT", 108}, {"workloade", "INSERT", 104}} {
		c.Metrics = append(c.Metrics,
			compare.MetricResult{Workload: m.w, Op: m.op, Metric: "p95", Unit: "us", Baseline: 1250, Candidate: 1350, Ratio: 1.08, CILow: 0.97, CIHigh: 1.21,
				Status: compare.Inconclusive, OpsPerTrial: m.ops, Note: compare.TailNotes("p95", "p50", []int64{m.ops})},
			compare.MetricResult{Workload: m.w, Op: m.op, Metric: "p50", Unit: "us", Baseline: 900, Candidate: 905, Ratio: 1.005, CILow: 0.98, CIHigh: 1.03,
				Status: compare.Unchanged, Gated: true, GatedFor: "p95", OpsPerTrial: m.ops, Note: "gates in place of p95"})
	}
	return c
}

func TestVoteParagraph(t *testing.T) {
	many := voteComparison()
	for i := range 40 {
		many.Warnings = append(many.Warnings, fmt.Sprintf("warning %d", i))
	}
	for _, tc := range []struct {
		name      string
		c         *compare.Comparison
		v         Vote
		want, not []string
	}{
		{name: "a regression names the frames that grew, not those that shrank", c: voteComparison(), v: fullVote(t),
			want: []string{"Frames that grew (CPU, workloadc, self share): SlowGetObserver.burn 0.0% -> 39.0% (+0.273 samples/1k ops)", "2.6.2 RC1 (jars 3f2a9c1d) vs 2.6.1 (jars 9b8e7f6a)"},
			not:  []string{"StoreScanner"}},
		{name: "a note shared by two metrics is printed once, naming both", c: voteComparison(), v: Vote{},
			want: []string{"Note: workloadb UPDATE, workloadb READ: " + tailNote}},
		{name: "a percentile too few operations kept from gating is one note, whatever each count", c: smokeTails(), v: Vote{},
			want: []string{"Note: workloadb UPDATE, workloadd INSERT, workloade INSERT: p95 not gated: trials recorded only 104 to 117 operations of these types, too few for 50 samples beyond p95 (p95 needs 1000 operations per trial); p50 gates in its place"},
			not:  []string{"recorded only 117", "gates in place of"}},
		{name: "sub-millisecond latencies read in µs", c: &compare.Comparison{Verdict: compare.Pass, Metrics: voteComparison().Metrics[1:2]}, v: Vote{},
			want: []string{"workloada READ p50: 641 µs -> 647 µs, +1.0% [-1.0%, +3.0%], UNCHANGED"}},
		{name: "a held rate the candidate missed is a change", c: voteComparison(), v: Vote{},
			want: []string{"- workloadc held rate 10000 ops/s: missed in 5 of 5 candidate and 0 of 5 baseline trials, REGRESSED"}},
		{name: "no frames without a regression", c: &compare.Comparison{Verdict: compare.Pass, Suite: "smoke"}, v: fullVote(t),
			not: []string{"Frames"}},
		{name: "a JDK is its version and JVM options after the word JDK, printed once", c: &compare.Comparison{Verdict: compare.Pass, Suite: "release"},
			v:    Vote{JDK: "11.0.13 -XX:-TieredCompilation"},
			want: []string{"JDK: 11.0.13 -XX:-TieredCompilation"}, not: []string{"JDK: JDK"}},
		{name: "a slot's worth in a row the verdict does not read stays in the full report; a gated row's names its metric",
			c: &compare.Comparison{Verdict: compare.Pass, Metrics: []compare.MetricResult{
				{Workload: "workloada", Op: "READ", Metric: "p99.9", Note: compare.SlotNotePrefix + " -26.8% [-41.9%, -7.7%] against slot 2 in its pairs (taken out of the ratio)", SlotEffect: 0.73},
				{Workload: "workloadc", Op: "READ", Metric: "p50", Gated: true, Note: compare.SlotNotePrefix + " +2.1% [+0.4%, +3.8%] against slot 2 in its pairs (taken out of the ratio)", SlotEffect: 1.021},
			}},
			want: []string{"Note: workloadc READ p50: slot 1 read +2.1%"}, not: []string{"-26.8%"}},
		{name: "too many notes: those that fit, whole, and no count of the rest nor a path on this machine", c: many, v: fullVote(t),
			want: []string{"Note: warning 0\n"}, not: []string{"more notes", "in the full report", "Full report: reports/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := VoteParagraph(tc.c, tc.v)
			if len(lines) > VoteMaxLines {
				t.Errorf("%d lines, want at most %d", len(lines), VoteMaxLines)
			}
			text := unwrapVote(lines)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("paragraph lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("paragraph has %q:\n%s", n, text)
				}
			}
			if strings.Count(text, tailNote) > 1 {
				t.Errorf("a note is printed more than once:\n%s", text)
			}
		})
	}
	if lines := VoteParagraph(nil, fullVote(t)); lines != nil {
		t.Errorf("VoteParagraph(nil) = %q, want no lines", lines)
	}
	if err := WriteVote(&bytes.Buffer{}, nil, Vote{}); err == nil {
		t.Error("WriteVote accepted a nil comparison")
	}
}

// TestVoteValueSaysLessThanAMillisecondOnlyForImports: a latency reads in
// its own unit ("362 µs -> 1.45 ms", as issue 39's voter wants to see a
// Get become four times slower); only a figure known to lie below a bound
// under a millisecond (YCSB's whole milliseconds printed as 0) reads "< 1 ms".
func TestVoteValueSaysLessThanAMillisecondOnlyForImports(t *testing.T) {
	for _, tc := range []struct {
		metric string
		v      float64
		below  bool
		want   string
	}{
		{"p95", 847, false, "847 µs"},
		{"p95", 1000, true, "< 1 ms"},
		{"mean", 3330, false, "3.33 ms"},
		{metric.CPUPerOp, 311, false, "311 µs"},
	} {
		if got := voteValue(tc.metric, tc.v, tc.below, "us"); got != tc.want {
			t.Errorf("voteValue(%s, %v, below %v) = %q, want %q", tc.metric, tc.v, tc.below, got, tc.want)
		}
	}
	for r, want := range map[float64]string{1.07: "+7.0%", 0.9: "-10.0%", 4.01: "x4.01", 2: "x2"} {
		if got := voteRatio(r); got != want {
			t.Errorf("voteRatio(%v) = %q, want %q", r, got, want)
		}
	}
}

// TestVoteNamesOnlyFramesThatPass: the vote paragraph names a frame only
// when its P passes profile.FrameAlpha, allocation as CPU; an allocation
// frame without a P (stacks stored before the samples were counted) is not
// named, and a lambda reads as the class that wrote it, never a JVM's number.
func TestVoteNamesOnlyFramesThatPass(t *testing.T) {
	const (
		get      = "java.lang.Thread.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get"
		copyLeaf = get + ";java.util.Arrays.copyOfRange"
		split    = get + ";java.util.regex.Pattern.split"
		servlet  = "java.lang.Thread.run;org.apache.hadoop.hbase.http.PrometheusHadoopServlet.doGet;org.apache.hadoop.hbase.http.PrometheusHadoopServlet$$Lambda+0x0000000800c3d440.1852655488.get"
	)
	// Both sides' allocation samples weigh 64 KiB; Arrays.copyOfRange and
	// the servlet's lambda grew by far more than their samples' noise,
	// Pattern.split by two samples.
	base := profile.Side{Ops: 1_000_000, Stacks: profile.Folded{get: 6400 << 16, copyLeaf: 100 << 16, split: 20 << 16, servlet: 10 << 16}}
	cand := profile.Side{Ops: 1_000_000, Stacks: profile.Folded{get: 6400 << 16, copyLeaf: 400 << 16, split: 22 << 16, servlet: 200 << 16}}
	counted := func(s profile.Side) profile.Side {
		s.Samples = profile.Folded{}
		for st, w := range s.Stacks {
			s.Samples[st] = w >> 16
		}
		return s
	}
	// CPU: RSRpcServices.get gained 2 samples of 40, StoreScanner.next 300.
	cpu, err := profile.Diff(profile.CPU,
		profile.Side{Ops: 1_000_000, Stacks: profile.Folded{get: 40, get + ";org.apache.hadoop.hbase.regionserver.StoreScanner.next": 10}},
		profile.Side{Ops: 1_000_000, Stacks: profile.Folded{get: 42, get + ";org.apache.hadoop.hbase.regionserver.StoreScanner.next": 310}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		base, cand profile.Side
		want, not  []string
	}{
		{name: "counted samples: frames that pass are named, one within noise is not", base: counted(base), cand: counted(cand),
			want: []string{"Frames that grew (allocation, workloadc, self share): Arrays.copyOfRange", "PrometheusHadoopServlet (lambda).get", "Frames that grew (CPU, workloadc, self share): StoreScanner.next"},
			not:  []string{"Pattern.split", "RSRpcServices.get", "1852655488", "0x"}},
		{name: "uncounted samples: no allocation frame is named", base: base, cand: cand,
			want: []string{"Frames that grew (CPU, workloadc, self share): StoreScanner.next"},
			not:  []string{"allocation", "Arrays.copyOfRange", "PrometheusHadoopServlet", "RSRpcServices.get"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alloc, err := profile.Diff(profile.Alloc, tc.base, tc.cand, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range alloc.Frames {
				t.Logf("alloc frame %s: %+.0f bytes/op, p %.2g", f.Frame, f.Self.Delta(), f.P)
			}
			v := Vote{Frames: append(VoteFrames("workloadc", cpu), VoteFrames("workloadc", alloc)...)}
			text := unwrapVote(VoteParagraph(voteComparison(), v))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("paragraph lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("paragraph has %q:\n%s", n, text)
				}
			}
		})
	}
}

// TestVotePrimaryRowIsNotAWorkload: a primary row over all workloads is
// counted as none in the suite line and adds no note of its own; the
// verdict's bound is said where the printed interval lies beyond tolerance
// but the row is not REGRESSED.
func TestVotePrimaryRowIsNotAWorkload(t *testing.T) {
	c := &compare.Comparison{Verdict: compare.VerdictInconclusive, Suite: "release", Paired: true, Duet: true, Alpha: 0.05, Looks: 2, LookAlpha: 0.025,
		Baseline: compare.Side{Name: "2.6.1", Trials: 16}, Candidate: compare.Side{Name: "2.6.2", Trials: 16},
		Metrics: []compare.MetricResult{
			{Workload: "workloadc", Op: "ALL", Metric: "cpu_per_op", Unit: "us", Baseline: 165, Candidate: 190, Ratio: 1.15, CILow: 1.12, CIHigh: 1.18,
				RegressionBound: 1.099, Tolerance: 0.10, Status: compare.Inconclusive, Gated: true, Pairs: 8},
			{Workload: "workloadd", Op: "ALL", Metric: "cpu_per_op", Unit: "us", Baseline: 190, Candidate: 191, Ratio: 1.005, CILow: 0.99, CIHigh: 1.02,
				RegressionBound: 0.98, Tolerance: 0.10, Status: compare.Unchanged, Gated: true, Pairs: 8},
			{Workload: compare.AllWorkloads, Op: "ALL", Metric: "cpu_per_op", Unit: "us", Baseline: 177, Candidate: 190, Ratio: 1.07, CILow: 1.05, CIHigh: 1.09,
				RegressionBound: 1.05, Tolerance: 0.10, Status: compare.Inconclusive, Gated: true, Primary: true, Pairs: 8, Note: "primary: ..."},
		},
	}
	var b bytes.Buffer
	if err := WriteVote(&b, c, Vote{Baseline: VoteSide{Version: "2.6.1"}, Candidate: VoteSide{Version: "2.6.2"}}); err != nil {
		t.Fatal(err)
	}
	out := unwrapVote(strings.Split(b.String(), "\n"))
	if !strings.Contains(out, "over 2 workloads") || strings.Contains(out, "primary: ...") {
		t.Errorf("vote:\n%s\nwant the suite line over 2 workloads and no primary note", out)
	}
	if !strings.Contains(out, "the verdict's bound, Holm-adjusted over the gated metrics: +9.9%") {
		t.Errorf("vote:\n%s\nwant workloadc's verdict bound beside its interval", out)
	}
}

// unwrapVote joins the paragraph's lines, each continuation (wrapVote's
// indent) back onto its line, so a test reads a change or a note whole.
func unwrapVote(lines []string) string {
	return strings.ReplaceAll(strings.Join(lines, "\n"), "\n  ", " ")
}

// TestVoteFitsAPlainTextMail: every line of a full paragraph is at most
// VoteWidth columns (a long change wraps, indented), it says what the gate
// held each metric to, how to reproduce the run and which regress decided.
func TestVoteFitsAPlainTextMail(t *testing.T) {
	v := fullVote(t)
	v.Report = "https://ci.example.org/run/7/report.html"
	v.Command = "regress --baseline 2.6.1 --candidate 2.6.2 --suite release"
	v.Regress = "regress devel (commit 0123456789ab; go1.26.8)"
	c := voteComparison()
	for i := range c.Metrics {
		c.Metrics[i].Tolerance = 0.10
	}
	lines := VoteParagraph(c, v)
	for _, l := range lines {
		if n := len([]rune(l)); n > VoteWidth {
			t.Errorf("line of %d columns (at most %d): %q", n, VoteWidth, l)
		}
	}
	text := unwrapVote(lines)
	for _, want := range []string{"Held to: p50 10%, p95 10%, p99 10%, throughput 10%", "Reproduce: regress --baseline 2.6.1 --candidate 2.6.2 --suite release", "Decided by regress devel"} {
		if !strings.Contains(text, want) {
			t.Errorf("paragraph lacks %q:\n%s", want, text)
		}
	}
	if len(lines) > VoteMaxLines {
		t.Errorf("%d lines, at most %d", len(lines), VoteMaxLines)
	}
	// However much there is to say, the head and how to reproduce the run
	// print: frames of many workloads and long names give way first.
	for i := range 6 {
		v.Frames = append(v.Frames, VoteFrame{Workload: fmt.Sprintf("workload%c", 'a'+i), Kind: "wait", Frame: "a.B.waitFor", CandShare: 0.3, Delta: 100})
	}
	v.Command += " --candidate-conf some.long.setting.name=with-a-long-value --baseline-conf another.long.setting=value"
	lines = VoteParagraph(c, v)
	if len(lines) > VoteMaxLines || !strings.HasPrefix(lines[len(lines)-1], "Full report: ") || !strings.HasPrefix(lines[0], "regress: HBase") {
		t.Errorf("%d lines (at most %d), first %q, last %q; want the head first and the report's path last", len(lines), VoteMaxLines, lines[0], lines[len(lines)-1])
	}
}

// TestVoteKeepsTheLargestChangeWhenTheCommandIsLong: wg2's paragraph
// (2026-12-06) printed "Largest changes ...; 50 more in the full report:"
// with no change under it, and its Reproduce command (a dozen --*-conf
// flags) ran past the twentieth line and was cut mid-flag. The largest
// change (latency first) always prints; a command too long is cut at an
// argument, said to be cut, and report.md prints it whole.
func TestVoteKeepsTheLargestChangeWhenTheCommandIsLong(t *testing.T) {
	v := fullVote(t)
	v.Report = "https://ci.example.org/run/7/report.html"
	v.Regress = "regress devel (commit 0123456789ab; go1.26.8)"
	v.Command = "regress --baseline 2.6.1 --candidate 2.6.1"
	for i := range 12 {
		v.Command += fmt.Sprintf(" --candidate-conf hbase.coprocessor.setting.number%d=org.regress.testdata.WaitObserver", i)
	}
	c := voteComparison()
	c.Baseline.Name, c.Candidate.Name = "2.6.1-base-wget60-0-wg2", "2.6.1-wget60-20-wg2"
	v.Machine = "2 cores, 24 GiB, AMD EPYC, Debian GNU/Linux 12 (bookworm) amd64 (kernel 6.18.44-fc-v1272)"
	for i := range 6 {
		v.Frames = append(v.Frames, VoteFrame{Workload: fmt.Sprintf("workload%c", 'a'+i), Kind: "wait", Frame: "a.B.waitFor", CandShare: 0.3, Delta: 100})
	}
	lines := VoteParagraph(c, v)
	text := unwrapVote(lines)
	if len(lines) > VoteMaxLines {
		t.Errorf("%d lines, at most %d:\n%s", len(lines), VoteMaxLines, text)
	}
	if !strings.Contains(text, "- workloada READ p99: ") {
		t.Errorf("the largest change is not printed:\n%s", text)
	}
	if !strings.Contains(text, "Reproduce: regress --baseline 2.6.1 --candidate 2.6.1") || !strings.Contains(text, strings.TrimSpace(reproduceCut)) {
		t.Errorf("the command is not cut and said to be:\n%s", text)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "Full report: ") {
		t.Errorf("last line %q, want the report's path", lines[len(lines)-1])
	}
	if !ReproduceCut(c, v) {
		t.Error("ReproduceCut says the command was printed whole")
	}
	var md bytes.Buffer
	if err := renderMarkdown(&md, Report{Comparison: c, Vote: v}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n"+v.Command+"\n") {
		t.Errorf("report.md does not print the whole command:\n%s", md.String())
	}
	v.Command = "regress --baseline 2.6.1 --candidate 2.6.2"
	if ReproduceCut(c, v) {
		t.Error("a short command is said to be cut")
	}
}

// TestVoteLeadsWithTheRowOverAllWorkloads: among the changes of one status
// and kind, the row over all workloads (what decided wg2: reads p50
// +16.1%) comes before a single workload's larger change.
func TestVoteLeadsWithTheRowOverAllWorkloads(t *testing.T) {
	c := voteComparison()
	c.Metrics = append(c.Metrics, compare.MetricResult{Workload: "all workloads", Op: "reads", Metric: "p50", Unit: "us", Baseline: 368, Candidate: 385,
		Ratio: 1.046, CILow: 1.03, CIHigh: 1.06, Status: compare.Regressed, Gated: true, Primary: true})
	lines := VoteParagraph(c, Vote{})
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Rests on") })
	if i < 0 || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "- all workloads reads p50: ") {
		t.Errorf("paragraph %q, want the reads row over all workloads first", lines)
	}
}

// A note naming thousands of operations is one long line: wrapping it
// takes time linear in its length (cut anew at every wrap, it took the
// square), and every line it gives keeps within VoteWidth.
func TestWrapVoteIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("Note (")
	for i := range 40000 {
		fmt.Fprintf(&b, "w%d OP%d, ", i, i)
	}
	b.WriteString("end): p99 not gated")
	start := time.Now()
	lines := wrapVote([]string{b.String()})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("wrapping a line of %d runes took %v", b.Len(), d)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > VoteWidth || i > 0 && !strings.HasPrefix(l, "  ") {
			t.Fatalf("line %d: %q (%d columns)", i, l, n)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != strings.Join(strings.Fields(b.String()), " ") {
		t.Errorf("wrapping lost or changed words")
	}
}
