package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// latencyPairs is an interleaved schedule of pairs of the six core
// workloads with YCSB's mixes (withCoreMixes), every operation's latencies
// scaled by the pair's noise (sd a pair) and, on the candidate, by
// effect[op] (1 when absent).
func latencyPairs(seed uint64, pairs int, sd float64, effect map[string]float64) (bt, ct []results.Trial) {
	rng := rand.New(rand.NewPCG(seed, 3))
	bt, ct = costPairs(rng, sixWorkloads, pairs, sd, nil)
	bt, ct = withCoreMixes(bt), withCoreMixes(ct)
	scale := func(t *results.Trial, f func(op string) float64) {
		for op, s := range t.Ops {
			l := s.Intended
			k := f(op)
			l.P50Micros, l.P95Micros, l.P99Micros, l.P999Micros, l.MeanMicros = l.P50Micros*k, l.P95Micros*k, l.P99Micros*k, l.P999Micros*k, l.MeanMicros*k
			s.Intended = l
			t.Ops[op] = s
		}
	}
	for i := range bt {
		b := math.Exp(sd * rng.NormFloat64() / math.Sqrt2)
		c := b * math.Exp(sd*rng.NormFloat64()/math.Sqrt2)
		scale(&bt[i], func(string) float64 { return b })
		scale(&ct[i], func(op string) float64 {
			if e := effect[op]; e > 0 {
				return c * e
			}
			return c
		})
	}
	return bt, ct
}

func latencyConfig() Config {
	return Config{Gate: []string{MetricP50}, Tolerances: map[string]float64{MetricP50: 0.05}}
}

// TestLatencyClassRowSeesAWaitOnTheGetPath: every READ +7.5% (a wait on the
// Get path) at a 5% p50 tolerance, 8 pairs, 3% noise a pair: each
// workload's READ row, one of eleven in the Holm family, stays short of
// REGRESSED; the reads row over the five workloads that carry READ is
// REGRESSED, and so is the verdict. Writes, unchanged, have a row of their
// own (A, B, F's UPDATE and D, E's INSERT) that flags nothing; no row pools
// SCAN (E alone) or READ-MODIFY-WRITE (no class).
func TestLatencyClassRowSeesAWaitOnTheGetPath(t *testing.T) {
	bt, ct := latencyPairs(4, 8, 0.03, map[string]float64{"READ": 1.075, "READ-MODIFY-WRITE": 1.075})
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), latencyConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := find(t, cmp, AllWorkloads, ClassReads, MetricP50)
	if !r.Primary || !r.Gated || !r.DetectsOnly() || r.Status != Regressed || cmp.Verdict != Regression {
		t.Fatalf("reads row %+v, verdict %s; want a primary row REGRESSED and REGRESSION", r, cmp.Verdict)
	}
	if want := []string{"A", "B", "C", "D", "F"}; fmt.Sprint(r.Pools) != fmt.Sprint(want) {
		t.Errorf("the reads row pools %v, want %v", r.Pools, want)
	}
	if r.Ratio < 1.06 || r.Ratio > 1.09 {
		t.Errorf("reads ratio %.4f, want about 1.075", r.Ratio)
	}
	for _, w := range []string{"A", "B", "C", "D", "F"} {
		if m := find(t, cmp, w, "READ", MetricP50); m.Status == Regressed {
			t.Logf("%s READ p50 REGRESSED on its own (%.4f, bound %.4f)", w, m.Ratio, m.RegressionBound)
		}
	}
	wr := find(t, cmp, AllWorkloads, ClassWrites, MetricP50)
	if want := []string{"A", "B", "D", "E", "F"}; fmt.Sprint(wr.Pools) == fmt.Sprint(want) {
		t.Errorf("the writes row pools F, which has no UPDATE or INSERT")
	}
	if wr.Status == Regressed {
		t.Errorf("writes row %+v REGRESSED with writes unchanged", wr)
	}
	for _, m := range cmp.Metrics {
		if m.Primary && (m.Op == ClassScans || m.Op == "READ-MODIFY-WRITE") {
			t.Errorf("a primary row %s/%s: scans are E's alone, READ-MODIFY-WRITE has no class", m.Workload, m.Op)
		}
	}
}

