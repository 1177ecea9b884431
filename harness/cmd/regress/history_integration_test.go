package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

// historyVersions are the releases the real history test sweeps (override
// with REGRESS_TEST_HISTORY_VERSIONS, a --versions list).
func historyVersions() string {
	if v := os.Getenv("REGRESS_TEST_HISTORY_VERSIONS"); v != "" {
		return v
	}
	return "2.6.0,2.6.1,2.6.2"
}

// TestHistoryRealHBaseThreeReleases sweeps three real releases at a tiny
// size (1000 rows, one workload, 2 pairs of 2 s trials): the first is the
// reference, started afresh (--restart-reference) for each of the other two
// as they take their turn beside it. Then the
// same sweep again must start nothing (every release's pairs are stored:
// what a killed sweep resumes from), and a bisect over the same releases
// judges from the stored pairs too.
func TestHistoryRealHBaseThreeReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three real HBase releases; skipped under -short")
	}
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	versions := historyVersions()
	rs := strings.Split(versions, ",")
	common := []string{"--suite", filepath.Join("testdata", "history.yaml"), "--scenarios", scenariosDir, "--store", store}

	start := time.Now()
	out := filepath.Join(dir, "reports")
	stdout, progress, err := runCLI(t, append([]string{"history", "--versions", versions, "--out", out, "--restart-reference"}, common...)...)
	if err != nil {
		t.Fatalf("history: exit %d: %v\n%s", code(err), err, stdout)
	}
	if n := strings.Count(progress, "baseline: starting HBase "+rs[0]+" "); n != len(rs)-1 {
		t.Errorf("the reference started %d times, want once per release measured (%d):\n%s", n, len(rs)-1, progress)
	}
	took := time.Since(start)
	t.Logf("history of %s took %v:\n%s", versions, took.Round(time.Second), stdout)
	if !strings.Contains(stdout, "history of suite history: 3 releases against reference "+rs[0]) {
		t.Errorf("history output lacks its header:\n%s", stdout)
	}
	for _, r := range rs[1:] {
		line := ""
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, r+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "%") {
			t.Errorf("release %s has no measured ratio: %q", r, line)
		}
	}
	st, err := results.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := st.List()
	if err != nil || len(entries) != len(rs) {
		t.Errorf("store holds %d entries (%v), want one per release", len(entries), err)
	}
	for _, f := range []string{"history.txt", "history.csv", "history.json", "history.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("report %s: %v", f, err)
		}
	}

	// Everything is stored now: the sweep again reuses it and starts
	// nothing: no HBase started, no trial added to the store (what it
	// does, not how long it takes, which a loaded machine stretches).
	trials := storedTrials(t, store)
	start = time.Now()
	again, progress, err := runCLI(t, append([]string{"history", "--versions", versions, "--out", filepath.Join(dir, "again")}, common...)...)
	if err != nil {
		t.Fatalf("history again: exit %d: %v", code(err), err)
	}
	t.Logf("the second sweep took %v", time.Since(start).Round(time.Millisecond))
	if strings.Contains(progress, "starting HBase") || storedTrials(t, store) != trials {
		t.Errorf("the second sweep measured again instead of reusing the stored pairs (%d trials stored, %d before):\n%s", storedTrials(t, store), trials, progress)
	}
	if again != stdout {
		t.Errorf("the second sweep reports otherwise than the first:\n%s\nvs\n%s", again, stdout)
	}

	start = time.Now()
	bis, progress, err := runCLI(t, append([]string{"bisect", "--good", rs[0], "--bad", rs[len(rs)-1], "--versions", versions,
		"--workload", "workloadc", "--metric", "READ/p50"}, common...)...)
	t.Logf("bisect (exit %d) took %v:\n%s", code(err), time.Since(start).Round(time.Millisecond), bis)
	if c := code(err); c != exitOK && c != exitInconclusive {
		t.Fatalf("bisect: exit %d: %v", c, err)
	}
	if !strings.Contains(bis, "step 1  "+rs[len(rs)-1]) {
		t.Errorf("bisect did not judge the bad release first:\n%s", bis)
	}
	if strings.Contains(progress, "starting HBase") || storedTrials(t, store) != trials {
		t.Errorf("bisect measured instead of reusing the stored pairs (%d trials stored, %d before):\n%s", storedTrials(t, store), trials, progress)
	}
}
