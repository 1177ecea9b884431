package job

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// TestDifferentEntriesRefusesACopyOfOneEntry: `compare --baseline X
// --candidate COPY`, COPY a `cp -r` of X's entry directory, compared the
// same trials with themselves and said PASS (issue 29 closed the case of
// one directory named twice, not of its copy). A copy is refused as the
// entry itself is; another entry is not.
func TestDifferentEntriesRefusesACopyOfOneEntry(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "store", "example-2.6.0", "example-e0a1b2c3d4e5")
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-r", src, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	read := func(dir string) *results.Manifest {
		t.Helper()
		m, err := results.ReadManifestFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	err := differentEntries("example-2.6.0", cp, read(src), read(cp))
	var ue *fault.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "hold the same results") {
		t.Errorf("an entry and its copy: %v, want a usage error saying they hold the same results", err)
	}
	other := filepath.Join("..", "..", "testdata", "store", "example-2.6.1", "example-e0a1b2c3d4e5")
	if err := differentEntries("example-2.6.0", "example-2.6.1", read(src), read(other)); err != nil {
		t.Errorf("two entries: %v, want them compared", err)
	}
}

// A copy relabelled with its trial ids renamed, and one YCSB output
// imported under two versions, compared at +0.0% (PASS) without a word:
// the report now says each compares a measurement with itself.
func TestSameMeasurementOnBothSidesIsNoted(t *testing.T) {
	src, err := results.ReadManifestFile(filepath.Join("..", "..", "testdata", "store", "example-2.6.0", "example-e0a1b2c3d4e5", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	cp := *src
	cp.Label, cp.Dir = "renamed", t.TempDir()
	cp.Trials = slices.Clone(src.Trials)
	for i := range cp.Trials {
		cp.Trials[i].ID += "-x"
	}
	if err := differentEntries("example-2.6.0", "renamed", src, &cp); err != nil {
		t.Fatal(err)
	}
	if n := sameMeasurementNotes(src, &cp); len(n) != 1 || !strings.Contains(n[0], "one side is a copy of the other with its trials renamed") {
		t.Errorf("a copy with renamed trial ids: %q, want a note", n)
	}
	a := &results.Manifest{Version: "2.6.0", Summaries: []results.Trial{{ID: "ycsb-763ef957b725-1", Workload: "w"}}}
	b := &results.Manifest{Version: "2.6.1", Summaries: []results.Trial{{ID: "ycsb-763ef957b725-1", Workload: "w"}}}
	if n := sameMeasurementNotes(a, b); len(n) != 1 || !strings.Contains(n[0], "one YCSB output imported under two names") {
		t.Errorf("one output imported as two versions: %q, want a note", n)
	}
	b.Summaries[0].ID = "ycsb-0123456789ab-1"
	other, err := results.ReadManifestFile(filepath.Join("..", "..", "testdata", "store", "example-2.6.1", "example-e0a1b2c3d4e5", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := append(sameMeasurementNotes(a, b), sameMeasurementNotes(src, other)...); len(n) != 0 {
		t.Errorf("two measurements: %q, want no note", n)
	}
}

// TestCompareInterruptedWritesNoReport: SIGINT half a second into a compare
// reading a 14 MB manifest was answered, a second later, with the reports
// written and exit 0. A comparison whose context ended writes nothing and
// says it was interrupted (exit 3).
func TestCompareInterruptedWritesNoReport(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "reports")
	j := &CompareStored{Report: Report{Out: out, Format: "text"}, Baseline: "example-2.6.0", Candidate: "example-2.6.1",
		Store: filepath.Join("..", "..", "testdata", "store"), Suite: "example", Scenarios: filepath.Join("..", "..", "scenarios")}
	err := j.Run(ctx, io.Discard)
	var re *fault.RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "compare interrupted") {
		t.Errorf("compare with its context ended: %v, want a run error saying it was interrupted", err)
	}
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("reports written after the interruption: %d files in %s", len(ents), out)
	}
	if err := j.Run(context.Background(), io.Discard); err != nil {
		t.Errorf("the same compare, not interrupted: %v", err)
	}
}

// TestDecideInterruptedLeavesNoReport: a signal while the comparison is
// drawn (past the check before it) keeps no report folder and no temporary
// one beside it: the watcher's exit 1.5 s later cut through the writing and
// left `.reports.tmp-*`, or committed reports with no verdict printed.
func TestDecideInterruptedLeavesNoReport(t *testing.T) {
	st, err := results.OpenReadOnly(filepath.Join("..", "..", "testdata", "store"))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := st.Resolve("example-2.6.0", "example")
	if err != nil {
		t.Fatal(err)
	}
	cm, err := st.Resolve("example-2.6.1", "example")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	parent := t.TempDir()
	err = Decide(ctx, io.Discard, st, bm, cm, compare.Config{}, Report{Out: filepath.Join(parent, "reports"), Format: "text"})
	var re *fault.RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("Decide with its context ended: %v, want a run error saying it was interrupted", err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) > 0 {
		t.Errorf("left %v in the reports' parent", ents)
	}
}
