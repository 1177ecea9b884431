package runner

import (
	"context"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestProfiledOnlyTheUncountedPair: the profiled pair alone is recorded,
// on load hosts too (the recording follows the start the hosts agreed).
func TestProfiledOnlyTheUncountedPair(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *Runner
		pair int
		want bool
	}{
		{"the profiled pair", &Runner{Profile: true}, profilePair, true},
		{"first counted pair", &Runner{Profile: true}, 0, false},
		{"second counted pair", &Runner{Profile: true}, 1, false},
		{"warm-up", &Runner{Profile: true}, -1, false},
		{"not asked", &Runner{}, profilePair, false},
		{"load hosts", &Runner{Profile: true, LoadHosts: &loadhosts.Coordinator{}}, profilePair, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.profiled(tc.pair); got != tc.want {
				t.Errorf("profiled(%d) = %v, want %v", tc.pair, got, tc.want)
			}
		})
	}
}

// TestProfilePairsRunOnlyWhenAsked: without --profile, with load hosts or
// after the run was stopped, no extra trial starts.
func TestProfilePairsRunOnlyWhenAsked(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	s := &suite.Suite{Workloads: []string{"workloadc"}}
	for _, tc := range []struct {
		name string
		r    *Runner
		ctx  context.Context
	}{
		{"not asked", &Runner{Suite: s}, context.Background()},
		{"stopped", &Runner{Suite: s, Profile: true}, stopped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.profilePairs(tc.ctx, &side{t: &sut.Target{Name: "a"}}, &side{t: &sut.Target{Name: "b"}})
			if tc.r.started != 0 {
				t.Errorf("%d trials started", tc.r.started)
			}
		})
	}
	if id := (&Runner{RunID: "r1"}).profileID("scenarios/workloads/workloadc", profilePair); id != "r1-workloadc-profile" {
		t.Errorf("profile id %q", id)
	}
	if id := (&Runner{RunID: "r1"}).profileID("workloadc", 3); id != "r1-workloadc-p03" {
		t.Errorf("a counted trial's profile id %q, want its trial id", id)
	}
}

// TestProgressTotalCountsTheProfiledPairs: a profiled run's total holds its
// profiled pairs from the start (the release suite's went 108 -> 120 when
// they began); a run that does not profile adds none.
func TestProgressTotalCountsTheProfiledPairs(t *testing.T) {
	s := &suite.Suite{Workloads: []string{"a", "b", "c", "d", "e", "f"}}
	for _, tc := range []struct {
		name          string
		r             *Runner
		sides, trials int
	}{
		{"two sides profiled", &Runner{Suite: s, Profile: true}, 2, 12},
		{"one side profiled", &Runner{Suite: s, Profile: true}, 1, 6},
		{"not profiled", &Runner{Suite: s}, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.profiledTrials(tc.sides); got != tc.trials {
				t.Errorf("profiledTrials(%d) = %d, want %d", tc.sides, got, tc.trials)
			}
		})
	}
	s.Run.WarmupRounds, s.Run.WarmupMaxRounds = 1, 2
	if got := (&Runner{Suite: s}).warmupRoundsAtMost(); got != 2 {
		t.Errorf("warm-up counted as %d rounds, want the most it may take, 2", got)
	}
	s.Run.WarmupMaxRounds = 0
	if got := (&Runner{Suite: s}).warmupRoundsAtMost(); got != 1 {
		t.Errorf("warm-up without a maximum counted as %d rounds, want 1", got)
	}
}

// TestProfiledPairHasItsOwnWindow: run.profile_measure lengthens the
// profiled pair's window alone; unset, it is the counted trials'.
func TestProfiledPairHasItsOwnWindow(t *testing.T) {
	s := &suite.Suite{Workloads: []string{"workloadc"}}
	s.Run.Measure, s.Run.ProfileMeasure = 10*time.Second, 25*time.Second
	r := &Runner{Suite: s, Profile: true}
	if got := r.windowOf(profilePair); got != 25*time.Second {
		t.Errorf("profiled pair's window %v, want 25s", got)
	}
	if got := r.windowOf(0); got != 0 {
		t.Errorf("a counted pair's window %v, want the suite's (0)", got)
	}
	s.Run.ProfileMeasure = 0
	if got := r.windowOf(profilePair); got != 0 {
		t.Errorf("without run.profile_measure the profiled pair's window is %v, want the suite's", got)
	}
}
