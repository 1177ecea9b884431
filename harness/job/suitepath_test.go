package job

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
)

// TestCompareTakesASuiteFile: `compare --suite FILE` failed ("nothing
// stored ... under suite testdata/example-suite.yaml") where `plan --suite
// FILE` worked, so the documented examples judged with default tolerances.
// A suite file's name picks the stored results and its looks and gate
// judge them; a name alone without the file compares at the defaults.
func TestCompareTakesASuiteFile(t *testing.T) {
	store := filepath.Join("..", "..", "testdata", "store")
	scenarios := filepath.Join("..", "..", "scenarios") // the workloads, not the example suite
	for _, tc := range []struct {
		name, suite string
		looks       int
		warned      bool
	}{
		{"suite file", filepath.Join("..", "..", "testdata", "example.yaml"), 2, false},
		{"suite name, file not at hand", "example", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r")
			j := &CompareStored{Report: Report{Out: out, Format: "json"}, Baseline: "example-2.6.0", Candidate: "example-2.6.1",
				Store: store, Suite: tc.suite, Scenarios: scenarios}
			if err := j.Run(context.Background(), io.Discard); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Looks    int      `json:"looks"`
				Warnings []string `json:"warnings"`
			}
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(strings.Join(r.Warnings, "\n"), "default tolerances")
			if r.Looks != tc.looks || warned != tc.warned {
				t.Errorf("looks %d, default-tolerance warning %v; want %d, %v", r.Looks, warned, tc.looks, tc.warned)
			}
		})
	}
	j := &CompareStored{Report: Report{Out: filepath.Join(t.TempDir(), "r"), Format: "text"}, Baseline: "example-2.6.0", Candidate: "example-2.6.1",
		Store: store, Suite: filepath.Join(t.TempDir(), "nosuch.yaml"), Scenarios: scenarios}
	var ue *fault.UsageError
	if err := j.Run(context.Background(), io.Discard); !errors.As(err, &ue) {
		t.Errorf("a suite file that is not there: %v, want a usage error", err)
	}
}
