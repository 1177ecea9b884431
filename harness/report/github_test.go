package report

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// TestGitHubAnnotationsAreFewAndName: a regression's annotations name the
// regressed rows, the largest first, at most three (the last saying how
// many more); a PASS gets its notice and a warning of the undecided rows;
// every message is escaped as the runner reads workflow commands.
func TestGitHubAnnotationsAreFewAndName(t *testing.T) {
	got := GitHubAnnotations(pairedFixture(), "reports/ci")
	want := []string{
		"::error title=regress%3A REGRESSION::2.6.2 vs 2.6.1: workloada READ p99 +7.0%25 [+3.0, +11.0] (tolerance 5%25), REGRESSED; reports: reports/ci",
		"::error title=regress%3A REGRESSION::2.6.2 vs 2.6.1: workloadc: the candidate did not hold the 10000 ops/s the baseline held, REGRESSED; reports: reports/ci",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("REGRESSION:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	many := &compare.Comparison{Verdict: compare.Regression, Suite: "release", Baseline: compare.Side{Name: "a"}, Candidate: compare.Side{Name: "b"}}
	for i, r := range []float64{1.10, 1.50, 1.20, 0.70, 1.30} {
		many.Metrics = append(many.Metrics, compare.MetricResult{Workload: "w" + string(rune('1'+i)), Op: "READ", Metric: "p50", Ratio: r, Tolerance: 0.05, Status: compare.Regressed, Gated: true})
	}
	got = GitHubAnnotations(many, "r")
	if len(got) != 3 || !strings.Contains(got[0], "w2 READ p50 +50.0%25") || !strings.Contains(got[1], "w4 READ p50 -30.0%25") || !strings.HasSuffix(got[2], "REGRESSED (and 2 more regressed); reports: r") {
		t.Errorf("five regressed rows:\n%s", strings.Join(got, "\n"))
	}

	pass := &compare.Comparison{Verdict: compare.Pass, Suite: "release", Baseline: compare.Side{Name: "2.6.0"}, Candidate: compare.Side{Name: "2.6.1"},
		Metrics: []compare.MetricResult{{Workload: "workloade", Op: "SCAN", Metric: "p95", Ratio: 1.077, CILow: 0.892, CIHigh: 1.301, Tolerance: 0.30, Status: compare.Inconclusive, Gated: true, DetectOnly: true}}}
	got = GitHubAnnotations(pass, "r")
	if len(got) != 2 || !strings.HasPrefix(got[0], "::notice title=regress%3A PASS::2.6.1 vs 2.6.0, suite release: ") ||
		got[1] != "::warning title=regress%3A undecided rows that only detect::2.6.1 vs 2.6.0: neither shown within tolerance nor regressed (they never hold a PASS back): workloade SCAN p95 +7.7%25 [-10.8, +30.1] (tolerance 30%25); reports: r" {
		t.Errorf("PASS:\n%s", strings.Join(got, "\n"))
	}

	invalid := &compare.Comparison{Verdict: compare.VerdictInvalid, Invalid: "too many errors\nsee the log", Baseline: compare.Side{Name: "a"}, Candidate: compare.Side{Name: "b"}}
	if got := GitHubAnnotations(invalid, "r"); len(got) != 1 || got[0] != "::error title=regress%3A INVALID::b vs a: too many errors%0Asee the log; reports: r" {
		t.Errorf("INVALID: %q", got)
	}
}

// TestGitHubOutputAppendsAndNeverWaits: outputs are appended in GitHub's
// forms (name=value; the delimited form for a value with a line break); a
// FIFO is refused at once.
func TestGitHubOutputAppendsAndNeverWaits(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	if err := os.WriteFile(p, []byte("a=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_OUTPUT", p)
	if err := AppendGitHubOutput([][2]string{{"verdict", "PASS"}, {"dir", "x\nregress_EOF"}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "a=1\nverdict=PASS\ndir<<regress_EOF_\nx\nregress_EOF\nregress_EOF_\n" {
		t.Errorf("output file:\n%s", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_OUTPUT", fifo)
	if err := AppendGitHubOutput([][2]string{{"verdict", "PASS"}}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
	t.Setenv("GITHUB_OUTPUT", "")
	if err := AppendGitHubOutput([][2]string{{"verdict", "PASS"}}); err != nil {
		t.Errorf("unset: %v", err)
	}
}
