package capacity

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/workload"
)

func testConfig() Config {
	return Config{Workloads: []string{"workloada"}, StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 20000,
		SLOP99: 10 * time.Millisecond, Hold: 0.95, MaxErrorRate: 0.01, Resolution: 0.10,
		StepTime: time.Second, Pairs: 3, Budget: time.Hour}
}

// knee models a system whose p99 stays at 1 ms up to its knee and explodes
// beyond it, and whose achieved rate caps at the knee.
func knee(kneeOps [2]float64) Prober {
	return func(_ context.Context, side int, _ string, rate float64, _ string) (Step, error) {
		st := Step{Ops: int64(rate * 5), AchievedOpsPerSec: rate, WorstP99Micros: 1000, WorstOp: "READ", Wall: time.Millisecond}
		if rate > kneeOps[side] {
			st.AchievedOpsPerSec, st.WorstP99Micros = kneeOps[side], 500000
		}
		return st, nil
	}
}

func TestLadderIsGeometricAndEndsAtTheCeiling(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want []float64
	}{
		{"geometric", Config{StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 5000}, []float64{500, 1000, 2000, 4000, 5000}},
		{"ceiling on a step", Config{StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 4000}, []float64{500, 1000, 2000, 4000}},
		{"list capped", Config{Rates: []float64{100, 300, 900}, MaxOpsPerSec: 500}, []float64{100, 300}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cfg.Ladder(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Ladder() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestJudgeNamesWhatAStepMissed(t *testing.T) {
	c := testConfig()
	for _, tc := range []struct {
		name string
		st   Step
		good bool
	}{
		{"within everything", Step{TargetOpsPerSec: 1000, AchievedOpsPerSec: 990, WorstP99Micros: 9000, Ops: 5000}, true},
		{"slo exceeded", Step{TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000, WorstP99Micros: 10001, Ops: 5000}, false},
		{"rate not held", Step{TargetOpsPerSec: 1000, AchievedOpsPerSec: 940, WorstP99Micros: 100, Ops: 5000}, false},
		{"errors", Step{TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000, WorstP99Micros: 100, Ops: 5000, Errors: 51}, false},
		{"nothing completed", Step{TargetOpsPerSec: 1000}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.Judge(&tc.st)
			if tc.st.Good != tc.good || (tc.st.Why == "") != tc.good {
				t.Errorf("Good %v Why %q, want good %v", tc.st.Good, tc.st.Why, tc.good)
			}
		})
	}
}

func TestSearchBracketsTheKneeWithinTheResolution(t *testing.T) {
	for _, k := range []float64{700, 3100, 4000, 12345} {
		cfg := testConfig()
		cfg.Pairs = 1
		sw, err := Run(context.Background(), cfg, knee([2]float64{k, k}), rand.New(rand.NewPCG(1, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sw.Searches {
			if !s.Found || s.Stopped != StopKnee {
				t.Fatalf("knee %v: search stopped %q, want a knee", k, s.Stopped)
			}
			if s.CapacityOpsPerSec > k || s.KneeOpsPerSec <= k || s.KneeOpsPerSec > s.CapacityOpsPerSec*(1+cfg.Resolution)+1 {
				t.Errorf("knee %v: capacity %v, bad %v: want capacity <= knee < bad within 10%%", k, s.CapacityOpsPerSec, s.KneeOpsPerSec)
			}
		}
	}
}

func TestSearchSaysAtLeastAtTheCeilingAndBelowTheStart(t *testing.T) {
	cfg := testConfig()
	cfg.Pairs = 1
	sw, err := Run(context.Background(), cfg, knee([2]float64{1e9, 100}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, c := sw.Searches[0], sw.Searches[1]
	if b.Found || b.Stopped != StopMaxRate || b.CapacityOpsPerSec != cfg.MaxOpsPerSec {
		t.Errorf("baseline: %+v, want at least max_rate", b)
	}
	if c.Found || c.Stopped != StopBelowStart || len(c.Steps) != 2 || c.Steps[1].Phase != "confirm" {
		t.Errorf("candidate: %+v, want below the start after the first rate failed twice", c)
	}
	if got := b.Describe(); got != "at least 20000 ops/s (held up to max_rate)" {
		t.Errorf("Describe() = %q", got)
	}
}

func TestAStrayFailedStepOnTheLadderIsConfirmedAway(t *testing.T) {
	cfg := testConfig()
	cfg.Pairs = 1
	calls := 0
	probe := func(ctx context.Context, side int, w string, rate float64, phase string) (Step, error) {
		st, _ := knee([2]float64{3000, 3000})(ctx, side, w, rate, phase)
		if side == 0 && rate == 1000 && phase == "sweep" {
			calls++
			st.WorstP99Micros = 90000 // one GC pause
		}
		return st, nil
	}
	sw, err := Run(context.Background(), cfg, probe, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := sw.Searches[0]
	if calls != 1 || !b.Found || b.CapacityOpsPerSec < 2700 || b.CapacityOpsPerSec > 3000 {
		t.Errorf("baseline %s after a stray failure at 1000 ops/s, want the knee near 3000", b.Describe())
	}
}

func TestStepsOfAPairInterleave(t *testing.T) {
	cfg := testConfig()
	var sides []string
	sw, err := Run(context.Background(), cfg, knee([2]float64{3000, 3000}), rand.New(rand.NewPCG(3, 4)),
		func(e Event) { sides = append(sides, e.Side) })
	if err != nil {
		t.Fatal(err)
	}
	// Equal knees: both searches take the same steps, so every round of two holds both sides.
	first := 0
	for i := 0; i+1 < len(sides); i += 2 {
		if sides[i] == sides[i+1] {
			t.Fatalf("round %d ran %s twice: %v", i/2, sides[i], sides)
		}
		if sides[i] == Sides[0] {
			first++
		}
	}
	if first == 0 || first == len(sides)/2 {
		t.Errorf("baseline went first in %d of %d rounds: the order is not random", first, len(sides)/2)
	}
	if len(sw.Primes) != 2 || sw.Primes[0].Phase != "prime" || sw.Primes[0].TargetOpsPerSec != cfg.StartOpsPerSec {
		t.Errorf("primes %+v, want one throwaway step a side at the start rate", sw.Primes)
	}
	for _, s := range sw.Searches {
		if s.Steps[0].Phase == "prime" {
			t.Errorf("a priming step counted in the %s search", s.Side)
		}
	}
	if len(sw.Capacities("workloada")) != cfg.Pairs {
		t.Errorf("%d pairs, want %d", len(sw.Capacities("workloada")), cfg.Pairs)
	}
}

func TestBudgetStopsTheSweepAndSaysAtLeast(t *testing.T) {
	cfg := testConfig()
	cfg.Budget, cfg.StepTime = 50*time.Millisecond, 10*time.Millisecond
	// A fake clock that each step moves 10 ms: the budget is kept on it, so a
	// busy machine cannot change the outcome.
	var mu sync.Mutex
	clock := time.Unix(1000, 0)
	cfg.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	slow := func(ctx context.Context, side int, w string, rate float64, phase string) (Step, error) {
		mu.Lock()
		clock = clock.Add(10 * time.Millisecond)
		mu.Unlock()
		return knee([2]float64{1e9, 1e9})(ctx, side, w, rate, phase)
	}
	sw, err := Run(context.Background(), cfg, slow, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sw.BudgetHit || len(sw.Searches) != 2 {
		t.Fatalf("budget hit %v, %d searches: want the first pair cut short and no other", sw.BudgetHit, len(sw.Searches))
	}
	for _, s := range sw.Searches {
		if s.Found || s.Stopped != StopBudget {
			t.Errorf("%s: stopped %q found %v, want the budget", s.Side, s.Stopped, s.Found)
		}
	}
	if sw.Elapsed > 5*cfg.Budget {
		t.Errorf("sweep took %v against a budget of %v", sw.Elapsed, cfg.Budget)
	}
}

func TestRunReturnsTheStepErrorWithWhatFailed(t *testing.T) {
	boom := errors.New("clone failed")
	sw, err := Run(context.Background(), testConfig(), func(context.Context, int, string, float64, string) (Step, error) {
		return Step{}, boom
	}, nil, nil)
	if !errors.Is(err, boom) || sw == nil {
		t.Fatalf("err %v, want the step's error and the sweep so far", err)
	}
}

func TestStepOfMeasuresIntendedLatencyAndErrors(t *testing.T) {
	mk := func(v int64, n int) *hdr.Histogram {
		h := hdr.New(1, 60_000_000, 3)
		for i := 0; i < n; i++ {
			h.RecordValue(v)
		}
		return h
	}
	res := &loadgen.Result{Ops: 200, Duration: time.Second}
	res.PerOp[workload.Read] = &loadgen.OpResult{Op: workload.Read, Intended: mk(1000, 100), Service: mk(10, 100)}
	res.PerOp[workload.Update] = &loadgen.OpResult{Op: workload.Update, Intended: mk(5000, 100), Service: mk(10, 100)}
	res.PerOp[workload.Update].Statuses[workload.Error] = 3
	st := StepOf(res)
	if st.AchievedOpsPerSec != 200 || st.WorstOp != "UPDATE" || st.WorstP99Micros < 4990 || st.WorstP99Micros > 5010 || st.Errors != 3 {
		t.Errorf("StepOf = %+v", st)
	}
	if st.P50Micros < 990 || st.P50Micros > 1010 {
		t.Errorf("p50 over both ops %v, want about 1000 µs", st.P50Micros)
	}
}

func TestSaveAndLoadRoundTrip(t *testing.T) {
	sw, err := Run(context.Background(), testConfig(), knee([2]float64{3000, 2000}), rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Baseline, sw.Candidate, sw.RunID = "2.6.1", "2.6.2", "20261202T040000"
	st, err := results.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Save(st, sw)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(st.Root(), "capacity", sw.RunID+".json"); p != want {
		t.Errorf("stored at %s, want %s", p, want)
	}
	got, err := Load(st, sw.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Searches) != len(sw.Searches) || got.Searches[1].CapacityOpsPerSec != sw.Searches[1].CapacityOpsPerSec {
		t.Errorf("round trip lost searches: %+v", got.Searches)
	}
}

// TestJudgeByTheMedian: with only a median SLO a step's stalled tail does
// not make it bad, its queueing median does; with both, either does.
func TestJudgeByTheMedian(t *testing.T) {
	for _, tc := range []struct {
		p50, p99 time.Duration
		step     Step
		good     bool
		why      string
	}{
		{5 * time.Millisecond, 0, Step{TargetOpsPerSec: 500, AchievedOpsPerSec: 500, Ops: 10, WorstP50Micros: 800, WorstP99Micros: 40000}, true, ""},
		{5 * time.Millisecond, 0, Step{TargetOpsPerSec: 500, AchievedOpsPerSec: 500, Ops: 10, WorstP50Micros: 6000, WorstP50Op: "READ", WorstP99Micros: 9000}, false, "median of READ"},
		{5 * time.Millisecond, 10 * time.Millisecond, Step{TargetOpsPerSec: 500, AchievedOpsPerSec: 500, Ops: 10, WorstP50Micros: 800, WorstP99Micros: 40000, WorstOp: "READ"}, false, "p99 of READ"},
	} {
		c := Config{SLOP50: tc.p50, SLOP99: tc.p99, Hold: 0.98, MaxErrorRate: 0.01}
		st := tc.step
		c.Judge(&st)
		if st.Good != tc.good || !strings.Contains(st.Why, tc.why) {
			t.Errorf("SLOs %v/%v, step %+v: good %v (%q), want %v (%q)", tc.p50, tc.p99, tc.step, st.Good, st.Why, tc.good, tc.why)
		}
	}
}
