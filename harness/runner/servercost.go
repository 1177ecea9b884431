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

// Where cpu_per_op comes from (results.ServerStats.CPUSource).
const (
	// CPUFromRequestThreads: the servers' request-serving threads (/proc per thread).
	CPUFromRequestThreads = "request threads"
	// CPUFromProcess: the servers' whole processes, net of their idle background.
	CPUFromProcess = "process, net of idle"
)

// Where alloc_per_op comes from (results.ServerStats.AllocSource).
const (
	// AllocFromRequestThreads: the request-serving threads' own counters
	// (regress's agent in the region server).
	AllocFromRequestThreads = "request threads"
	// AllocFromProcess: the whole JVMs', background included (GC log or
	// TotalThreadAllocatedBytes).
	AllocFromProcess = "process"
)

// serverStats turns a window's cost into per-operation figures, the idle
// background's rates subtracted over the window.
func serverStats(c servercost.Cost, bg *background, ops int64, servers int) *results.ServerStats {
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
	if cpuRate, allocRate, ok := bg.rates(); ok {
		st.IdleCPUMillisPerSec, st.IdleAllocBytesPerSec = cpuRate, allocRate
		net -= cpuRate * 1e3 * win
	}
	st.ProcessCPUPerOpMicros = max(net, 0) / n
	// The request threads' CPU is the per-request cost without the JIT
	// compiler, the GC and the chores, which set most of the process's
	// spread: measured on smoke duets, a pair's log ratio moved 4.5% with it
	// against 12.5% for the process's (14.5% net of idle) (docs/noise.md).
	st.CPUPerOpMicros, st.CPUSource = st.ProcessCPUPerOpMicros, CPUFromProcess
	if c.RequestCPU > 0 {
		st.CPUPerOpMicros, st.CPUSource = float64(c.RequestCPU)/1e3/n, CPUFromRequestThreads
	}
	// Allocation keeps its background: an idle server allocates a few
	// hundred KB/s, which 2 s watches see only in whole 1 MiB heap regions,
	// so subtracting it added more noise (measured: +-10% between A/A sides
	// in a duet) than the offset it removes (2-8% of a trial's allocation).
	if c.AllocKnown {
		st.ProcessAllocPerOpBytes = float64(c.Allocated) / n
		st.AllocPerOpBytes, st.AllocSource = st.ProcessAllocPerOpBytes, AllocFromProcess
	}
	// The request threads' allocation (the agent's per-thread counters) is
	// the request path's alone: no chore, metrics snapshot, flush,
	// compaction or info server answer (regress's own readings among them).
	if c.RequestAllocKnown && c.RequestAllocated > 0 {
		st.AllocPerOpBytes, st.AllocSource = float64(c.RequestAllocated)/n, AllocFromRequestThreads
	}
	return st
}
