package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
	// The commands are built one by one (cobra's template functions are a
	// global) and run at once.
	var wg sync.WaitGroup
	for _, cand := range []string{"example-2.6.1", "example-2.6.1-slow", "example-2.6.1", "example-2.6.1-slow"} {
		root := newRootCmd()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs([]string{"compare", "--baseline", "example-2.6.0", "--candidate", cand, "--store", store, "--scenarios", scen})
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = root.ExecuteContext(t.Context())
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

// TestCompareReplacesAnOutOfEarlierReports: --out naming a folder that
// holds an earlier run's reports (a reused CI workspace's fixed reports/ci)
// takes the new ones whole, where one holding other files is refused
// (exit 2) and kept as it was.
func TestCompareReplacesAnOutOfEarlierReports(t *testing.T) {
	store := fixtureStore(t)
	out := filepath.Join(t.TempDir(), "r")
	scen := filepath.Join("..", "..", "..", "scenarios")
	if _, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1-slow", "--store", store, "--scenarios", scen, "--out", out); code(err) != exitRegression {
		t.Fatalf("first compare: %v, want exit 1", err)
	}
	if _, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--scenarios", scen, "--out", out); err != nil {
		t.Errorf("second compare into the same --out: %v, want exit 0", err)
	}
	if vote, _ := os.ReadFile(filepath.Join(out, "vote.txt")); !strings.Contains(string(vote), "Verdict: PASS") {
		t.Errorf("the second report did not replace the first:\n%s", vote)
	}
	mine := t.TempDir()
	if err := os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "compare", "--baseline", "example-2.6.0", "--candidate", "example-2.6.1", "--store", store, "--scenarios", scen, "--out", mine)
	if code(err) != exitUsage || !strings.Contains(err.Error(), "already holds files") {
		t.Errorf("--out holding other files: %v, want exit 2", err)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "notes.txt")); string(b) != "mine" {
		t.Error("a folder of other files was written into")
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
	if !slices.ContainsFunc(r.Warnings, func(w string) bool {
		return strings.Contains(w, "suite example not found") && strings.Contains(w, "default tolerances")
	}) {
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
	m.SetName(results.SideName{Given: "copy"})
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

// TestFlagsCheckedBeforeAnyJVM: what a machine can check is refused (exit 2)
// before any cluster starts; each of these started a JVM, ignored the flag or
// went on before.
func TestFlagsCheckedBeforeAnyJVM(t *testing.T) {
	scen := filepath.Join("..", "..", "..", "scenarios")
	home := t.TempDir()
	ycsb := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb", "ycsb-0.17-workloada.txt")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--baseline-repo", "file:///nonexistent", "--scenarios", scen}, "/nonexistent is not a directory"},
		{[]string{"cluster", "up", "--version", "2.6.1", "--repo", "file:///nonexistent"}, "/nonexistent is not a directory"},
		{[]string{"cluster", "up", "--version", "2.6.1", "--start-timeout", "-1s"}, "--start-timeout -1s"},
		{[]string{"cluster", "up", "--version", "2.6.1", "--start-timeout", "0s"}, "--start-timeout 0s"},
		{[]string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--instances", "0", "--scenarios", scen}, `"0" is not a count`},
		{[]string{"cluster", "up", "--version", "2.6.1", "--home", home}, "--version and --home exclude each other"},
		{[]string{"--baseline", "2.6.0", "--baseline-home", home, "--candidate", "2.6.1", "--scenarios", scen}, "--baseline and --baseline-home exclude each other"},
		{[]string{"run", "--version", "2.6.1", "--home", home, "--scenarios", scen}, "--version and --home exclude each other"},
		{[]string{"import-ycsb", ycsb, "--version", "v2.6.1", "--workload", "workloada", "--store", t.TempDir()}, `"v2.6.1"`},
		{[]string{"import-ycsb", ycsb, "--version", "2.6", "--workload", "workloada", "--store", t.TempDir()}, `"2.6" names no release`},
		{[]string{"import-ycsb", ycsb, "--version", "emr", "--workload", "workloada", "--store", t.TempDir()}, `"emr"`},
		{[]string{"worker", "--zk", "localhost:2181", "--root", "noslash"}, `--root "noslash"`},
		{[]string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--load-hosts", "1", "--load-hosts-root", "a//b", "--scenarios", scen}, `--load-hosts-root "a//b"`},
	} {
		within(t, 10*time.Second, strings.Join(tc.args, " "), func() {
			_, _, err := runCLI(t, tc.args...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("regress %s: %v, want exit 2 saying %q", strings.Join(tc.args, " "), err, tc.want)
			}
		})
	}
}

// TestSuitesRefusedAtLoad: a workload listed twice and a name: other than the
// file's (compare would look for the suite's gates under the other name) are
// refused when the suite is loaded.
func TestSuitesRefusedAtLoad(t *testing.T) {
	scen := t.TempDir()
	if err := os.MkdirAll(filepath.Join(scen, "suites"), 0o755); err != nil {
		t.Fatal(err)
	}
	wl, err := os.ReadFile(filepath.Join("..", "..", "..", "scenarios", "workloadc"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(scen, "workloadc"), string(wl))
	writeFile(t, filepath.Join(scen, "suites", "twice.yaml"), "workloads: [workloadc, workloadc]\ndata:\n  recordcount: 1000\n")
	writeFile(t, filepath.Join(scen, "suites", "other.yaml"), "name: smoke\nworkloads: [workloadc]\ndata:\n  recordcount: 1000\n")
	writeFile(t, filepath.Join(scen, "suites", "fine.yaml"), "name: fine\nworkloads: [workloadc]\ndata:\n  recordcount: 1000\n")
	for _, tc := range []struct{ suite, want string }{
		{"twice", `"workloadc" is listed twice`},
		{"other", `name "smoke" is not the file's name "other"`},
	} {
		_, _, err := runCLI(t, "plan", "--baseline", "x", "--suite", tc.suite, "--scenarios", scen, "--store", t.TempDir())
		if code(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("suite %s: %v, want exit 2 saying %q", tc.suite, err, tc.want)
		}
	}
	if _, _, err := runCLI(t, "plan", "--baseline", "x", "--suite", "fine", "--scenarios", scen, "--store", t.TempDir()); err == nil || strings.Contains(err.Error(), "fine.yaml") {
		t.Errorf("a good suite: %v, want it loaded (and plan to say nothing is stored)", err)
	}
}

// TestResultsListAndCheckNeedAStore: a store that does not exist is exit 2,
// not "no results"; a folder that is not a store (/) is refused without
// advice to delete anything in it, and nothing is written into it.
func TestResultsListAndCheckNeedAStore(t *testing.T) {
	notStore := t.TempDir()
	if err := os.MkdirAll(filepath.Join(notStore, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(notStore, "etc", "passwd"), "root:x:0:0")
	if err := os.MkdirAll(filepath.Join(notStore, "dev", "cpu"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"list", "check"} {
		_, _, err := runCLI(t, "results", cmd, "--store", filepath.Join(t.TempDir(), "nosuch"))
		if code(err) != exitUsage || !strings.Contains(err.Error(), "no results store at") {
			t.Errorf("results %s of a missing store: %v, want exit 2", cmd, err)
		}
		for _, dir := range []string{notStore, "/"} {
			out, _, err := runCLI(t, "results", cmd, "--store", dir)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "is not a results store") || strings.Contains(out, "rm -rf") {
				t.Errorf("results %s --store %s: %v\n%s\nwant exit 2 saying it is not a store, no advice to delete", cmd, dir, err, out)
			}
		}
	}
	if _, err := os.Lstat(filepath.Join(notStore, ".lock")); err == nil {
		t.Errorf("results check wrote a .lock into %s, which is no store", notStore)
	}
	// A store is still one: the fixture, and an empty folder.
	for _, dir := range []string{fixtureStore(t), t.TempDir()} {
		if _, _, err := runCLI(t, "results", "check", "--store", dir); err != nil {
			t.Errorf("results check --store %s: %v", dir, err)
		}
	}
}

// TestDocsImportExampleComparesReadAndUpdate: docs/ycsb.md's example (a text
// output plus its READ.hdr is one run) compares both operations of the run;
// stored as two summaries it dropped every UPDATE row.
func TestDocsImportExampleComparesReadAndUpdate(t *testing.T) {
	store := t.TempDir()
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	for _, args := range [][]string{
		{filepath.Join(fx, "ycsb-0.1.4-workloada.txt"), "--version", "2.6.0"},
		{filepath.Join(fx, "ycsb-0.17-workloada.txt"), filepath.Join(fx, "ycsb-0.17-workloada-READ.hdr"), "--version", "2.6.1"},
	} {
		if _, _, err := runCLI(t, append(append([]string{"import-ycsb"}, args...), "--workload", "workloada", "--store", store)...); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runCLI(t, "compare", "--baseline", "2.6.0", "--candidate", "2.6.1", "--store", store, "--format", "json", "--out", filepath.Join(t.TempDir(), "r"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Metrics []struct{ Op, Metric string } }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, m := range r.Metrics {
		ops[m.Op] = true
	}
	if !ops["READ"] || !ops["UPDATE"] {
		t.Errorf("compared operations %v, want READ and UPDATE", ops)
	}
}
