package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/job"
)

// TestOneLogOnStderr: with --log-format json every line import-ycsb writes
// on stderr is a JSON object (its notes among them, with their fields) and
// stdout holds only what was stored; the error a command ends with is one
// JSON object too, not a trailing plain-text line.
func TestOneLogOnStderr(t *testing.T) {
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	out, errText, err := runCLI(t, "import-ycsb", filepath.Join(fx, "ycsb-0.15-load-then-run-workloadc.txt"),
		"--version", "2.6.1", "--workload", "workloadc", "--store", t.TempDir(), "--log-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "note") || !strings.Contains(out, "stored ") {
		t.Errorf("stdout holds more than what was stored:\n%s", out)
	}
	notes := 0
	for _, l := range strings.Split(strings.TrimSpace(errText), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("stderr line %q is not JSON: %v", l, err)
		}
		if rec["msg"] == "import note" && rec["note"] != nil && rec["summary"] != nil {
			notes++
		}
	}
	if notes == 0 {
		t.Errorf("no import note on stderr:\n%s", errText)
	}
	for _, tc := range []struct{ format, want string }{
		{"json", `"level":"ERROR","msg":"suite \"x\" not found","exit_code":2}` + "\n"},
		{"text", "regress: suite \"x\" not found\n"},
	} {
		var b bytes.Buffer
		job.PrintError(&b, tc.format, exitUsage, errors.New(`suite "x" not found`))
		if !strings.HasSuffix(b.String(), tc.want) || strings.Count(b.String(), "\n") != 1 {
			t.Errorf("%s: %q, want one line ending %q", tc.format, b.String(), tc.want)
		}
	}
}
