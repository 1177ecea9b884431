package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
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
