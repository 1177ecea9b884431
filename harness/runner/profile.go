package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/regress-hbase/regress/harness/servercost"
)

// profilePair is the pair index of the profiled pair: one extra pair of
// each workload, run after the last counted pair and stored only as its
// profiles, so no trial the verdict counts ever runs beside a recorder.
// Starting JFR on a JVM that never ran it stalled the handlers for seconds
// on this machine (5.5 times the CPU per operation, p95 in seconds) and the
// next pair still paid (docs/profiles.md); after the last counted pair
// nothing is left to pay.
const profilePair = -2

// profiled reports whether this trial is recorded: --profile (or the
// suite's run.profile) asks for it and it is the profiled pair. On load
// hosts the recording follows the start the hosts agreed, on this
// process's clock, as the servers' readings do.
func (r *Runner) profiled(pair int) bool {
	return r.Profile && pair == profilePair
}

// windowOf is the measurement window of pair's trials when it is not the
// suite's: the profiled pair's run.profile_measure; 0 otherwise.
func (r *Runner) windowOf(pair int) time.Duration {
	if r.profiled(pair) {
		return r.Suite.Run.ProfileMeasure
	}
	return 0
}

// profiledTrials is how many trials the profiled pairs add to a run of
// sides sides: counted in the progress total from the start, so the total
// does not jump when they begin (108 to 120 on the release suite).
func (r *Runner) profiledTrials(sides int) int {
	if !r.Profile {
		return 0
	}
	return sides * len(r.Suite.Workloads)
}

// warmupRoundsAtMost is the most warm-up rounds the suite may run: the
// progress total counts them all before warm-up, so it falls when warm-up
// settles early instead of jumping when it goes on (108 to 120 on the
// release suite, whose warm-up may take two rounds).
func (r *Runner) warmupRoundsAtMost() int {
	return max(r.Suite.Run.WarmupMaxRounds, r.Suite.Run.WarmupRounds)
}

// profilePairs runs the profiled pair of every workload after the counted
// ones, the same way a counted pair runs (a duet or back to back in random
// order), when the run profiles. Its trials are stored nowhere; a failed
// one is a note, never the run's failure: the verdict's trials are stored.
func (r *Runner) profilePairs(ctx context.Context, sides ...*side) {
	if !r.Profile || ctx.Err() != nil {
		return
	}
	began := time.Now()
	r.emit(Event{Phase: "trial", Message: "profiling: one more pair per workload, recorded (JFR here, the info servers' /prof elsewhere) and not counted"})
	// The first JFR.start on a JVM stalls its handlers for seconds; a
	// throwaway recording first keeps that out of the first pair recorded.
	var local servercost.Servers
	for _, s := range sides {
		local = append(local, s.t.Servers...)
	}
	if n := r.profiler().Prime(ctx, local); n > 0 {
		r.logger().Info("JFR primed before the profiled pairs", "jvms", n, "took", time.Since(began).Round(100*time.Millisecond))
	}
	for _, w := range r.Suite.Workloads {
		var err error
		if r.duet() && len(sides) == 2 {
			_, err = r.duetTrial(ctx, sides[0], sides[1], w, profilePair)
		} else {
			order := slices.Clone(sides)
			if len(order) == 2 && r.rng().IntN(2) == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for i, s := range order {
				if _, err = r.trial(ctx, s, w, profilePair, i, false); err != nil {
					break
				}
			}
		}
		if err != nil {
			r.logger().Warn("profiled pair failed; the counted trials stand", "workload", w, "err", err)
			r.profiler().Note(fmt.Sprintf("%s: profiled pair failed: %v", w, err))
			if ctx.Err() != nil {
				return
			}
		}
	}
	r.logger().Info("profiled pairs done (not counted)", "workloads", len(r.Suite.Workloads), "took", time.Since(began).Round(time.Second))
}

// profileID names the stored profiles of workload w's trial of pair.
func (r *Runner) profileID(w string, pair int) string {
	if pair == profilePair {
		return fmt.Sprintf("%s-%s-profile", r.RunID, filepath.Base(w))
	}
	return r.trialID(w, pair)
}

// ProfileNotes are the run's notes on profiles not recorded (a JDK without
// JFR, a failed jcmd), each once, for the reports.
func (r *Runner) ProfileNotes() []string {
	return r.profiler().Notes()
}
