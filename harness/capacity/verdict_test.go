package capacity

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
)

func capConfig(pairs int) Config {
	return Config{Workloads: []string{"workloada", "workloadc"}, StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 40000,
		SLOP99: 10 * time.Millisecond, Hold: 0.95, MaxErrorRate: 0.01, Resolution: 0.05,
		StepTime: time.Millisecond, Pairs: pairs, Budget: time.Hour}
}

// noisyKnees returns a prober whose knee is drawn afresh for every search
// (lognormal with sd noise around knee[side]·scale[workload]) and is also
// crossed by a rare stray bad step, as a GC pause makes one.
func noisyKnees(rng *rand.Rand, knee [2]float64, noise float64) Prober {
	cur := map[[2]int]float64{}
	steps := map[[2]int]int{}
	return func(_ context.Context, side int, w string, rate float64, phase string) (Step, error) {
		key := [2]int{side, len(w)}
		if phase == "sweep" && rate == 500 && steps[key] >= 0 { // a new search starts at the bottom of the ladder
			cur[key] = knee[side] * math.Exp(noise*rng.NormFloat64())
			steps[key] = 0
		}
		steps[key]++
		st := Step{Ops: int64(rate * 5), AchievedOpsPerSec: rate, WorstP99Micros: 2000, WorstOp: "READ"}
		if rate > cur[key] || rng.Float64() < 0.01 {
			st.WorstP99Micros = 80000
		}
		return st, nil
	}
}

func sweepOf(t *testing.T, rng *rand.Rand, cfg Config, knee [2]float64, noise float64) *Sweep {
	t.Helper()
	sw, err := Run(context.Background(), cfg, noisyKnees(rng, knee, noise), rng, nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Baseline, sw.Candidate = "base", "cand"
	return sw
}

func TestCapacityAAFalseRegressionsStayWithinAlpha(t *testing.T) {
	const R = 1000
	rng := rand.New(rand.NewPCG(12, 1))
	cfg := Gate{Alpha: 0.05, Tolerance: 0.10}
	regressed := 0
	for i := 0; i < R; i++ {
		c, err := cfg.Compare(sweepOf(t, rng, capConfig(4), [2]float64{3000, 3000}, 0.05))
		if err != nil {
			t.Fatal(err)
		}
		if c.Verdict == compare.Regression {
			regressed++
		}
	}
	limit := 0.05 + 3*math.Sqrt(0.05*0.95/R)
	if rate := float64(regressed) / R; rate > limit {
		t.Errorf("A/A: %d of %d capacity comparisons REGRESSED (%.3f), above %.3f", regressed, R, rate, limit)
	}
}

func TestCapacityDropBeyondToleranceIsARegression(t *testing.T) {
	const R = 300
	rng := rand.New(rand.NewPCG(12, 2))
	cfg := Gate{Alpha: 0.05, Tolerance: 0.10}
	hits, improved := 0, 0
	for i := 0; i < R; i++ {
		c, err := cfg.Compare(sweepOf(t, rng, capConfig(4), [2]float64{3000, 2000}, 0.05))
		if err != nil {
			t.Fatal(err)
		}
		if c.Verdict == compare.Regression {
			hits++
		}
		for _, m := range c.Metrics {
			if m.Metric != compare.MetricCapacity || m.Unit != "ops/s" || !m.Gated {
				t.Fatalf("row %+v: want a gated capacity metric in ops/s", m)
			}
			if m.Status == compare.Improved {
				improved++
			}
		}
	}
	if float64(hits)/R < 0.8 {
		t.Errorf("a 33%% capacity drop was a REGRESSION in %d of %d runs, want at least 80%%", hits, R)
	}
	if improved > 0 {
		t.Errorf("a capacity drop was called IMPROVED %d times", improved)
	}
}

func TestCapacityWithoutAKneeIsDescriptiveAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	// The candidate holds every rate up to max_rate: "at least", never a test.
	sw := sweepOf(t, rng, capConfig(3), [2]float64{3000, 1e9}, 0.02)
	c, err := Gate{Alpha: 0.05, Tolerance: 0.10}.Compare(sw)
	if err != nil {
		t.Fatal(err)
	}
	if c.Verdict != compare.VerdictDescriptive {
		t.Errorf("verdict %s, want DESCRIPTIVE", c.Verdict)
	}
	for _, m := range c.Metrics {
		if m.Status != compare.Descriptive || m.Gated || !strings.Contains(m.Note, "candidate at least 40000 ops/s in 3 of 3 searches") {
			t.Errorf("row %s: status %s gated %v note %q", m.Workload, m.Status, m.Gated, m.Note)
		}
	}
}

