package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestHooksForRegistersWhatTheTrialAsks: every counted trial gets the
// counts probe (before and closed, never window: nothing of it spans a
// counted window); the profiled pair gets the flight recorder alone, whose
// window phase is the one that runs across a window, and no counts read
// that its recording could catch.
func TestHooksForRegistersWhatTheTrialAsks(t *testing.T) {
	r := &Runner{Profile: true}
	s := &side{}
	for _, pair := range []int{0, 3} {
		hs := r.hooksFor(s, "workloadc", "t", pair)
		if len(hs) != 1 || hs[0].window != nil || hs[0].before == nil || hs[0].closed == nil {
			t.Errorf("pair %d: want the counts probe alone, reading before and after the window, never across it", pair)
		}
	}
	hs := r.hooksFor(s, "workloadc", "t", profilePair)
	if len(hs) != 1 || hs[0].window == nil || hs[0].stored == nil {
		t.Errorf("the profiled pair: want the flight recorder alone (window and stored phases)")
	}
	if slices.ContainsFunc(hs, func(h hooks) bool { return h.before != nil || h.closed != nil }) {
		t.Errorf("the profiled pair reads the servers before or after its window: the recording would catch the read")
	}
	// Servers profiled over JMX get their recorders started ahead of the
	// idle watch (a JVM and a connection, no reading of the servers).
	jmx := &side{t: &sut.Target{Servers: servercost.Servers{{Name: "rs", JMXRemote: "rs1:9999"}}}}
	if hs := r.hooksFor(jmx, "workloadc", "t", profilePair); len(hs) != 1 || hs[0].before == nil || hs[0].window == nil || hs[0].closed != nil {
		t.Errorf("the profiled pair over JMX: want the recorder prepared before, recording across the window, nothing after")
	}
	if hs := (&Runner{}).hooksFor(s, "w", "t", profilePair); len(hs) != 1 || hs[0].window != nil || hs[0].closed == nil {
		t.Errorf("a run that does not profile: want the counts probe alone on every pair")
	}
}

// TestPhasesCallEverySideOnceInOrder: each phase calls every side's hooks
// (a duet's two at once) with its own side's measured trial.
func TestPhasesCallEverySideOnceInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	rec := func(side int) hooks {
		note := func(p string) {
			mu.Lock()
			got = append(got, fmt.Sprintf("%s%d", p, side))
			mu.Unlock()
		}
		return hooks{
			before: func(context.Context) { note("before") },
			window: func(context.Context, timing) { note("window") },
			closed: func(_ context.Context, m *measured) {
				if m.hlog != fmt.Sprint(side) {
					t.Errorf("side %d closed with side %s's trial", side, m.hlog)
				}
				note("closed")
			},
			stored: func(_ context.Context, m *measured, ok bool) { note(fmt.Sprintf("stored%v-", ok)) },
		}
	}
	sides := []trialHooks{{rec(0)}, {rec(1), {}}}
	ms := []*measured{{hlog: "0"}, {hlog: "1"}}
	ctx := context.Background()
	before(ctx, sides)
	window(ctx, sides, timing{})
	closed(ctx, sides, ms)
	stored(ctx, sides, ms, []bool{true, false})
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
}
