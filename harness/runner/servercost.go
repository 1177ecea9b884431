package runner

import (
	"context"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// idleWatch is one side's servers watched with no load.
type idleWatch struct {
	cost  servercost.Cost
	until time.Time
}

// watchIdle watches every side's servers for the suite's run.idle with no
// load, all over the same stretch, and returns each side's background (in
// sides' order), or nil when there is nothing to watch.
func (r *Runner) watchIdle(ctx context.Context, sides []*side) []idleWatch {
	idle := r.Suite.Run.Idle
	if idle <= 0 || r.LoadHosts != nil {
		return nil
	}
	any := false
	for _, s := range sides {
		any = any || len(s.t.Servers) > 0
	}
	if !any {
		return nil
	}
	from := time.Now()
	to := from.Add(idle)
	waits := make([]func() ([]servercost.Cost, error), len(sides))
	for i, s := range sides {
		if len(s.t.Servers) > 0 {
			waits[i] = watch(ctx, s.t.Servers, from, to)
		}
	}
	out := make([]idleWatch, len(sides))
	for i, wait := range waits {
		out[i].until = to
		if wait == nil {
			continue
		}
		costs, err := wait()
		if err != nil {
			r.logger().Warn("idle server cost not read", "target", sides[i].t.Name, "err", err)
			continue
		}
		out[i].cost = servercost.Total(costs)
	}
	return out
}

func idleOf(idle []idleWatch, i int) servercost.Cost {
	if i < len(idle) {
		return idle[i].cost
	}
	return servercost.Cost{}
}

// watch reads ss at from and at to in the background; the returned function
// waits for the second reading and returns each server's cost between them.
func watch(ctx context.Context, ss servercost.Servers, from, to time.Time) func() ([]servercost.Cost, error) {
	type out struct {
		costs []servercost.Cost
		err   error
	}
	ch := make(chan out, 1)
	go func() {
		a, err := ss.At(ctx, from)
		if err != nil {
			ch <- out{err: err}
			return
		}
		b, err := ss.At(ctx, to)
		if err != nil {
			ch <- out{err: err}
			return
		}
		ch <- out{costs: ss.Since(a, b)}
	}()
	return func() ([]servercost.Cost, error) {
		o := <-ch
		return o.costs, o.err
	}
}

// serverStats turns a window's cost into per-operation figures, the idle
// background's rate subtracted over the window.
func serverStats(c, idle servercost.Cost, ops int64, servers int) *results.ServerStats {
	st := &results.ServerStats{
		GCs: c.GCs, GCPauseMicros: float64(c.GCPause) / 1e3,
		Flushes: c.Events.Flushes, Compactions: c.Events.Compactions, Splits: c.Events.Splits,
		Servers: servers, WindowMillis: c.Window.Milliseconds(),
	}
	if ops <= 0 || c.Window <= 0 {
		return st
	}
	win := c.Window.Seconds()
	n := float64(ops)
	st.GrossCPUPerOpMicros = float64(c.CPU) / 1e3 / n
	net := float64(c.CPU) / 1e3
	if idle.Window > 0 {
		rate := float64(idle.CPU) / 1e3 / idle.Window.Seconds() // us per second
		st.IdleCPUMillisPerSec = rate / 1e3
		net -= rate * win
	}
	st.CPUPerOpMicros = max(net, 0) / n
	if c.AllocKnown {
		alloc := float64(c.Allocated)
		if idle.Window > 0 && idle.AllocKnown {
			rate := float64(idle.Allocated) / idle.Window.Seconds()
			st.IdleAllocBytesPerSec = rate
			alloc -= rate * win
		}
		st.AllocPerOpBytes = max(alloc, 0) / n
	}
	return st
}
