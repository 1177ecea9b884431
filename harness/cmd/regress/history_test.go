package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

var scenariosDir = filepath.Join("..", "..", "..", "scenarios")

func TestHistoryAndBisectBadInputExit2(t *testing.T) {
	suite := filepath.Join("testdata", "history.yaml")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"history without versions", []string{"history", "--suite", suite}, "--versions is empty"},
		{"history bad format", []string{"history", "--versions", "2.6.0,2.6.1", "--format", "pdf"}, `invalid argument "pdf" for "--format" flag: "pdf" is no history format: choose one of text (txt, table), csv, json, html`},
		{"history unknown workload", []string{"history", "--versions", "2.6.0,2.6.1", "--suite", suite, "--scenarios", scenariosDir, "--workloads", "workloadz"}, "--workloads workloadz: suite history has no such workload; it has workloadc"},
		{"history one release", []string{"history", "--versions", "2.6.0", "--suite", suite, "--scenarios", scenariosDir}, "names only the reference 2.6.0"},
		{"history twice", []string{"history", "--versions", "2.6.0,2.6.0-hadoop3", "--suite", suite, "--scenarios", scenariosDir}, "2.6.0 appears twice"},
		{"history bad reference", []string{"history", "--versions", "2.6.0,2.6.1", "--reference", "x;y", "--suite", suite, "--scenarios", scenariosDir}, "--reference:"},
		{"bisect without good", []string{"bisect", "--bad", "2.6.1"}, "--good VERSION"},
		{"bisect without metric", []string{"bisect", "--good", "2.6.0", "--bad", "2.6.1", "--workload", "workloadc"}, "--metric M"},
		{"bisect bad metric", []string{"bisect", "--good", "2.6.0", "--bad", "2.6.1", "--workload", "workloadc", "--metric", "p95"}, `metric "p95": write one of throughput, cpu_per_op, alloc_per_op, process_cpu_per_op, OP/p50`},
		{"bisect backwards", []string{"bisect", "--good", "2.6.2", "--bad", "2.6.1", "--workload", "workloadc", "--metric", "READ/p95"}, "--good 2.6.2 must be an older release than --bad 2.6.1"},
		{"bisect list without ends", []string{"bisect", "--good", "2.6.0", "--bad", "2.6.3", "--versions", "2.6.0,2.6.1", "--workload", "workloadc", "--metric", "READ/p95", "--suite", suite, "--scenarios", scenariosDir}, "must include --good 2.6.0 and --bad 2.6.3"},
		{"bisect unknown workload", []string{"bisect", "--good", "2.6.0", "--bad", "2.6.1", "--workload", "workloadz", "--metric", "READ/p95", "--suite", suite, "--scenarios", scenariosDir}, "--workload workloadz"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := runRegress(t, c.args...)
			if code(err) != exitUsage || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("exit %d, err %v; want exit 2 and a message containing %q", code(err), err, c.want)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("bad input took %v to refuse", time.Since(start))
			}
		})
	}
}

