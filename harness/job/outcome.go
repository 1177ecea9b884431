package job

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
)

// Outcome is what a command that decides a verdict (the main job, compare,
// capacity) leaves for the CLI's last words on stderr, written once the
// exit code is known: the verdict and where its reports are.
type Outcome struct {
	mu         sync.Mutex
	expected   bool // a command that decides a verdict ran
	comparison *compare.Comparison
	dir        string
}

type outcomeKey struct{}

// WithOutcome is ctx carrying o, which the command run in it fills.
func WithOutcome(ctx context.Context, o *Outcome) context.Context {
	return context.WithValue(ctx, outcomeKey{}, o)
}

// outcomeOf is the Outcome ctx carries (nil: none, as in tests calling a
// job directly; its methods do nothing then).
func outcomeOf(ctx context.Context) *Outcome {
	o, _ := ctx.Value(outcomeKey{}).(*Outcome)
	return o
}

// expect marks the command as one that decides a verdict.
func (o *Outcome) expect() {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.expected = true
	o.mu.Unlock()
}

// record keeps the verdict of c, whose reports were written into dir.
func (o *Outcome) record(c *compare.Comparison, dir string) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.expected, o.comparison, o.dir = true, c, dir
	o.mu.Unlock()
}

// VerdictLine is the last line on stderr of a command that reached a
// verdict, whatever --format printed on stdout: "regress: VERDICT PASS
// (exit 0) reports: reports/20261207T022057Z".
func VerdictLine(verdict compare.Verdict, code int, dir string) string {
	return fmt.Sprintf("regress: VERDICT %s (exit %d) reports: %s", verdict, code, dir)
}

// Finish writes a command's last words on stderr once its exit code is
// known: in GitHub Actions (GITHUB_ACTIONS=true) the verdict's annotations
// and the step's outputs ($GITHUB_OUTPUT: verdict, exit-code, report-dir,
// vote, html), then the VERDICT line, the last line, as a log line of the
// same text with --log-format json. A command that decides no verdict, or
// failed before one, writes no VERDICT line; in GitHub Actions a failed one
// gets an error annotation and its exit code as an output.
func Finish(stderr io.Writer, format string, code int, err error, o *Outcome) {
	if o == nil {
		return
	}
	o.mu.Lock()
	expected, c, dir := o.expected, o.comparison, o.dir
	o.mu.Unlock()
	if !expected {
		return
	}
	actions := os.Getenv("GITHUB_ACTIONS") == "true"
	if c == nil {
		if actions {
			msg := "no verdict"
			if err != nil {
				msg, _, _ = strings.Cut(err.Error(), "\n")
			}
			fmt.Fprintln(stderr, "::error title=regress failed (exit "+strconv.Itoa(code)+")::"+escapeData(msg))
			writeOutputs(stderr, format, [][2]string{{"exit-code", strconv.Itoa(code)}})
		}
		return
	}
	if actions {
		for _, a := range report.GitHubAnnotations(c, dir) {
			fmt.Fprintln(stderr, a)
		}
		writeOutputs(stderr, format, [][2]string{{"verdict", string(c.Verdict)}, {"exit-code", strconv.Itoa(code)}, {"report-dir", dir},
			{"vote", filepath.Join(dir, "vote.txt")}, {"html", filepath.Join(dir, "report.html")}})
	}
	line := VerdictLine(c.Verdict, code, dir)
	if format == "json" {
		slog.New(slog.NewJSONHandler(stderr, nil)).Info(line, "verdict", string(c.Verdict), "exit_code", code, "reports", dir)
		return
	}
	fmt.Fprintln(stderr, line)
}

// writeOutputs appends the step's outputs, saying on stderr why when it cannot.
func writeOutputs(stderr io.Writer, format string, pairs [][2]string) {
	if err := report.AppendGitHubOutput(pairs); err != nil {
		NewLogger(WithLogFormat(context.Background(), format), stderr, false).Warn("GitHub step outputs not written", "err", err)
	}
}

// escapeData escapes a workflow command's message as GitHub reads it.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
