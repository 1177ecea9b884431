package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// TestAnEntryIsNotComparedWithItself: compare and plan refuse one entry on
// both sides, named or given as its directory (relative or not), exit 2.
func TestAnEntryIsNotComparedWithItself(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	suiteFile := filepath.Join(dir, "fixture.yaml")
	writeFile(t, suiteFile, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 5, max: 6, looks: 2}\ncompare: {gate: [p99]}\n")
	scen := filepath.Join("..", "..", "..", "scenarios")
	entry := filepath.Join(st.Root(), "base", "fixture-fp0123456789")
	if _, err := os.Stat(filepath.Join(entry, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, entry)
	for _, sides := range [][2]string{{"base", "base"}, {"base", entry}, {entry, rel + "/"}} {
		for _, cmd := range []string{"compare", "plan"} {
			args := []string{cmd, "--baseline", sides[0], "--candidate", sides[1], "--store", st.Root(), "--scenarios", scen}
			if cmd == "plan" {
				args = append(args, "--suite", suiteFile)
			} else {
				args = append(args, "--out", filepath.Join(dir, "reports"))
			}
			_, err := runRegress(t, args...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "are one stored entry") {
				t.Errorf("%v: exit %d, %v; want exit 2 saying both name one entry", args, code(err), err)
			}
		}
	}
}
