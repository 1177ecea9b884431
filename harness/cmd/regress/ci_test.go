package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/job"
)

// runMain runs args as main does (execute: the error, then the CI lines)
// and returns stdout, stderr and the exit code.
func runMain(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	code := execute(context.Background(), root, args, &errOut)
	return out.String(), errOut.String(), code
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestCIReadsTheVerdict: whatever --format prints on stdout, stderr's last
// line says the verdict, the exit code and where the reports are (as a log
// line of that text with --log-format json); a command with no verdict
// adds none.
func TestCIReadsTheVerdict(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	store := fixtureStore(t)
	for _, format := range []string{"text", "markdown", "json", "junit", "html", "vote"} {
		out := filepath.Join(t.TempDir(), "r")
		_, stderr, code := runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1-slow", "--store", store, "--format", format, "--out", out)
		if want := "regress: VERDICT REGRESSION (exit 1) reports: " + out; code != exitRegression || lastLine(stderr) != want {
			t.Errorf("--format %s: exit %d, last line %q; want %q", format, code, lastLine(stderr), want)
		}
	}
	out := filepath.Join(t.TempDir(), "r")
	_, stderr, code := runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--out", out, "--log-format", "json")
	var line struct {
		Msg, Verdict, Reports string
		ExitCode              int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(lastLine(stderr)), &line); err != nil || code != exitOK || line.Msg != job.VerdictLine("PASS", 0, out) || line.Verdict != "PASS" || line.Reports != out {
		t.Errorf("--log-format json: exit %d, last line %q (%v)", code, lastLine(stderr), err)
	}
	if _, stderr, _ := runMain(t, "results", "list", "--store", store); strings.Contains(stderr, "VERDICT") {
		t.Errorf("a command with no verdict wrote one:\n%s", stderr)
	}
}

// TestGitHubActionsSeesTheVerdict: run in GitHub Actions (simulated by its
// environment variables), a REGRESSION leaves a few ::error annotations
// (never one per row) and the step's outputs in $GITHUB_OUTPUT, appended to
// what the file held; JUnit carries real times, classnames naming the suite
// and workload, and properties; a failed run leaves its exit code and an
// error annotation; a FIFO as $GITHUB_OUTPUT is a warning, never a hang.
func TestGitHubActionsSeesTheVerdict(t *testing.T) {
	store := fixtureStore(t)
	dir := t.TempDir()
	outputs := filepath.Join(dir, "output")
	if err := os.WriteFile(outputs, []byte("earlier=step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_OUTPUT", outputs)
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(dir, "summary"))
	out := filepath.Join(dir, "reports", "ci")
	stdout, stderr, code := runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1-slow", "--store", store, "--format", "junit", "--out", out)
	if code != exitRegression {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	errs := strings.Count(stderr, "::error title=regress%3A REGRESSION::")
	if errs < 1 || errs > 3 || !strings.Contains(stderr, "example-2.6.1-slow vs example-2.6.0: workloadc READ") || !strings.Contains(stderr, "reports: "+out) {
		t.Errorf("%d error annotations, want 1 to 3 naming the rows and the reports:\n%s", errs, stderr)
	}
	if !strings.HasPrefix(lastLine(stderr), "regress: VERDICT REGRESSION") {
		t.Errorf("the VERDICT line is not last: %q", lastLine(stderr))
	}
	b, _ := os.ReadFile(outputs)
	want := "earlier=step\nverdict=REGRESSION\nexit-code=1\nreport-dir=" + out + "\nvote=" + filepath.Join(out, "vote.txt") + "\nhtml=" + filepath.Join(out, "report.html") + "\n"
	if string(b) != want {
		t.Errorf("$GITHUB_OUTPUT:\n%s\nwant:\n%s", b, want)
	}
	for _, want := range []string{`classname="regress.example.workloadc"`, `<property name="candidate" value="example-2.6.1-slow">`, `<property name="regress.build" value="regress `, `time="`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("junit.xml lacks %s", want)
		}
	}
	if strings.Contains(stdout, `<testsuite name="workloadc" tests="2" failures="1" errors="0" skipped="0" time="0.000"`) || strings.Contains(stdout, `time="0"`) {
		t.Errorf("junit.xml's times are 0:\n%s", stdout)
	}

	// The same --out again (a reused workspace): replaced, and a PASS's notice.
	_, stderr, code = runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--out", out)
	if code != exitOK || !strings.Contains(stderr, "::notice title=regress%3A PASS::") || strings.Contains(stderr, "::error") {
		t.Errorf("a PASS into the same --out: exit %d\n%s", code, stderr)
	}

	// No verdict: the exit code and an error annotation.
	_ = os.WriteFile(outputs, nil, 0o644)
	_, stderr, code = runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "nosuch", "--store", store)
	if b, _ := os.ReadFile(outputs); code != exitUsage || string(b) != "exit-code=2\n" || !strings.Contains(stderr, "::error title=regress failed (exit 2)::") || strings.Contains(stderr, "VERDICT") {
		t.Errorf("a compare that failed: exit %d, outputs %q\n%s", code, b, stderr)
	}

	// A FIFO nobody reads: a warning, at once.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_OUTPUT", fifo)
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	start := time.Now()
	_, stderr, code = runMain(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--out", out)
	if took := time.Since(start); code != exitOK || took > 30*time.Second || !strings.Contains(stderr, "GitHub step outputs not written") || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("$GITHUB_OUTPUT a FIFO: exit %d after %v\n%s", code, took, stderr)
	}
}
