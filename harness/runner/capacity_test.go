package runner

import (
	"context"
	"github.com/regress-hbase/regress/harness/sut"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/results"
)

// TestCapacitySweepRunsStepsOnClonesAndCleansUp runs a two-rate sweep of
// one pair on the real cluster: the plumbing (seed, clone per step, open-loop
// run at the step's rate, drop), not the knee, which a shared test machine
// cannot pin down.
func TestCapacitySweepRunsStepsOnClonesAndCleansUp(t *testing.T) {
	ctx, c := connect(t)
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := tinySuite(t)
	r := &Runner{Suite: s, Store: store, RunID: "cap1"}
	base := &sut.Target{Name: "base", Label: "base", Version: shared.Version(), Provider: "local", Client: c}
	cand := &sut.Target{Name: "cand", Label: "cand", Version: shared.Version(), Provider: "local", Client: c}
	var sides [2]*Prepared
	for i, tg := range []*sut.Target{base, cand} {
		if sides[i], err = r.Prepare(ctx, tg); err != nil {
			t.Fatal(err)
		}
	}
	step := func(ctx context.Context, side int, w string, rate float64) (*loadgen.Result, error) {
		load, err := s.StepSpec(w, rate)
		if err != nil {
			return nil, err
		}
		load.Workers, load.Warmup, load.Duration = 8, 500*time.Millisecond, 2*time.Second
		res, err := r.Step(ctx, sides[side], load)
		if err == nil && res.Rate != rate {
			t.Errorf("step paced at %.0f ops/s, asked %.0f", res.Rate, rate)
		}
		return res, err
	}
	probe := capacity.Probe(step)
	cfg := capacity.Config{Workloads: []string{"workloadb"}, Rates: []float64{50, 100}, MaxOpsPerSec: 100,
		SLOP99: 5 * time.Second, Hold: 0.5, MaxErrorRate: 0.01, Resolution: 0.1, StepTime: 3 * time.Second, Pairs: 1, Budget: 5 * time.Minute}
	sw, err := capacity.Run(ctx, cfg, probe, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Searches) != 2 {
		t.Fatalf("%d searches, want one a side", len(sw.Searches))
	}
	for _, sr := range sw.Searches {
		if len(sr.Steps) == 0 {
			t.Fatalf("%s ran no step", sr.Side)
		}
		for _, st := range sr.Steps {
			if st.Ops == 0 || st.AchievedOpsPerSec <= 0 || st.P99Micros <= 0 || st.P99Micros < st.P50Micros || st.WorstOp == "" {
				t.Errorf("%s step at %.0f ops/s measured nothing usable: %+v", sr.Side, st.TargetOpsPerSec, st)
			}
		}
	}
	sw.Baseline, sw.Candidate, sw.RunID = base.Name, cand.Name, r.RunID
	if _, err := capacity.Save(store, sw); err != nil {
		t.Fatal(err)
	}
	if sweeps, bad, err := store.Sweeps(); err != nil || len(bad) > 0 || len(sweeps) != 1 || sweeps[0].RunID != r.RunID {
		t.Errorf("stored sweeps %+v, damaged %v, %v: want the one sweep", sweeps, bad, err)
	}
	entries, err := store.Find("base", s.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if m, err := store.Load(e.Key); err == nil && len(m.Trials) > 0 {
			t.Errorf("capacity steps were stored as %d trials of the suite", len(m.Trials))
		}
	}
	tables, err := c.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if strings.Contains(tb, "regress_trial_") {
			t.Errorf("step table %s left behind", tb)
		}
	}
}
