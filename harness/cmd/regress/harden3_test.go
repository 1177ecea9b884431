package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixtureStore is the docs' small results store, as an absolute path (tests
// that change directory still find it).
func fixtureStore(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "store"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTwoComparesAtOnceLeaveTwoReportFolders: a PASS and a REGRESSION compared
// at the same time under the default --out leave two folders, and each
// folder's vote.txt and report.json tell one comparison's verdict.
func TestTwoComparesAtOnceLeaveTwoReportFolders(t *testing.T) {
	store := fixtureStore(t)
	scen, _ := filepath.Abs(filepath.Join("..", "..", "..", "scenarios"))
	t.Chdir(t.TempDir())
	var wg sync.WaitGroup
	for _, cand := range []string{"example-2.6.1", "example-2.6.1-slow", "example-2.6.1", "example-2.6.1-slow"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _ = runCLIIn(t.Context(), "compare", "--baseline", "example-2.6.0", "--candidate", cand, "--store", store, "--scenarios", scen)
		}()
	}
	wg.Wait()
	dirs, err := os.ReadDir("reports")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 4 {
		t.Fatalf("%d report folders after 4 compares, want 4: %v", len(dirs), dirs)
	}
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("reports", d.Name(), "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Verdict string }
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		vote, _ := os.ReadFile(filepath.Join("reports", d.Name(), "vote.txt"))
		if r.Verdict == "" || !strings.Contains(string(vote), "Verdict: "+r.Verdict) {
			t.Errorf("%s: report.json says %q, vote.txt says\n%s", d.Name(), r.Verdict, vote)
		}
	}
}

// TestCompareRefusesAnOutThatHoldsAReport: --out naming a folder that holds
// another comparison's report is refused (exit 2) and the report is kept.
func TestCompareRefusesAnOutThatHoldsAReport(t *testing.T) {
	store := fixtureStore(t)
	out := filepath.Join(t.TempDir(), "r")
	scen := filepath.Join("..", "..", "..", "scenarios")
	if _, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1-slow", "--store", store, "--scenarios", scen, "--out", out); code(err) != exitRegression {
		t.Fatalf("first compare: %v, want exit 1", err)
	}
	_, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--scenarios", scen, "--out", out)
	if code(err) != exitUsage || !strings.Contains(err.Error(), "already holds files") {
		t.Errorf("second compare into the same --out: %v, want exit 2", err)
	}
	if vote, _ := os.ReadFile(filepath.Join(out, "vote.txt")); !strings.Contains(string(vote), "REGRESSION") {
		t.Errorf("the first report was overwritten:\n%s", vote)
	}
}
