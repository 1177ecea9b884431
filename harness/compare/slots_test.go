package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

// slotPairs is one workload's duet pairs of identical sides where slot 1
// reads slotWorth times slot 2, with 1% noise a trial; candSlot1[i] says
// whether the candidate held slot 1 in pair i.
func slotPairs(seed uint64, slotWorth float64, candSlot1 []bool) (bt, ct []results.Trial) {
	rng := rand.New(rand.NewPCG(seed, 5))
	for p, c1 := range candSlot1 {
		b := handTrial("C", p, 0, 2*p, math.Exp(0.01*rng.NormFloat64()), 1000)
		c := handTrial("C", p, 1, 2*p, math.Exp(0.01*rng.NormFloat64()), 1000)
		b.Start, c.Start = simEpoch.Add(time.Duration(p)*time.Minute), simEpoch.Add(time.Duration(p)*time.Minute)
		b.Slot, c.Slot = 1, 2
		if c1 {
			b.Slot, c.Slot = 2, 1
		}
		for _, t := range []*results.Trial{&b, &c} {
			if t.Slot == 1 {
				s := t.Ops["READ"]
				s.Intended.P50Micros *= slotWorth
				t.Ops["READ"] = s
			}
		}
		bt, ct = append(bt, b), append(ct, c)
	}
	return bt, ct
}

// TestSlotEffectIsTakenOut: identical sides, slot 1 worth -4%. Slots
// alternated: the ratio is about 1 with the slot's worth reported and the
// interval no wider than the slot's swing would make it. Five pairs of
// one order and three of the other: the plain mean would lean by a
// quarter of the slot's worth; the fitted one does not.
func TestSlotEffectIsTakenOut(t *testing.T) {
	cfg := Config{Gate: []string{MetricP50}, Tolerances: map[string]float64{MetricP50: 0.03}}
	for _, tc := range []struct {
		name  string
		order []bool
	}{
		{"alternated", []bool{true, false, true, false, true, false, true, false}},
		{"five and three", []bool{true, true, true, true, true, false, false, false}},
	} {
		bt, ct := slotPairs(3, 0.96, tc.order)
		c, err := Compare(simManifest("b", bt), simManifest("c", ct), cfg)
		if err != nil {
			t.Fatal(err)
		}
		m := find(t, c, "C", "READ", MetricP50)
		if m.SlotEffect < 0.95 || m.SlotEffect > 0.97 {
			t.Errorf("%s: slot effect %.4f, want about 0.96", tc.name, m.SlotEffect)
		}
		if !strings.Contains(m.Note, "slot 1 read -") || !strings.Contains(m.Note, "against slot 2") {
			t.Errorf("%s: note %q; want the slot's worth said", tc.name, m.Note)
		}
		if m.Ratio < 0.99 || m.Ratio > 1.01 || m.CIHigh-m.CILow > 0.03 || m.Status != Unchanged {
			t.Errorf("%s: ratio %.4f [%.4f, %.4f] %s; want about 1, narrow, UNCHANGED", tc.name, m.Ratio, m.CILow, m.CIHigh, m.Status)
		}
	}
	// Slots not recorded (stores before them): the plain paired estimate.
	bt, ct := slotPairs(3, 1, []bool{true, false, true, false})
	for i := range bt {
		bt[i].Slot, ct[i].Slot = 0, 0
	}
	c, err := Compare(simManifest("b", bt), simManifest("c", ct), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m := find(t, c, "C", "READ", MetricP50); m.SlotEffect != 0 {
		t.Errorf("slot effect %v without recorded slots", m.SlotEffect)
	}
}

func TestSlotEstimateNeedsBothOrders(t *testing.T) {
	d := []float64{0.01, 0.02, -0.01, 0.0}
	for _, s := range [][]int{{1, 1, 1, 1}, {1, -1, 1, 1}, {1, -1, 0, -1}, {1, -1}} {
		if _, _, ok := slotEstimate(d, s); ok {
			t.Errorf("slots %v fitted; want the plain estimate", s)
		}
	}
	e, b, ok := slotEstimate(d, []int{1, 1, -1, -1})
	if !ok || math.Abs(e.Mean-0.005) > 1e-12 || math.Abs(b-0.01) > 1e-12 || e.DF != 2 {
		t.Errorf("fit %+v b %v ok %v; want mean 0.005, b 0.01, df 2", e, b, ok)
	}
}

func TestSlotNoteOnlyBeyondNoise(t *testing.T) {
	if n := slotNote(0.001, 0.01, 6, 1); n != "" {
		t.Errorf("a slot worth within noise noted: %q", n)
	}
	if n := slotNote(-0.04, 0.005, 6, 1); !strings.HasPrefix(n, "slot 1 read -3.9% [") {
		t.Errorf("note %q", n)
	}
	// 3.0 standard errors on 6 df: beyond 95% for one row (t 2.45), within
	// it over ninety rows (t about 6.5), as a run's chance readings are.
	if n := slotNote(0.03, 0.01, 6, 1); n == "" {
		t.Error("a slot worth 3 se not noted for one row")
	}
	if n := slotNote(0.03, 0.01, 6, 90); n != "" {
		t.Errorf("a slot worth 3 se noted over ninety rows: %q", n)
	}
}
