package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bPairs are workload B's cpu_per_op pair ratios (candidate/baseline) of a
// release A/A on this VM (2026-12-03, aa5a): one pair's baseline spent 65%
// more for one window.
var bPairs = []float64{0.995, 1.016, 0.606, 0.995, 1.002, 1.028, 0.995, 0.989, 0.999, 0.994}

func logs(rs []float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = math.Log(r)
	}
	return out
}

// TestDropOutliersLeavesOutOnlyTheHiccup: of B's ten pairs only the -39%
// one is left out (with its block); a change of every pair leaves out
// nothing, nor do too few pairs, nor a cost whose pairs are bimodal.
func TestDropOutliersLeavesOutOnlyTheHiccup(t *testing.T) {
	d := logs(bPairs)
	blocks := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	kept, kb, out := dropOutliers(d, blocks)
	if len(out) != 1 || out[0] != 2 || len(kept) != 9 || len(kb) != 9 {
		t.Fatalf("left out %v, kept %d ratios and %d blocks; want only pair 2 out", out, len(kept), len(kb))
	}
	if kept[2] != d[3] || kb[4] != 1 {
		t.Errorf("kept %v blocks %v: the pairs after the one left out shifted wrongly", kept, kb)
	}
	if d[2] != math.Log(0.606) {
		t.Error("dropOutliers changed its input")
	}
	shifted := logs(bPairs[3:])
	for i := range shifted {
		shifted[i] += math.Log(1.08)
	}
	if _, _, out := dropOutliers(shifted, nil); out != nil {
		t.Errorf("a change of every pair left out %v", out)
	}
	if _, _, out := dropOutliers(d[:4], nil); out != nil {
		t.Errorf("4 pairs: left out %v", out)
	}
	bimodal := logs([]float64{1, 1.001, 0.999, 1.3, 1.31, 1.0, 1.002, 1.29, 0.998, 1.0})
	if _, _, out := dropOutliers(bimodal, nil); out != nil {
		t.Errorf("three pairs in ten at +30%% are the cost's behaviour, not a hiccup: left out %v", out)
	}
}

// TestOneHiccupPairDoesNotMakeAnAAInconclusive: six workloads of 10 pairs
// at 1.5% noise, no change, and one pair of B whose baseline cost 65% more:
// B's cpu_per_op is UNCHANGED on 9 pairs with a note naming the one left
// out, and the verdict PASS.
func TestOneHiccupPairDoesNotMakeAnAAInconclusive(t *testing.T) {
	bt, ct := costPairs(rand.New(rand.NewPCG(5, 9)), sixWorkloads, 10, 0.015, nil)
	for i := range bt {
		if bt[i].Workload == "B" && bt[i].Pair == 2 {
			bt[i].Server.CPUPerOpMicros *= 1.65
		}
	}
	cfg := Config{Gate: []string{MetricCPUPerOp}, Tolerances: map[string]float64{MetricCPUPerOp: 0.05}}
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := find(t, cmp, "B", OpAll, MetricCPUPerOp)
	if b.Status != Unchanged || cmp.Verdict != Pass {
		t.Fatalf("B %+v, verdict %s; want UNCHANGED and PASS", b, cmp.Verdict)
	}
	if !strings.Contains(b.Note, "cpu_per_op: 1 pair left out (ratio -39.") || b.Pairs != 9 {
		t.Errorf("B's note %q, %d pairs; want 9 pairs and the note naming the one left out", b.Note, b.Pairs)
	}
	if math.Abs(math.Log(b.Candidate/b.Baseline)-math.Log(b.Ratio)) > 1e-9 {
		t.Errorf("B's sides %.2f and %.2f do not give its ratio %.4f: they must be the kept pairs'", b.Baseline, b.Candidate, b.Ratio)
	}
	if b.CIHigh-b.CILow > 0.04 {
		t.Errorf("B's interval [%.4f, %.4f] still carries the hiccup", b.CILow, b.CIHigh)
	}
	for _, w := range []string{"A", "C", "D", "E", "F"} {
		if m := find(t, cmp, w, OpAll, MetricCPUPerOp); m.Note != "" {
			t.Errorf("%s: note %q, though no pair of it was left out", w, m.Note)
		}
	}
}
