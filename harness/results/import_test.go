package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportSummariesWritesANewEntryWhole: a new entry of an import appears
// whole or not at all: a write that fails at its last step leaves neither an
// entry (empty or not) nor its folder, and a folder a killed import left is
// named by results check.
func TestImportSummariesWritesANewEntryWhole(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Version: "2.6.1", Provider: "external", Source: "ycsb-import", Suite: SuiteInfo{Name: "ycsb-import", Fingerprint: "0123456789abcdef"}}
	ps := []Pending{{Trial: Trial{ID: "ycsb-a-1", Workload: "workloada"}, Hlog: []byte("#log\n")}, {Trial: Trial{ID: "ycsb-a-1", Workload: "workloada"}}}
	// The target's folder is a file: the rename into place fails after
	// everything else was written.
	if err := os.WriteFile(filepath.Join(st.Root(), "2.6.1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := st.ImportSummaries(m, ps); err == nil {
		t.Fatal("import over a file where the target's folder belongs: no error")
	}
	left, _ := filepath.Glob(filepath.Join(st.Root(), importingPrefix+"*"))
	if len(left) != 0 {
		t.Errorf("a failed import left %v", left)
	}
	if err := os.Remove(filepath.Join(st.Root(), "2.6.1")); err != nil {
		t.Fatal(err)
	}
	entry, stored, skipped, err := st.ImportSummaries(m, ps)
	if err != nil || len(stored) != 1 || len(skipped) != 1 || len(entry.Summaries) != 1 {
		t.Fatalf("import: %v, stored %d, skipped %d", err, len(stored), len(skipped))
	}
	if got, err := st.Load(KeyOf(m)); err != nil || len(got.Summaries) != 1 || got.Summaries[0].HlogFile == "" {
		t.Fatalf("stored entry: %+v, %v", got, err)
	}
	if _, stored, skipped, err := st.ImportSummaries(m, ps[:1]); err != nil || len(stored) != 0 || len(skipped) != 1 {
		t.Errorf("the same again: %v, stored %d, skipped %d; want it skipped", err, len(stored), len(skipped))
	}
	// What a killed import leaves is a folder beside the targets, never an entry.
	if err := os.Mkdir(filepath.Join(st.Root(), importingPrefix+"2.6.1-123"), 0o755); err != nil {
		t.Fatal(err)
	}
	sts, err := st.Check()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range sts {
		if s.Leftover && strings.Contains(s.Err.Error(), "import-ycsb` that was interrupted") {
			found = true
		}
	}
	if !found {
		t.Errorf("results check does not name the folder a killed import left: %+v", sts)
	}
}
