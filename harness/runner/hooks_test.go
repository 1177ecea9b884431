package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestHooksForRegistersWhatTheTrialAsks: every trial gets the counts probe
// (before and closed, never window: nothing of it spans a counted window);
// only the profiled pair gets the flight recorder, whose window phase is
// the one that runs across a window.
func TestHooksForRegistersWhatTheTrialAsks(t *testing.T) {
	r := &Runner{Profile: true}
	s := &side{}
	for _, tc := range []struct {
		pair       int
		probes     int
		withWindow bool
	}{{0, 1, false}, {3, 1, false}, {profilePair, 2, true}} {
		hs := r.hooksFor(s, "workloadc", "t", tc.pair)
		if len(hs) != tc.probes {
			t.Errorf("pair %d: %d probes, want %d", tc.pair, len(hs), tc.probes)
		}
		win := slices.ContainsFunc(hs, func(h hooks) bool { return h.window != nil })
		if win != tc.withWindow {
			t.Errorf("pair %d: a window-phase probe %v, want %v", tc.pair, win, tc.withWindow)
		}
		if hs[0].window != nil || hs[0].before == nil || hs[0].closed == nil {
			t.Errorf("pair %d: the counts probe must read before and after the window, never across it", tc.pair)
		}
	}
	if hs := (&Runner{}).hooksFor(s, "w", "t", profilePair); len(hs) != 1 {
		t.Errorf("a run that does not profile registered %d probes, want the counts probe alone", len(hs))
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