func TestCapacityLeavesOutPairsCutByTheBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	sw := sweepOf(t, rng, capConfig(3), [2]float64{3000, 3000}, 0.02)
	for i := range sw.Searches {
		if sw.Searches[i].Pair == 2 {
			sw.Searches[i].Found, sw.Searches[i].Stopped = false, StopBudget
		}
	}
	c, err := Gate{Alpha: 0.05, Tolerance: 0.10}.Compare(sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Metrics {
		if m.Pairs != 2 || !m.Gated {
			t.Errorf("row %s: %d pairs gated %v, want the 2 complete pairs tested", m.Workload, m.Pairs, m.Gated)
		}
	}
	if len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "time budget") {
		t.Errorf("warnings %q, want the budget-cut pairs named", c.Warnings)
	}
}

func TestCompareRejectsEmptyAndBadSettings(t *testing.T) {
	if _, err := (Gate{Alpha: 0.05, Tolerance: 0.1}).Compare(&Sweep{}); err == nil {
		t.Error("an empty sweep compared without error")
	}
	sw := sweepOf(t, rand.New(rand.NewPCG(1, 5)), capConfig(2), [2]float64{3000, 3000}, 0.02)
	if _, err := (Gate{Alpha: 0, Tolerance: 0.1}).Compare(sw); err == nil {
		t.Error("alpha 0 accepted")
	}
}

func TestCapacityOnTheSameGridPointsIsNotCertainty(t *testing.T) {
	// Two pairs where the candidate landed two bisection points lower both
	// times: d identical, so a plain paired t has zero spread and p = 0.
	var sw Sweep
	for pair := 0; pair < 2; pair++ {
		for side, v := range []float64{5657, 4000} {
			sw.Searches = append(sw.Searches, Search{Workload: "workloada", Side: Sides[side], Pair: pair,
				CapacityOpsPerSec: v, KneeOpsPerSec: v * 1.19, Found: true, Stopped: StopKnee})
		}
	}
	c, err := Gate{Alpha: 0.05, Tolerance: 0.2}.Compare(&sw)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Metrics[0]
	if m.Status == compare.Regressed || m.P < 0.01 || m.CILow == m.CIHigh {
		t.Errorf("status %s p %.3g CI [%.3f, %.3f]: two pairs on a 19%% grid cannot be certain", m.Status, m.P, m.CILow, m.CIHigh)
	}
}

// TestCapacitySearchesWithoutTheirPairAreNamed: a sweep without the
// candidate's searches of one workload said "descriptive only: no knee, no
// test (raise capacity.max_rate ...)", advice about the rates for data that
// is not there; a search whose pair lacked the other side's was dropped
// unseen. Both are named. Issue 29's second probe round.
func TestCapacitySearchesWithoutTheirPairAreNamed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	sw := sweepOf(t, rng, capConfig(3), [2]float64{3000, 3000}, 0.02)
	var kept []Search
	for _, s := range sw.Searches {
		if s.Side == Sides[1] && (s.Workload == "workloada" || s.Pair == 2) {
			continue // workloada's candidate searches gone, and workloadc's pair 2
		}
		kept = append(kept, s)
	}
	sw.Searches = kept
	c, err := Gate{Alpha: 0.05, Tolerance: 0.10}.Compare(sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Metrics {
		switch m.Workload {
		case "workloada":
			if m.Status != compare.Descriptive || m.Gated || !strings.Contains(m.Note, "no pair of searches holds both sides (3 baseline, 0 candidate searches") || strings.Contains(m.Note, "max_rate") {
				t.Errorf("workloada: status %s gated %v note %q; want it described as not compared, no rate advice", m.Status, m.Gated, m.Note)
			}
		case "workloadc":
			if m.Pairs != 2 {
				t.Errorf("workloadc: %d pairs, want the 2 with both sides", m.Pairs)
			}
		}
	}
	// workloadc is tested on its 2 complete pairs; workloada, gated like it,
	// was not compared: the gate must not pass on workloadc alone.
	if c.Verdict == compare.Pass || len(c.NotCompared) != 1 || !strings.Contains(c.NotCompared[0], "workloada capacity") {
		t.Errorf("verdict %s, not compared %q; want no PASS, workloada named", c.Verdict, c.NotCompared)
	}
	w := strings.Join(c.Warnings, "\n")
	if !strings.Contains(w, "workloadc: 1 search(es) without the other side's search of their pair are left out") || !strings.Contains(w, "workloada: 3 search(es) without") {
		t.Errorf("warnings %q, want the lone searches of both workloads named", c.Warnings)
	}
}
