package runner

import (
	"cmp"
	"context"

	"github.com/regress-hbase/regress/harness/probe"
)

// A trial's probes are package probe's hooks: the runner tells each
// provider the trial (probe.Trial, plain values) and calls the phases it
// hands back at fixed points (probe.Before, Window, Closed, Stored), and
// knows nothing else of them.

// probes are the run's providers, registered once: the counts probe on
// every counted trial and the profiler on the profiled pair.
func (r *Runner) probes() []probe.Provider {
	return []probe.Provider{probe.Counts{}, r.profiler()}
}

// profiler is the run's profiler probe, made on first use; it holds the
// run's profile notes.
func (r *Runner) profiler() *probe.Profiler {
	r.profOnce.Do(func() { r.prof = &probe.Profiler{Log: r.Log} })
	return r.prof
}

// hooksFor registers the probes of s's trial of workload w on table in
// pair: the trial described to them, never the side or the Runner.
func (r *Runner) hooksFor(s *side, w, table string, pair int) probe.TrialHooks {
	t := probe.Trial{Counts: &s.counts, Table: table, Workload: w, Pair: pair, Profiled: r.profiled(pair),
		RunID: r.RunID, ProfileID: r.profileID(w, pair)}
	if s.t != nil {
		t.Target, t.Servers, t.ServersNote, t.Client = s.t.Name, s.t.Servers, s.t.ServersNote, s.t.Client
	}
	if r.Suite != nil {
		t.Warmup, t.Measure = r.Suite.Run.Warmup, cmp.Or(r.windowOf(pair), r.Suite.Run.Measure)
	}
	if r.Store != nil {
		t.Dir = r.Store.Dir(s.key)
	}
	return probe.For(r.probes(), t)
}

// probed is ms as the probes see them.
func probed(ms ...*measured) []*probe.Measured {
	out := make([]*probe.Measured, len(ms))
	for i, m := range ms {
		if m != nil {
			out[i] = &probe.Measured{Result: m.res, CPUPerOpMicros: m.cpuPerOp()}
		}
	}
	return out
}

// closed runs the sides' Closed phase and keeps the counts it returns
// with each side's server cost.
func closed(ctx context.Context, hs []probe.TrialHooks, ms []*measured) {
	for i, o := range probe.Closed(ctx, hs, probed(ms...)) {
		ms[i].setCounts(o.Counts)
	}
}
