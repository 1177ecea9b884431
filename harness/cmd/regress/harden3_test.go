package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
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

// TestCompareRefusesAScenariosFolderThatIsNot: a misspelt --scenarios, a
// REGRESS_SCENARIOS that does not exist and a folder without suites/ are
// refused (exit 2) with one line saying what to give, never replaced by the
// default gates (which said PASS where the suite says otherwise).
func TestCompareRefusesAScenariosFolderThatIsNot(t *testing.T) {
	store := fixtureStore(t)
	args := []string{"compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store}
	for _, tc := range []struct {
		name, flag, env, want string
	}{
		{"misspelt flag", "sc/g_cpux", "", "no such file or directory: give --scenarios"},
		{"missing env", "", "/nonexistent", "no such file or directory: give --scenarios"},
		{"no suites folder", t.TempDir(), "", "holds no suites/ directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("REGRESS_SCENARIOS", tc.env)
			}
			a := append(slices.Clone(args), "--out", filepath.Join(t.TempDir(), "r"))
			if tc.flag != "" {
				a = append(a, "--scenarios", tc.flag)
			}
			_, _, err := runCLI(t, a...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("%v: %v, want exit 2 and one line containing %q", a, err, tc.want)
			}
		})
	}
}

// TestCompareWritesTheDefaultGatesIntoTheReport: a scenarios folder without
// the entries' suite compares with the default gates, and the report's
// warnings (the JSON's too) say so.
func TestCompareWritesTheDefaultGatesIntoTheReport(t *testing.T) {
	scen := t.TempDir()
	if err := os.Mkdir(filepath.Join(scen, "suites"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", fixtureStore(t),
		"--scenarios", scen, "--format", "json", "--out", filepath.Join(t.TempDir(), "r"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "suite example not found") && strings.Contains(w, "default tolerances") }) {
		t.Errorf("report.json warnings %q do not say the default gates stood in", r.Warnings)
	}
}

// TestCompareRefusesARelabelledCopyOfAnEntry: an entry copied, its label
// changed and its manifest re-signed holds the baseline's very trials: it is
// one entry on both sides (exit 2), not a PASS.
func TestCompareRefusesARelabelledCopyOfAnEntry(t *testing.T) {
	dir := t.TempDir()
	st, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	m, err := st.Resolve("base", "")
	if err != nil {
		t.Fatal(err)
	}
	m.Label = "copy"
	b, err := results.EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	cp := st.Dir(results.KeyOf(m))
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cp, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join("..", "..", "..", "scenarios")
	compare := func(base, cand string) error {
		_, _, err := runCLI(t, "compare", "--baseline", base, "--candidate", cand, "--store", st.Root(), "--scenarios", scen, "--out", filepath.Join(t.TempDir(), "r"))
		return err
	}
	if err := compare("base", "cand"); err != nil {
		t.Fatalf("two sides of one run: %v, want exit 0", err)
	}
	for _, pair := range [][2]string{{"base", "copy"}, {"copy", "base"}} {
		if err := compare(pair[0], pair[1]); code(err) != exitUsage || !strings.Contains(err.Error(), "one entry on both sides") {
			t.Errorf("compare %s against its relabelled copy %s: %v, want exit 2 (one entry on both sides)", pair[0], pair[1], err)
		}
	}
}
