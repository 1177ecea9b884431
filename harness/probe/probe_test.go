package probe

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// TestProvidersRegisterWhatTheTrialAsks: every counted trial gets the
// counts probe (before and closed, never window: nothing of it spans a
// counted window); the profiled pair gets the flight recorder alone, whose
// window phase is the one that runs across a window, and no counts read
// that its recording could catch.
func TestProvidersRegisterWhatTheTrialAsks(t *testing.T) {
	providers := []Provider{Counts{}, &Profiler{}}
	hs := For(providers, Trial{Workload: "workloadc", Table: "t", Pair: 3})
	if len(hs) != 1 || hs[0].Window != nil || hs[0].Before == nil || hs[0].Closed == nil {
		t.Errorf("a counted trial: want the counts probe alone, reading before and after the window, never across it")
	}
	hs = For(providers, Trial{Workload: "workloadc", Table: "t", Profiled: true})
	if len(hs) != 1 || hs[0].Window == nil || hs[0].Stored == nil {
		t.Errorf("the profiled pair: want the flight recorder alone (window and stored phases)")
	}
	if slices.ContainsFunc(hs, func(h Hooks) bool { return h.Before != nil || h.Closed != nil }) {
		t.Errorf("the profiled pair reads the servers before or after its window: the recording would catch the read")
	}
	// Servers profiled over JMX get their recorders started ahead of the
	// idle watch (a JVM and a connection, no reading of the servers).
	jmx := Trial{Workload: "workloadc", Table: "t", Profiled: true, Servers: servercost.Servers{{Name: "rs", JMXRemote: "rs1:9999"}}}
	if hs := For(providers, jmx); len(hs) != 1 || hs[0].Before == nil || hs[0].Window == nil || hs[0].Closed != nil {
		t.Errorf("the profiled pair over JMX: want the recorder prepared before, recording across the window, nothing after")
	}
}

// TestPhasesCallEverySideOnceInOrder: each phase calls every side's hooks
// (a duet's two at once) with its own side's measured trial, and returns
// each side's outcome.
func TestPhasesCallEverySideOnceInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	rec := func(side int) Hooks {
		note := func(p string) {
			mu.Lock()
			got = append(got, fmt.Sprintf("%s%d", p, side))
			mu.Unlock()
		}
		return Hooks{
			Before: func(context.Context) { note("before") },
			Window: func(context.Context, time.Time) { note("window") },
			Closed: func(_ context.Context, m *Measured) Outcome {
				if m.CPUPerOpMicros != float64(side) {
					t.Errorf("side %d closed with side %v's trial", side, m.CPUPerOpMicros)
				}
				note("closed")
				return Outcome{Counts: &results.Counts{CountsNote: fmt.Sprint(side)}}
			},
			Stored: func(_ context.Context, m *Measured, ok bool) Outcome {
				note(fmt.Sprintf("stored%v-", ok))
				return Outcome{ProfileID: fmt.Sprint(side)}
			},
		}
	}
	sides := []TrialHooks{{rec(0)}, {rec(1), {}}}
	ms := []*Measured{{CPUPerOpMicros: 0}, {CPUPerOpMicros: 1}}
	ctx := context.Background()
	Before(ctx, sides)
	Window(ctx, sides, time.Time{})
	closed := Closed(ctx, sides, ms)
	stored := Stored(ctx, sides, ms, []bool{true, false})
	for i, phase := range []string{"before", "window", "closed", "stored"} {
		pair := got[2*i : 2*i+2]
		slices.Sort(pair)
		want := []string{phase + "0", phase + "1"}
		if phase == "stored" {
			want = []string{"storedfalse-1", "storedtrue-0"}
		}
		if !slices.Equal(pair, want) {
			t.Errorf("phase %s called %v, want %v (all calls %v)", phase, pair, want, got)
		}
	}
	for i := range 2 {
		if c := closed[i].Counts; c == nil || c.CountsNote != fmt.Sprint(i) {
			t.Errorf("side %d: closed returned %+v, want its own counts", i, closed[i])
		}
		if stored[i].ProfileID != fmt.Sprint(i) {
			t.Errorf("side %d: stored returned %+v, want its own profile id", i, stored[i])
		}
	}
}
