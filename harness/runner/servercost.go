package runner

import (
	"context"
	"slices"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// idleWatch is one side's servers watched with no load.
type idleWatch struct {
	cost  servercost.Cost
	until time.Time
}

// background is a side's idle background over a run: every idle watch's
// rates, so each trial subtracts a figure pooled over the run rather than
// its own 2 s watch (which /proc's 10 ms ticks and the JVM's 1 MiB heap
// regions make coarse, and one chore or GC makes spiky).
type background struct {
	cpuMillisPerSec, allocBytesPerSec []float64
}

// add records one idle watch.
func (b *background) add(c servercost.Cost) {
	if c.Window <= 0 {
		return
	}
	sec := c.Window.Seconds()
	b.cpuMillisPerSec = append(b.cpuMillisPerSec, float64(c.CPU)/1e6/sec)
	if c.AllocKnown {
		b.allocBytesPerSec = append(b.allocBytesPerSec, float64(c.Allocated)/sec)
	}
}

// rates is the pooled background: the median CPU rate (robust to a watch
// that met a chore) and the mean allocation rate (whole heap regions
// counted or not at random: the mean is unbiased; recorded, not
// subtracted), ok false before any watch.
func (b *background) rates() (cpuMillisPerSec, allocBytesPerSec float64, ok bool) {
	if len(b.cpuMillisPerSec) == 0 {
		return 0, 0, false
	}
	c := slices.Clone(b.cpuMillisPerSec)
	slices.Sort(c)
	n := len(c)
	cpuMillisPerSec = c[n/2]
	if n%2 == 0 {
		cpuMillisPerSec = (c[n/2-1] + c[n/2]) / 2
	}
	for _, a := range b.allocBytesPerSec {
		allocBytesPerSec += a
	}
	if len(b.allocBytesPerSec) > 0 {
		allocBytesPerSec /= float64(len(b.allocBytesPerSec))
	}
	return cpuMillisPerSec, allocBytesPerSec, true
}

// watchIdle watches every side's servers for the suite's run.idle with no
// load, all over the same stretch, and returns each side's background (in
// sides' order), or nil when there is nothing to watch.
func (r *Runner) watchIdle(ctx context.Context, sides []*side) []idleWatch {
	idle := r.Suite.Run.Idle
	if idle <= 0 {
		return nil
	}
	if !slices.ContainsFunc(sides, func(s *side) bool { return len(s.t.Servers) > 0 }) {
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
		sides[i].idle.add(out[i].cost)
	}
	return out
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

// serverParts is each server's own request CPU and allocation in the
// window, for a side of several servers (nil for one); address maps a
// server's name to its RPC host:port where known.
func serverParts(costs []servercost.Cost, address map[string]string) []results.ServerPart {
	if len(costs) < 2 {
		return nil
	}
	out := make([]results.ServerPart, 0, len(costs))
	for _, c := range costs {
		p := results.ServerPart{Server: c.Server, Address: address[c.Server], RequestCPUMicros: float64(c.RequestCPU) / 1e3}
		if c.RequestAllocKnown {
			p.RequestAllocBytes = c.RequestAllocated
		}
		out = append(out, p)
	}
	return out
}

// serverStats is a window's cost per operation (results.NewServerStats),
// the side's pooled idle background subtracted.
func serverStats(c servercost.Cost, bg *background, ops int64, servers int) *results.ServerStats {
	var idle *results.IdleRates
	if cpu, alloc, ok := bg.rates(); ok {
		idle = &results.IdleRates{CPUMillisPerSec: cpu, AllocBytesPerSec: alloc}
	}
	return results.NewServerStats(results.WindowCost{
		Window: c.Window, CPU: c.CPU, RequestCPU: c.RequestCPU,
		Allocated: c.Allocated, AllocKnown: c.AllocKnown,
		RequestAllocated: c.RequestAllocated, RequestAllocKnown: c.RequestAllocKnown,
		GCs: c.GCs, GCPause: c.GCPause,
		Flushes: c.Events.Flushes, Compactions: c.Events.Compactions, Splits: c.Events.Splits,
	}, idle, ops, servers)
}
