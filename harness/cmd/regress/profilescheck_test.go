package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// TestResultsCheckNamesDamagedProfiles: `results check` of an entry whose
// profiles are good is clean (exit 0); a damaged stacks file and a damaged
// description are each named on the entry's DAMAGED line (exit 2), as
// docs/results-store.md says.
func TestResultsCheckNamesDamagedProfiles(t *testing.T) {
	st, err := results.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeSide(t, st, "base", 1.0, 2, 0) // trials base-0, base-1 of run1
	entries, err := st.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries %v: %v", entries, err)
	}
	dir := entries[0].Dir
	const id = "run1-workloadc-profile"
	for _, kind := range results.ProfileKinds {
		if err := results.WriteProfile(dir, id, kind, func(w io.Writer) error { _, err := io.WriteString(w, "Thread.run;Handler.call 12\n"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	if err := results.WriteProfileMeta(dir, &results.ProfileMeta{ID: id, RunID: "run1", Workload: "workloadc", Ops: 1000}); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCLI(t, "results", "check", "--store", st.Root()); err != nil || !strings.Contains(out, "good     base/fixture-fp0123456789") {
		t.Fatalf("check of an entry with good profiles: %v\n%s", err, out)
	}
	folded := results.ProfileFile(dir, id, "alloc")
	if err := os.WriteFile(folded, []byte("Thread.run;Handler.call 12\nThread.run;Handler.call\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := results.ProfileMetaFile(dir, id)
	if err := os.WriteFile(meta, []byte(`{"id":"run1-workloadc-pro`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "results", "check", "--store", st.Root())
	if code(err) != exitUsage || !strings.Contains(out, "DAMAGED  base/fixture-fp0123456789: ") ||
		!strings.Contains(out, folded+" line 2") || !strings.Contains(out, meta+": not a profile's description") {
		t.Errorf("check of damaged profiles: exit %d (%v), want 2 naming %s and %s\n%s", code(err), err, folded, meta, out)
	}
}
