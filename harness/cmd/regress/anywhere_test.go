package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

// carriedSuite is a suite whose p99 tolerance (30%) passes what the
// default gate (p99 within 10%) calls a regression: which of them judged
// shows in the exit code.
const carriedSuite = "name: carried\nworkloads: [workloadc]\ndata: {recordcount: 1000}\ncompare: {tolerances: {p99: 30%}, gate: [p99]}\n"

// storeCarried stores k trials of name, p99 factor times the baseline's,
// in an entry whose manifest carries suite text (or only its name, when
// carry is false: results stored before the suite travelled with them).
func storeCarried(t *testing.T, st *results.Store, name, text string, factor float64, order int, carry bool) {
	t.Helper()
	wl, err := os.ReadFile(filepath.Join("..", "..", "..", "scenarios", "workloadc"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"workloadc": string(wl)}
	s, err := suite.FromStored("carried", text, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := s.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	info := results.SuiteInfo{Name: "carried", Fingerprint: fp, DataSpec: s.SeedKey()}
	if carry {
		info.Text, info.Files = s.Text(), s.Files()
	}
	m := &results.Manifest{Version: "2.6.1", Label: name, Provider: "local", Source: "regress", Suite: info}
	if _, err := st.Ensure(m); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 8 {
		noise := 1 + 0.01*float64((i*7)%5-2)
		lat := results.Latency{P50Micros: 1000 * noise, P95Micros: 3000 * noise, P99Micros: 5000 * factor * noise,
			P999Micros: 9000, MaxMicros: 20000, MinMicros: 100, MeanMicros: 1300 * noise}
		o := (i + order) % 2 // the sides take turns to run first
		tr := results.Trial{ID: fmt.Sprintf("run-workloadc-p%02d", i), RunID: "run", Workload: "workloadc", Pair: i, Order: o,
			Start: start.Add(time.Duration(2*i+o) * time.Minute), DurationMillis: 60000, TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000,
			Ops: map[string]results.OpStats{"READ": {Count: 60000, Statuses: map[string]int64{"OK": 60000}, Intended: lat, Service: lat}}}
		if _, err := st.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAStoredRunIsJudgedTheSameAnywhere: a run whose manifests carry its
// suite is judged by that suite from the repository's root and from a
// folder outside it (where no scenarios/ lies), and a suite named on the
// command line that judges otherwise is named in the report beside the one
// that judged. Before, compare outside the repository fell back to the
// default gate and said another verdict (the INCONCLUSIVE for a
// PASS).
func TestAStoredRunIsJudgedTheSameAnywhere(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeCarried(t, st, "base", carriedSuite, 1.0, 0, true)
	storeCarried(t, st, "cand", carriedSuite, 1.2, 1, true) // p99 +20%: within 30%, beyond the default 10%
	compare := func(args ...string) (int, []string) {
		t.Helper()
		out, _, err := runCLI(t, append([]string{"compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(),
			"--format", "json", "--out", filepath.Join(t.TempDir(), "r")}, args...)...)
		var r struct{ Warnings []string }
		if out != "" {
			if jerr := json.Unmarshal([]byte(out), &r); jerr != nil {
				t.Fatalf("report.json: %v", jerr)
			}
		}
		return code(err), r.Warnings
	}
	for _, where := range []string{root, t.TempDir()} {
		t.Chdir(where)
		if got, w := compare(); got != exitOK || len(w) > 0 {
			t.Errorf("from %s: exit %d, warnings %q; want 0 (the stored suite's p99 within 30%%) and none", where, got, w)
		}
	}

	// A scenarios folder whose suite of that name judges otherwise: the
	// stored suite still judges, and the report says which one did.
	strict := t.TempDir()
	if err := os.MkdirAll(filepath.Join(strict, "suites"), 0o755); err != nil {
		t.Fatal(err)
	}
	wl, _ := os.ReadFile(filepath.Join(root, "scenarios", "workloadc"))
	if err := os.WriteFile(filepath.Join(strict, "workloadc"), wl, 0o644); err != nil {
		t.Fatal(err)
	}
	strictText := strings.Replace(carriedSuite, "p99: 30%", "p99: 10%", 1)
	if err := os.WriteFile(filepath.Join(strict, "suites", "carried.yaml"), []byte(strictText), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, w := compare("--scenarios", strict); got != exitOK || !strings.Contains(strings.Join(w, "\n"), "judged with suite carried as stored with the results; suite carried of "+strict+" judges otherwise") {
		t.Errorf("--scenarios with a stricter suite: exit %d, warnings %q; want 0 and a warning naming the suite that judged", got, w)
	}
	// A suite file named on the command line judges, and says it is not the stored one.
	file := filepath.Join(strict, "suites", "carried.yaml")
	if got, w := compare("--suite", file, "--scenarios", strict); got != exitRegression || !strings.Contains(strings.Join(w, "\n"), "judged with --suite "+file+", not with suite carried as stored") {
		t.Errorf("--suite FILE stricter: exit %d, warnings %q; want 1 and a warning naming the file", got, w)
	}
}

// TestOldResultsAreJudgedByTheirSuiteByName: results stored before the
// suite travelled with them are judged by the suite of their name, from
// the built-in scenarios wherever compare runs (the release suite of the
// README's run); one not built in falls back to the default gate, and the
// report says so.
func TestOldResultsAreJudgedByTheirSuiteByName(t *testing.T) {
	dir := t.TempDir()
	st, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	storeCarried(t, st, "base", carriedSuite, 1.0, 0, false)
	storeCarried(t, st, "cand", carriedSuite, 1.2, 1, false)
	t.Chdir(t.TempDir())
	out, _, err := runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--format", "json", "--out", filepath.Join(t.TempDir(), "r"))
	var r struct{ Warnings []string }
	_ = json.Unmarshal([]byte(out), &r)
	if code(err) != exitRegression || !strings.Contains(strings.Join(r.Warnings, "\n"), "suite carried not found in the built-in scenarios nor stored with the results") {
		t.Errorf("no suite stored, none built in: exit %d, warnings %q; want 1 (the default gate) and a warning", code(err), r.Warnings)
	}
}