// TestLatencyClassRowFalseAlarm: reads and writes exactly at tolerance
// (x1.05) in every workload, 1000 seeded runs, 3% noise a pair: the verdict says REGRESSION
// at most alpha plus three binomial standard errors of the time; at no
// change, almost never. The class rows never hold a PASS back: with no
// change the verdict is PASS as often as without them.
func TestLatencyClassRowFalseAlarm(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 seeded comparisons; run without -short")
	}
	const R = 1000
	for _, tc := range []struct {
		effect float64
		max    float64
	}{
		{1.05, 0.05 + 3*math.Sqrt(0.05*0.95/R)},
		{1, 0.005},
	} {
		regressions := 0
		for i := range R {
			bt, ct := latencyPairs(uint64(i), 8, 0.03, map[string]float64{"READ": tc.effect, "UPDATE": tc.effect, "INSERT": tc.effect})
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), latencyConfig())
			if err != nil {
				t.Fatal(err)
			}
			if cmp.Verdict == Regression {
				regressions++
			}
		}
		if got := float64(regressions) / R; got > tc.max {
			t.Errorf("READ x%.2f: REGRESSION in %.1f%% of runs, want at most %.1f%%", tc.effect, 100*got, 100*tc.max)
		}
	}
}

// TestLatencyClassRowsSkipUngated: a latency the gate does not select has
// no class row, and one gated in a single workload of its class has none.
func TestLatencyClassRowsSkipUngated(t *testing.T) {
	bt, ct := latencyPairs(9, 8, 0.03, nil)
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{"C/*/" + MetricP50}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cmp.Metrics {
		if m.Primary {
			t.Errorf("a class row %s/%s/%s with p50 gated in C alone", m.Workload, m.Op, m.Metric)
		}
	}
	cmp, err = Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP95}})
	if err != nil {
		t.Fatal(err)
	}
	if r := find(t, cmp, AllWorkloads, ClassReads, MetricP95); len(r.Pools) != 5 {
		t.Errorf("reads p95 row pools %v, want the five workloads with READ", r.Pools)
	}
}

// TestDetectOnlyLatencyNeverHoldsAPassBack: with the latency rows detect
// only (the release suite's compare.detect_only), an A/A whose writes are
// too noisy to show within tolerance PASSes on the server costs, and a
// wait on every Get is still REGRESSION.
func TestDetectOnlyLatencyNeverHoldsAPassBack(t *testing.T) {
	cfg := Config{Gate: []string{MetricP50, MetricCPUPerOp}, DetectOnly: []string{MetricP50},
		Tolerances: map[string]float64{MetricP50: 0.01, MetricCPUPerOp: 0.10}}
	bt, ct := latencyPairs(21, 8, 0.03, nil)
	c, err := Compare(simManifest("b", bt), simManifest("c", ct), cfg)
	if err != nil {
		t.Fatal(err)
	}
	undecided := 0
	for _, m := range c.Metrics {
		if m.Metric == MetricP50 && m.Gated && m.Status == Inconclusive {
			undecided++
			if !m.DetectsOnly() {
				t.Errorf("%s %s p50 not detect-only", m.Workload, m.Op)
			}
		}
	}
	if undecided == 0 || c.Verdict != Pass {
		t.Fatalf("%d undecided p50 rows, verdict %s; want some undecided at a 1%% tolerance and PASS", undecided, c.Verdict)
	}
	bt, ct = latencyPairs(21, 8, 0.03, map[string]float64{"READ": 1.2})
	if c, err = Compare(simManifest("b", bt), simManifest("c", ct), cfg); err != nil || c.Verdict != Regression {
		t.Fatalf("every READ +20%%: verdict %v, err %v; want REGRESSION", c.Verdict, err)
	}
}
