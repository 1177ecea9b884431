// Package probe is what regress asks of a side's servers around a trial,
// beside the measurement itself: each probe a Provider that hands the
// runner plain phase functions (Hooks) for one trial, which the runner
// calls at fixed points and knows nothing else of (cockroach's
// workload.Hooks is the model). A probe is told the trial through Trial,
// plain values, and returns what it found as an Outcome. The counts probe
// (counts.go) and the profiler (profiler.go: JFR by pid in jfr.go, JFR
// over JMX in jmx.go, the info servers' /prof in servlet.go) are the two.
//
// The window's own cost (the region servers read at its two edges) is the
// measurement, not a probe; everything else regress asks of a server is
// one, and is placed so that it never falls in a counted window:
//
//	Before  ahead of the trial's idle watch (no load yet)
//	Window  once the trial's schedule is fixed; what it starts runs
//	        across the window, so only uncounted trials have one (JFR or
//	        /prof on the profiled pairs)
//	Closed  after the window's last reading (a duet's: both windows)
//	Stored  after the trial was stored (or was not), between trials
package probe

import (
	"context"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// Trial is what a probe is told of one side's trial: plain values.
type Trial struct {
	// Target is the side's target name, for notes and logs.
	Target string
	// Servers are the side's region servers; ServersNote says why some are not read.
	Servers     servercost.Servers
	ServersNote string
	// Client reaches the side's cluster; nil when there is none.
	Client *hbase.Client
	// Counts is where the side's counts are read from, found once per side
	// instance: the runner keeps one a side and renews it with the side.
	Counts *CountSource
	// Table is the trial's table, Workload its workload as the suite names
	// it, Pair its pair index.
	Table, Workload string
	Pair            int
	// Profiled is set on the profiled pair's trials: recorded, stored only
	// as their profiles.
	Profiled bool
	// Warmup and Measure are the window's timing from the schedule's start
	// (the Window phase's instant).
	Warmup, Measure time.Duration
	// RunID names the run; ProfileID the trial's stored profiles.
	RunID, ProfileID string
	// Dir is the side's store directory profiles are written into.
	Dir string
}

// Measured is what a side's trial gave, handed to Closed and Stored; nil
// when the trial failed before it was measured.
type Measured struct {
	Result *loadgen.Result
	// CPUPerOpMicros is the servers' CPU per operation (0 when not read).
	CPUPerOpMicros float64
}

// Outcome is what a trial's probes return: its counts (Closed) and the id
// of its stored profiles (Stored).
type Outcome struct {
	Counts    *results.Counts
	ProfileID string
}

// merge keeps o's fields where they are set.
func (out Outcome) merge(o Outcome) Outcome {
	if o.Counts != nil {
		out.Counts = o.Counts
	}
	if o.ProfileID != "" {
		out.ProfileID = o.ProfileID
	}
	return out
}

// Hooks are one probe's phases for one trial; a nil phase is not called.
type Hooks struct {
	Before func(ctx context.Context)
	Window func(ctx context.Context, start time.Time)
	Closed func(ctx context.Context, m *Measured) Outcome
	Stored func(ctx context.Context, m *Measured, stored bool) Outcome
}

// Provider is a probe: the hooks it has for trial t, ok false when it has
// none for it.
type Provider interface {
	Hooks(t Trial) (h Hooks, ok bool)
}

// TrialHooks are one side's probes for one trial.
type TrialHooks []Hooks

// For registers the providers' hooks for trial t, in the providers' order.
func For(providers []Provider, t Trial) TrialHooks {
	var hs TrialHooks
	for _, p := range providers {
		if h, ok := p.Hooks(t); ok {
			hs = append(hs, h)
		}
	}
	return hs
}

// Before, Window, Closed and Stored call that phase of every side's hooks,
// the sides at once (a duet's two trials meet each point together).
func Before(ctx context.Context, sides []TrialHooks) {
	each(sides, func(h Hooks, _ int) {
		if h.Before != nil {
			h.Before(ctx)
		}
	})
}

// Window calls every side's Window phase with the schedule's start.
func Window(ctx context.Context, sides []TrialHooks, start time.Time) {
	each(sides, func(h Hooks, _ int) {
		if h.Window != nil {
			h.Window(ctx, start)
		}
	})
}

// Closed calls every side's Closed phase with its own side's trial and
// returns each side's outcome.
func Closed(ctx context.Context, sides []TrialHooks, ms []*Measured) []Outcome {
	out := make([]Outcome, len(sides))
	each(sides, func(h Hooks, i int) {
		if h.Closed != nil {
			out[i] = out[i].merge(h.Closed(ctx, ms[i]))
		}
	})
	return out
}

// Stored calls every side's Stored phase with its own side's trial and
// whether it was stored, and returns each side's outcome.
func Stored(ctx context.Context, sides []TrialHooks, ms []*Measured, ok []bool) []Outcome {
	out := make([]Outcome, len(sides))
	each(sides, func(h Hooks, i int) {
		if h.Stored != nil {
			out[i] = out[i].merge(h.Stored(ctx, ms[i], ok[i]))
		}
	})
	return out
}

// each calls f on every hook of every side, one goroutine a side.
func each(sides []TrialHooks, f func(h Hooks, side int)) {
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
