package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

func TestPlanPrintsPairsPerGatedMetric(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	suiteFile := filepath.Join(dir, "fixture.yaml")
	writeFile(t, suiteFile, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 5, max: 6, looks: 2}\ncompare: {gate: [p99, throughput]}\n")
	scen := filepath.Join("..", "..", "..", "scenarios")
	for _, args := range [][]string{
		{"plan", "--baseline", "base", "--candidate", "cand"},
		{"plan", "--baseline", "base"},
	} {
		stdout, err := runRegress(t, append(args, "--store", st.Root(), "--suite", suiteFile, "--scenarios", scen)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, want := range []string{"workloadc", "READ", "p99", "to PASS", "pairs 5 to 6, 2 look(s)"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, stdout)
			}
		}
		if strings.Contains(stdout, "throughput") {
			t.Errorf("%v: throughput at a held target rate is not gated, so not planned:\n%s", args, stdout)
		}
	}
	if _, err := runRegress(t, "plan", "--store", st.Root()); code(err) != exitUsage {
		t.Errorf("plan without --baseline: exit %d, want %d", code(err), exitUsage)
	}
}

func TestCompareHeldRate(t *testing.T) {
	cases := []struct {
		name           string
		baseAt, candAt float64
		wantCode       int
		want           string
	}{
		{"candidate cannot hold the rate", 1, 0.8, exitRegression, "REGRESSION"},
		{"neither side holds it", 0.8, 0.8, exitRunFailed, "lower run.target"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			st, _ := results.Open(filepath.Join(dir, "store"))
			storeSideAt(t, st, "base", 1.0, 8, 0, c.baseAt)
			storeSideAt(t, st, "cand", 1.0, 8, 1, c.candAt)
			stdout, err := runRegress(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", filepath.Join(dir, "r"))
			if code(err) != c.wantCode {
				t.Fatalf("exit %d (%v), want %d\n%s", code(err), err, c.wantCode, stdout)
			}
			if !strings.Contains(stdout+err.Error(), c.want) || !strings.Contains(stdout, "held rate") {
				t.Errorf("output lacks %q or the held-rate line:\n%s\n%v", c.want, stdout, err)
			}
		})
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUpFrontWarningFromStoredTrials: before a run, stored trials of the
// baseline for the suite whose spread needs more pairs than pairs.max make
// the job warn; steady ones do not, nor does a duet suite (its pairs cancel
// what one side's trials spread by) or a spread only detect-only rows show.
func TestUpFrontWarningFromStoredTrials(t *testing.T) {
	for _, tc := range []struct {
		spread float64
		extra  string
		warn   bool
	}{
		{0.40, "", true},
		{0.005, "", false},
		{0.40, "run: {mode: duet}\n", false},
		{0.40, "compare: {detect_only: [p50, p95, p99, p99.9, mean]}\n", false},
	} {
		dir := t.TempDir()
		suiteFile := filepath.Join(dir, "fixture.yaml")
		writeFile(t, suiteFile, "name: fixture\nworkloads: [workloadc]\ndata: {recordcount: 1000, regions: 2}\npairs: {initial: 3, max: 4}\n"+tc.extra)
		scen := filepath.Join("..", "..", "..", "scenarios")
		s, err := suite.Load(suiteFile, scen)
		if err != nil {
			t.Fatal(err)
		}
		fp, err := s.Fingerprint()
		if err != nil {
			t.Fatal(err)
		}
		st, _ := results.Open(filepath.Join(dir, "store"))
		m := &results.Manifest{Version: "2.6.9", Provider: "local", Source: "regress",
			Suite: results.SuiteInfo{Name: s.Name, Fingerprint: fp, DataSpec: s.SeedKey()}}
		if _, err := st.Ensure(m); err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			f := math.Exp(tc.spread * float64(i%3-1))
			lat := results.Latency{P50Micros: 1000 * f, P95Micros: 3000 * f, P99Micros: 5000 * f, P999Micros: 9000 * f, MeanMicros: 1300 * f}
			tr := results.Trial{ID: fmt.Sprintf("t%d", i), RunID: "run1", Workload: "workloadc", Pair: i,
				Start: time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC), TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000,
				Ops: map[string]results.OpStats{"READ": {Count: 60000, Intended: lat}}}
			if _, err := st.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		job.WarnIfUndecidable(slog.New(slog.NewTextHandler(&buf, nil)), st, "2.6.9", s, job.CompareConfig(s))
		if got := strings.Contains(buf.String(), "cannot decide"); got != tc.warn {
			t.Errorf("spread %.3f, %q: warned %v, want %v: %q", tc.spread, tc.extra, got, tc.warn, buf.String())
		}
	}
}
