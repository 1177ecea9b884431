package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// storeSideWithFingerprint stores k trials of name under suite "fixture"
// with another fingerprint: the same suite edited between runs.
func storeSideWithFingerprint(t *testing.T, st *results.Store, name, fp string, factor float64, k int) {
	t.Helper()
	m := &results.Manifest{Version: "2.6.1", Label: name, Provider: "local", Source: "regress",
		Suite: results.SuiteInfo{Name: "fixture", Fingerprint: fp, DataSpec: "rows=1000"}}
	if _, err := st.Ensure(m); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for i := range k {
		lat := results.Latency{P50Micros: 1000 * factor, P95Micros: (3000 + float64(i%3)*30) * factor, P99Micros: (5000 + float64(i%3)*50) * factor,
			P999Micros: 9000 * factor, MaxMicros: 20000 * factor, MinMicros: 100, MeanMicros: 1300 * factor}
		tr := results.Trial{ID: fmt.Sprintf("%s-%s-%d", name, fp, i), RunID: "run2", Workload: "workloadc", Pair: i, Order: i % 2,
			Start: base.Add(time.Duration(i) * time.Minute), DurationMillis: 60000, TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000,
			Ops: map[string]results.OpStats{"READ": {Count: 60000, Statuses: map[string]int64{"OK": 60000}, Intended: lat, Service: lat}}}
		if _, err := st.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEditedSuiteIsChosenWithItsFingerprint: results of one suite under two
// fingerprints are told apart with --suite NAME@FINGERPRINT, which the
// error asking for a choice spells out, for compare and plan.
func TestEditedSuiteIsChosenWithItsFingerprint(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0) // fingerprint fp0123456789abcd
	storeSide(t, st, "cand", 1.0, 8, 1)
	storeSideWithFingerprint(t, st, "base", "fedcba9876543210", 1.0, 8)
	storeSideWithFingerprint(t, st, "cand", "fedcba9876543210", 2.0, 8) // twice as slow under the edited suite
	scen := filepath.Join("..", "..", "..", "scenarios")
	compare := func(suite ...string) error {
		args := append([]string{"compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--scenarios", scen, "--out", filepath.Join(t.TempDir(), "r")}, suite...)
		_, err := runRegress(t, args...)
		return err
	}
	err := compare()
	if code(err) != exitUsage || !strings.Contains(err.Error(), "choose one with --suite fixture@fedcba987654 or --suite fixture@fp0123456789") {
		t.Fatalf("compare of an edited suite: exit %d, %v; want exit 2 naming each --suite value", code(err), err)
	}
	if err := compare("--suite", "fixture"); code(err) != exitUsage || !strings.Contains(err.Error(), "--suite fixture@fedcba987654") {
		t.Fatalf("--suite NAME alone: exit %d, %v", code(err), err)
	}
	if err := compare("--suite", "fixture@fp0123456789"); code(err) != exitOK {
		t.Errorf("--suite fixture@fp0123456789 (unchanged): exit %d, %v; want 0", code(err), err)
	}
	if err := compare("--suite", "fixture@fedc"); code(err) != exitRegression {
		t.Errorf("--suite fixture@fedc (twice as slow): exit %d, %v; want 1", code(err), err)
	}
	if err := compare("--suite", "fixture@0000"); code(err) != exitUsage || !strings.Contains(err.Error(), "--suite fixture@fp0123456789") {
		t.Errorf("--suite of no stored fingerprint: exit %d, %v; want exit 2 naming the stored ones", code(err), err)
	}

	suiteFile := filepath.Join(dir, "fixture.yaml")
	writeFile(t, suiteFile, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 5, max: 6, looks: 2}\ncompare: {gate: [p99]}\n")
	plan := []string{"plan", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--scenarios", scen}
	if _, err := runRegress(t, append(plan, "--suite", suiteFile)...); code(err) != exitUsage || !strings.Contains(err.Error(), "--suite fixture@fp0123456789") {
		t.Fatalf("plan of an edited suite: exit %d, %v", code(err), err)
	}
	if stdout, err := runRegress(t, append(plan, "--suite", suiteFile+"@fedcba987654")...); err != nil || !strings.Contains(stdout, "p99") {
		t.Fatalf("plan --suite FILE@FINGERPRINT: %v\n%s", err, stdout)
	}
	// A fingerprint stored nowhere: the advice names the file, which plan
	// loads, not the suite's bare name, which it could not.
	if _, err := runRegress(t, append(plan, "--suite", suiteFile+"@zzzz")...); code(err) != exitUsage || !strings.Contains(err.Error(), "give --suite "+suiteFile+", or "+suiteFile+"@FINGERPRINT") || strings.Contains(err.Error(), "with --suite fixture") {
		t.Errorf("plan --suite FILE@zzzz: %v", err)
	}
	// A misspelt gate selector is named, not silently left out of the plan
	// (issue 29: plan said the pairs suffice for every gated metric).
	writeFile(t, suiteFile, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 5, max: 6, looks: 2}\ncompare: {gate: [p99, REED/p95]}\n")
	stdout, err := runRegress(t, append(plan, "--suite", suiteFile+"@fedcba987654")...)
	if err != nil || !strings.Contains(stdout, "gated but not planned") || !strings.Contains(stdout, `"REED/p95"`) || strings.Contains(stdout, "suffice for every gated metric.") {
		t.Errorf("plan gating a selector that matches nothing: %v\n%s", err, stdout)
	}
}
