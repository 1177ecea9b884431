package runner

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestSlotsAlternateAndBalance: over an even number of pairs every
// workload has each side in slot 1 half the time, every pair index has
// both sides in slot 1 across an even number of workloads, and no two
// consecutive pairs of a workload put the same side first.
func TestSlotsAlternateAndBalance(t *testing.T) {
	for _, tt := range []struct{ pairs, workloads int }{{10, 6}, {2, 1}, {20, 2}, {4, 4}} {
		for coin := range 2 {
			perWorkload := make([]int, tt.workloads)
			perPair := make([]int, tt.pairs)
			for w := range tt.workloads {
				prev := 0
				for p := range tt.pairs {
					b := baselineSlot(coin, p, w)
					if b != 1 && b != 2 {
						t.Fatalf("baselineSlot(%d, %d, %d) = %d, want 1 or 2", coin, p, w, b)
					}
					if p > 0 && b == prev {
						t.Errorf("coin %d workload %d: pairs %d and %d both give the baseline slot %d", coin, w, p-1, p, b)
					}
					prev = b
					if b == 1 {
						perWorkload[w]++
						perPair[p]++
					}
				}
			}
			for w, n := range perWorkload {
				if n != tt.pairs/2 {
					t.Errorf("%+v coin %d: workload %d has the baseline in slot 1 in %d of %d pairs, want half", tt, coin, w, n, tt.pairs)
				}
			}
			if tt.workloads%2 == 0 {
				for p, n := range perPair {
					if n != tt.workloads/2 {
						t.Errorf("%+v coin %d: pair %d has the baseline in slot 1 in %d of %d workloads, want half", tt, coin, p, n, tt.workloads)
					}
				}
			}
		}
	}
}

// TestFirstSideFollowsTheRunsSeed: a run's slots are one draw of its
// random source: the same seed gives the same slots, and both draws occur
// over seeds, so neither side is slot 1 of pair 0 by construction.
func TestFirstSideFollowsTheRunsSeed(t *testing.T) {
	ws := []string{"workloada", "workloadb", "workloadc"}
	plan := func(seed uint64) []int {
		r := &Runner{Suite: &suite.Suite{Workloads: ws}, Rand: rand.New(rand.NewPCG(seed, 7))}
		var out []int
		for p := range 4 {
			for _, w := range ws {
				out = append(out, r.firstSide(p, w))
			}
		}
		return out
	}
	seen := map[int]bool{}
	for seed := range uint64(16) {
		a, b := plan(seed), plan(seed)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("seed %d: two runs disagree at %d: %v vs %v", seed, i, a, b)
			}
		}
		seen[a[0]] = true
		for i := len(ws); i < len(a); i++ {
			if a[i] == a[i-len(ws)] {
				t.Errorf("seed %d: workload %s keeps side %d first in consecutive pairs: %v", seed, ws[i%len(ws)], a[i], a)
			}
		}
	}
	if !seen[0] || !seen[1] {
		t.Errorf("over 16 seeds pair 0's first side was always %v", seen)
	}
}

// TestSlotTablesAreNamedForTheSlot: both trials of a pair get the pair's
// number and names of one length, which say the slot, not the side.
func TestSlotTablesAreNamedForTheSlot(t *testing.T) {
	r := &Runner{RunID: "20261206T045916"}
	for _, seq := range []int64{1, 9, 10, 123} {
		one, two := r.slotTable(1, seq), r.slotTable(2, seq)
		if one == two || len(one) != len(two) {
			t.Errorf("pair %d: tables %q and %q; want two names of one length", seq, one, two)
		}
	}
	if got, want := r.slotTable(2, 7), "regress_trial_20261206T045916_s2_7"; got != want {
		t.Errorf("slotTable(2, 7) = %q, want %q", got, want)
	}
	single := &Runner{}
	paired := &Runner{slots: slots{paired: true}}
	for _, tt := range []struct {
		r     *Runner
		order int
		want  int
	}{{single, 0, 0}, {paired, 0, 1}, {paired, 1, 2}} {
		if got := tt.r.slotOf(tt.order); got != tt.want {
			t.Errorf("slotOf(%d) paired=%v = %d, want %d", tt.order, tt.r.slots.paired, got, tt.want)
		}
	}
}

func TestSidesSeedAtOnceOnlyOnTwoClusters(t *testing.T) {
	c1, c2 := &hbase.Client{}, &hbase.Client{}
	on := func(c *hbase.Client, zk, znode string) *side {
		return &side{t: &sut.Target{Client: c, ZK: zk, ZNode: znode}}
	}
	cases := []struct {
		name  string
		sides []*side
		want  bool
	}{
		{"two clusters", []*side{on(c1, "h:1", "/hbase"), on(c2, "h:2", "/hbase")}, false},
		{"one client", []*side{on(c1, "", ""), on(c1, "", "")}, true},
		{"one quorum and znode", []*side{on(c1, "h:1", "/hbase"), on(c2, "h:1", "/hbase")}, true},
		{"one quorum, two znodes", []*side{on(c1, "h:1", "/a"), on(c2, "h:1", "/b")}, false},
		{"quorum unknown", []*side{on(c1, "", ""), on(c2, "", "")}, false},
		{"one side", []*side{on(c1, "h:1", "/hbase")}, false},
	}
	for _, tc := range cases {
		if got := shareCluster(tc.sides); got != tc.want {
			t.Errorf("%s: shareCluster %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAtOnceRunsEverySideAndKeepsItsError(t *testing.T) {
	sides := []*side{{t: &sut.Target{Name: "a"}}, {t: &sut.Target{Name: "b"}}, {t: &sut.Target{Name: "c"}}}
	release := make(chan struct{})
	started := make(chan string, len(sides))
	go func() {
		// Every side must be running before any may finish: at once, not in turn.
		for range sides {
			<-started
		}
		close(release)
	}()
	errs := atOnce(sides, func(i int, s *side) error {
		started <- s.t.Name
		select {
		case <-release:
		case <-time.After(time.Minute):
			return errors.New("the other sides never started: one at a time")
		}
		if i == 1 {
			return errors.New("b failed")
		}
		return nil
	})
	if errs[0] != nil || errs[1] == nil || errs[1].Error() != "b failed" || errs[2] != nil {
		t.Errorf("errors %v, want only the second side's", errs)
	}
}
