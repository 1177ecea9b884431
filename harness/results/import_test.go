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

// TestImportStoresPendingAlikeNewOrExisting: a new entry (written whole
// beside the targets) and an existing one (appended to) store pending
// summaries by one rule: an id already stored or repeated is skipped, a
// summary's own hlog fields are cleared and set to the hlog written, if
// any; an hlog that cannot be written leaves no hlog of the import behind.
func TestImportStoresPendingAlikeNewOrExisting(t *testing.T) {
	m := &Manifest{Version: "2.6.1", Provider: "external", Source: "ycsb-import", Suite: SuiteInfo{Name: "ycsb-import", Fingerprint: "0123456789abcdef"}}
	sum := func(id string) Trial {
		return Trial{ID: id, Workload: "workloada", HlogFile: "elsewhere.hlog", HlogSHA256: "stale"}
	}
	ps := []Pending{
		{Trial: sum("old")},
		{Trial: sum("a"), Hlog: []byte("#a\n")},
		{Trial: sum("a"), Hlog: []byte("#a again\n")},
		{Trial: sum("b")},
		{Trial: sum("c"), Hlog: []byte("#c\n")},
	}
	cases := []struct {
		name         string
		existing     bool   // "old" is stored before the import: appendSummariesLocked, else a new entry
		block        string // an hlog whose path is made a folder: its write fails
		stored       string
		skipped      string
		wantErr      string
		hlogs        map[string]string // summary id: its stored hlog
		leftInTrials []string
	}{
		{name: "new entry", stored: "old,a,b,c", skipped: "a", hlogs: map[string]string{"a": "#a\n", "c": "#c\n"}},
		{name: "existing entry", existing: true, stored: "a,b,c", skipped: "old,a", hlogs: map[string]string{"a": "#a\n", "c": "#c\n"}},
		{name: "existing entry, an hlog fails", existing: true, block: "c", wantErr: "store hlog of summary c", leftInTrials: []string{"c.hlog"}},
	}
	ids := func(ts []Trial) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return strings.Join(out, ",")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			k := KeyOf(m)
			if c.existing {
				if _, _, _, err := st.ImportSummaries(m, ps[:1]); err != nil {
					t.Fatal(err)
				}
			}
			if c.block != "" {
				if err := os.MkdirAll(filepath.Join(st.Dir(k), trialsDir, c.block+".hlog", "x"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			_, stored, skipped, err := st.ImportSummaries(m, ps)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one holding %q", err, c.wantErr)
				}
				left, _ := os.ReadDir(filepath.Join(st.Dir(k), trialsDir))
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				if strings.Join(names, ",") != strings.Join(c.leftInTrials, ",") {
					t.Errorf("a failed import left %v in trials/, want %v", names, c.leftInTrials)
				}
				if got, err := st.Load(k); err != nil || ids(got.Summaries) != "old" {
					t.Errorf("stored after a failed import: %v, %v; want old alone", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ids(stored) != c.stored || ids(skipped) != c.skipped {
				t.Errorf("stored %q, skipped %q; want %q, %q", ids(stored), ids(skipped), c.stored, c.skipped)
			}
			got, err := st.Load(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got.Summaries {
				want, has := c.hlogs[s.ID]
				if !has {
					if s.HlogFile != "" || s.HlogSHA256 != "" {
						t.Errorf("%s: hlog %q %q, want none (its own fields cleared)", s.ID, s.HlogFile, s.HlogSHA256)
					}
					continue
				}
				if b, err := st.ReadHlog(k, s); err != nil || string(b) != want {
					t.Errorf("%s: hlog %q, %v; want %q", s.ID, b, err, want)
				}
			}
		})
	}
}
