package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the regress command line in-process with args and returns what
// it wrote to stdout and stderr, and its error (exitCode maps it to the code).
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// TestLogFormat: every log line of a command comes through one handler, text
// by default and one JSON object a line with --log-format json; an unknown
// format is a usage error before the command runs.
func TestLogFormat(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	store := filepath.Join("..", "..", "..", "testdata", "store")
	scen := t.TempDir() // a scenarios folder without the entries' suite
	if err := os.Mkdir(filepath.Join(scen, "suites"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store,
		"--scenarios", scen, "--format", "vote", "--out", t.TempDir()}
	_, errText, err := runCLI(t, args...)
	if err != nil || !strings.Contains(errText, `level=WARN msg="suite not found`) {
		t.Fatalf("text log: %v\n%s", err, errText)
	}
	args[len(args)-1] = t.TempDir() // a report folder is never written twice
	_, errJSON, err := runCLI(t, append(args, "--log-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(errJSON, "\n")
	var line struct{ Level, Msg, Suite string }
	if err := json.Unmarshal([]byte(first), &line); err != nil || line.Level != "WARN" || line.Suite != "example" || !strings.HasPrefix(line.Msg, "suite not found") {
		t.Fatalf("json log's first line %q: %+v, %v", first, line, err)
	}
	if _, _, err := runCLI(t, "results", "list", "--store", store, "--log-format", "xml"); codeOf(err) != exitUsage || !strings.Contains(err.Error(), "text or json") {
		t.Errorf("--log-format xml: %v, want a usage error naming text and json", err)
	}
}