// storeSweep stores, for every release after the first, a run of 3
// interleaved pairs against the first (the reference) under the suite's
// fingerprint, READ p95 slower by slowdown(release).
func storeSweep(t *testing.T, st *results.Store, suitePath string, releases []string, slowdown func(int) float64) {
	t.Helper()
	s, err := job.LoadSuite(scenariosDir, suitePath)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := s.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	manifest := func(v string) results.Key {
		m := &results.Manifest{Version: v, Provider: "local", Source: "regress",
			Suite: results.SuiteInfo{Name: s.Name, Fingerprint: fp, DataSpec: s.SeedKey()}}
		if _, err := st.Ensure(m); err != nil {
			t.Fatal(err)
		}
		return results.KeyOf(m)
	}
	refKey := manifest(releases[0])
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i, v := range releases[1:] {
		key := manifest(v)
		run := fmt.Sprintf("20261201T%02d0000-%s", i, v)
		for p := range 3 {
			wobble := 1 + 0.01*float64((i+2*p)%3-1)
			for side, k := range []results.Key{refKey, key} {
				f := 1.0
				if side == 1 {
					f = slowdown(i+1) * wobble
				}
				lat := results.Latency{P50Micros: 500 * wobble, P95Micros: 2000 * f, P99Micros: 4000 * f, P999Micros: 8000 * f, MeanMicros: 700 * wobble}
				tr := results.Trial{ID: fmt.Sprintf("%s-workloadc-p%02d", run, p), RunID: run, Workload: "workloadc", Pair: p, Order: side,
					Start: start.Add(time.Duration(i*10+2*p+side) * time.Minute), DurationMillis: 2000, TargetOpsPerSec: 100, AchievedOpsPerSec: 100,
					Ops: map[string]results.OpStats{"READ": {Count: 200, Statuses: map[string]int64{"OK": 200}, Intended: lat, Service: lat}}}
				if _, err := st.AppendTrial(k, tr, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// With every release stored against the reference, history and bisect
// start no cluster: they reuse the stored pairs (what lets a killed sweep
// resume), find the shift, and bisect names its release.
func TestHistoryAndBisectReuseStoredPairs(t *testing.T) {
	dir := t.TempDir()
	st, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join("testdata", "history.yaml")
	var releases []string
	for i := range 9 {
		releases = append(releases, fmt.Sprintf("2.6.%d", i))
	}
	storeSweep(t, st, suite, releases, func(i int) float64 {
		if i >= 5 {
			return 1.3
		}
		return 1
	})
	list := strings.Join(releases, ",")
	common := []string{"--suite", suite, "--scenarios", scenariosDir, "--store", st.Root(), "--cache-dir", filepath.Join(dir, "cache"), "--quiet"}
	out := filepath.Join(dir, "reports")
	stdout, err := runRegress(t, append([]string{"history", "--versions", list, "--out", out}, common...)...)
	if err != nil {
		t.Fatalf("history: exit %d: %v", code(err), err)
	}
	t.Logf("history:\n%s", stdout)
	for _, want := range []string{"history of suite history: 9 releases against reference 2.6.0", "workloadc READ/p95: shift at 2.6.5, +30.", "*+30."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("history output lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"history.txt", "history.csv", "history.json", "history.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("report %s: %v", f, err)
		}
	}
	// The reference named by its -hadoop3 build is the same release: no extra point.
	again, err := runRegress(t, append([]string{"history", "--versions", list, "--reference", "2.6.0-hadoop3", "--out", out + "-again"}, common...)...) // a report folder is never written twice
	if err != nil || !strings.Contains(again, "9 releases against reference 2.6.0\n") {
		t.Errorf("--reference 2.6.0-hadoop3: %v\n%s", err, again)
	}
	stdout, err = runRegress(t, append([]string{"bisect", "--good", "2.6.0", "--bad", "2.6.8", "--versions", list, "--workload", "workloadc", "--metric", "READ/p95"}, common...)...)
	if err != nil {
		t.Fatalf("bisect: exit %d: %v\n%s", code(err), err, stdout)
	}
	t.Logf("bisect:\n%s", stdout)
	if !strings.Contains(stdout, "first release that regressed: 2.6.5 (the last that did not: 2.6.4)") || strings.Count(stdout, "\nstep ") > 4 {
		t.Errorf("bisect output:\n%s", stdout)
	}
	_, err = runRegress(t, append([]string{"bisect", "--good", "2.6.0", "--bad", "2.6.8", "--versions", list, "--workload", "workloadc", "--metric", "UPDATE/p95"}, common...)...)
	if code(err) != exitUsage || !strings.Contains(err.Error(), "workload workloadc runs no UPDATE operations (it runs READ)") {
		t.Errorf("a metric the workload lacks: exit %d, %v", code(err), err)
	}
}
