package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

func TestCapacityBadInputExits2WithAHint(t *testing.T) {
	scen := filepath.Join("..", "..", "..", "scenarios")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("workloads: [workloada]\ndata: {recordcount: 100, regions: 1}\ncapacity: {factor: 0.5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no candidate", []string{"capacity", "--baseline", "2.6.1", "--scenarios", scen}, "--candidate VERSION"},
		{"bad format", []string{"capacity", "--baseline", "2.6.1", "--candidate", "2.6.2", "--format", "pdf"}, `invalid argument "pdf" for "--format" flag: "pdf" is no report format`},
		{"bad capacity section", []string{"capacity", "--baseline", "2.6.1", "--candidate", "2.6.2", "--scenarios", scen, "--suite", bad}, "factor must exceed 1"},
		{"max rate below start", []string{"capacity", "--baseline", "2.6.1", "--candidate", "2.6.2", "--scenarios", scen, "--max-rate", "10"}, "max_rate"},
		{"negative budget", []string{"capacity", "--baseline", "2.6.1", "--candidate", "2.6.2", "--scenarios", scen, "--budget", "-1m"}, "budget"},
		{"unknown workload", []string{"capacity", "--baseline", "2.6.1", "--candidate", "2.6.2", "--scenarios", scen, "--workloads", "workloadz"}, "no such workload"},
		{"workloads of a stored sweep", []string{"capacity", "--from", "20261202T000000", "--workloads", "workloada"}, "--workloads narrows a new sweep"},
		// A new sweep's flags beside a stored one were ignored without a word.
		{"sides of a stored sweep", []string{"capacity", "--from", "20261202T000000", "--baseline", "2.6.0", "--trials", "duet", "--budget", "5m"},
			"--from reports a stored sweep as it ran: --baseline, --budget, --trials shape a new sweep and would be ignored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runRegress(t, c.args...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("exit %d, err %v; want exit 2 and a message containing %q", code(err), err, c.want)
			}
		})
	}
}

// sweepWith is a finished sweep of one workload: both sides' capacities per pair.
func sweepWith(base, cand []float64) *capacity.Sweep {
	sw := &capacity.Sweep{Baseline: "2.6.1", Candidate: "2.6.2", SLOP99Micros: 10000, Hold: 0.95, Resolution: 0.1, MaxOpsPerSec: 16000, Budget: time.Minute}
	for i := range base {
		for side, v := range []float64{base[i], cand[i]} {
			st := capacity.Step{TargetOpsPerSec: v, AchievedOpsPerSec: v, P50Micros: 500, P99Micros: 2000, Good: true, Phase: "sweep"}
			sw.Searches = append(sw.Searches, capacity.Search{Workload: "workloada", Side: capacity.Sides[side], Pair: i,
				Steps: []capacity.Step{st}, CapacityOpsPerSec: v, KneeOpsPerSec: v * 1.08, Found: true, Stopped: capacity.StopKnee})
		}
	}
	return sw
}

func TestCapacityVerdictMapsToTheExitCode(t *testing.T) {
	cfg := capacity.Gate{Alpha: 0.05, Tolerance: 0.1}
	for _, c := range []struct {
		name       string
		sw         *capacity.Sweep
		failOnNone bool
		want       int
	}{
		{"a third less capacity", sweepWith([]float64{3000, 3100, 2950}, []float64{2000, 2050, 1980}), false, exitRegression},
		{"the same capacity", sweepWith([]float64{3000, 3100, 2950}, []float64{3000, 3050, 3000}), false, exitOK},
		{"no knee, told to fail", func() *capacity.Sweep {
			sw := sweepWith([]float64{3000, 3100}, []float64{16000, 16000})
			for i := range sw.Searches {
				if sw.Searches[i].Side == "candidate" {
					sw.Searches[i].Found, sw.Searches[i].Stopped = false, capacity.StopMaxRate
				}
			}
			return sw
		}(), true, exitInconclusive},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := job.DecideCapacity(context.Background(), &out, c.sw, cfg, job.Report{Out: t.TempDir(), Format: "text", FailOnInconclusive: c.failOnNone})
			if code(err) != c.want {
				t.Fatalf("exit %d (%v), want %d\n%s", code(err), err, c.want, out.String())
			}
			if !strings.Contains(out.String(), "capacity searches") {
				t.Errorf("report lacks the searches:\n%s", out.String())
			}
		})
	}
}

func TestCapacityFromAStoredSweepReportsItAgain(t *testing.T) {
	dir := t.TempDir()
	store, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	sw := sweepWith([]float64{3000, 3100, 2950}, []float64{2000, 2050, 1980})
	sw.Suite, sw.RunID = "capacity", "20261202T040000"
	p, err := capacity.Save(store, sw)
	if err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join("..", "..", "..", "scenarios")
	for _, from := range []string{p, sw.RunID} {
		out, err := runRegress(t, "capacity", "--from", from, "--store", store.Root(), "--scenarios", scen, "--out", filepath.Join(t.TempDir(), "rep"), "--format", "json")
		if code(err) != exitRegression || !strings.Contains(out, `"metric": "capacity"`) {
			t.Fatalf("--from %s: exit %d (%v), want 1 and the JSON report:\n%s", from, code(err), err, out)
		}
	}
	if _, err := runRegress(t, "capacity", "--from", sw.RunID, "--store", store.Root(), "--scenarios", scen, "--suite", "smoke"); code(err) != exitUsage || !strings.Contains(err.Error(), "ran suite capacity") {
		t.Errorf("--suite of another suite than the sweep's: %v, want exit 2 naming the sweep's", err)
	}
	if _, err := runRegress(t, "capacity", "--from", filepath.Join(dir, "nosuch.json")); code(err) != exitUsage {
		t.Errorf("a missing sweep file: exit %d (%v), want 2", code(err), err)
	}
	out, err := runRegress(t, "results", "check", "--store", store.Root())
	if err != nil || !strings.Contains(out, "good     capacity/20261202T040000: capacity sweep of 2.6.2 against 2.6.1, suite capacity") {
		t.Errorf("results check: %v\n%s", err, out)
	}
	out, err = runRegress(t, "results", "list", "--store", store.Root())
	if err != nil || !strings.Contains(out, "capacity/20261202T040000") {
		t.Errorf("results list: %v\n%s", err, out)
	}
}
