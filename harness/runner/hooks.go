package runner

import (
	"context"
	"slices"
	"sync"

	"github.com/regress-hbase/regress/harness/servercost"
)

// A trial's probes are hooks: plain functions a side's trial hands the
// driver, which calls them at fixed points and knows nothing else of them
// (cockroach's workload.Hooks is the model). The window's own cost (the
// region servers read at its two edges) is the measurement, not a probe;
// everything else regress asks of a server is one, and is placed so that
// it never falls in a counted window:
//
//	before  ahead of the trial's idle watch (no load yet)
//	window  once the trial's schedule is fixed; what it starts runs
//	        across the window, so only uncounted trials have one (JFR or
//	        /prof on the profiled pairs)
//	closed  after the window's last reading (a duet's: both windows)
//	stored  after the trial was stored (or was not), between trials
//
// A probe registers the phases it needs; hooksFor says which probes a
// trial gets from the suite's settings.
type hooks struct {
	before func(ctx context.Context)
	window func(ctx context.Context, at timing)
	closed func(ctx context.Context, m *measured)
	stored func(ctx context.Context, m *measured, stored bool)
}

// trialHooks are one side's probes for one trial.
type trialHooks []hooks

// hooksFor registers s's probes for one trial of workload w on table: on
// a counted trial its servers' counts when they are read (countsBefore's
// terms); on the profiled pair the profiler over the window (JFR, or the
// info servers' /prof) and nothing else. The recorder stops when jcmd
// reaches the JVM (a /prof run when its whole seconds end), a second or
// so after the window's last reading, while closed already runs: a counts
// read then (a /prometheus page, the whole /jmx) would land in the profile
// as the release's own frames, and the profiled pair's trials are stored
// only as their profiles, so their counts serve nothing.
func (r *Runner) hooksFor(s *side, w, table string, pair int) trialHooks {
	var hs trialHooks
	if !r.profiled(pair) {
		var counts *countProbe
		hs = append(hs, hooks{
			before: func(ctx context.Context) { counts = r.countsBefore(ctx, s, table) },
			closed: func(ctx context.Context, m *measured) {
				if m != nil {
					m.setCounts(counts.after(ctx, s, m.res))
				}
			},
		})
	} else {
		var prof *windowProfile
		var jmx *jmxPrep
		h := hooks{
			window: func(ctx context.Context, at timing) { prof = r.startProfile(ctx, s, w, pair, at, jmx) },
			stored: func(ctx context.Context, m *measured, stored bool) {
				if prof == nil {
					jmx.cancel() // prepared, never started
				}
				if m == nil {
					prof.keep(ctx, r, w, "", nil, false)
					return
				}
				prof.keep(ctx, r, w, r.profileID(w, pair), m.profileMeta(r, w), stored)
			},
		}
		// Recorders over JMX start their JVM and connection ahead of the
		// idle watch; the recording itself starts with the window.
		if hasJMXRemote(s) {
			h.before = func(ctx context.Context) { jmx = r.prepareJMX(ctx, s, w) }
		}
		hs = append(hs, h)
	}
	return hs
}

// hasJMXRemote reports whether some of s's servers are profiled over JMX.
func hasJMXRemote(s *side) bool {
	return s.t != nil && slices.ContainsFunc(s.t.Servers, func(sv servercost.Server) bool { return sv.PID == 0 && sv.JMXRemote != "" })
}

// before, window, closed and stored call that phase of every side's hooks,
// the sides at once (a duet's two trials meet each point together).
func before(ctx context.Context, sides []trialHooks) {
	each(sides, func(h hooks, _ int) {
		if h.before != nil {
			h.before(ctx)
		}
	})
}

func window(ctx context.Context, sides []trialHooks, at timing) {
	each(sides, func(h hooks, _ int) {
		if h.window != nil {
			h.window(ctx, at)
		}
	})
}

func closed(ctx context.Context, sides []trialHooks, ms []*measured) {
	each(sides, func(h hooks, i int) {
		if h.closed != nil {
			h.closed(ctx, ms[i])
		}
	})
}

func stored(ctx context.Context, sides []trialHooks, ms []*measured, ok []bool) {
	each(sides, func(h hooks, i int) {
		if h.stored != nil {
			h.stored(ctx, ms[i], ok[i])
		}
	})
}

// each calls f on every hook of every side, one goroutine a side.
func each(sides []trialHooks, f func(h hooks, side int)) {
	var wg sync.WaitGroup
	for i, hs := range sides {
		wg.Go(func() {
			for _, h := range hs {
				f(h, i)
			}
		})
	}
	wg.Wait()
}
