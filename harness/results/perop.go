package results

import "time"

// Where cpu_per_op comes from (ServerStats.CPUSource).
const (
	// CPUFromRequestThreads: the servers' request-serving threads (/proc per thread).
	CPUFromRequestThreads = "request threads"
	// CPUFromProcess: the servers' whole processes, net of their idle background.
	CPUFromProcess = "process, net of idle"
)

// Where alloc_per_op comes from (ServerStats.AllocSource).
const (
	// AllocFromRequestThreads: the request-serving threads' own counters
	// (regress's agent in the region server).
	AllocFromRequestThreads = "request threads"
	// AllocFromProcess: the whole JVMs', background included (GC log or
	// TotalThreadAllocatedBytes).
	AllocFromProcess = "process"
)

// WindowCost is what a side's region servers spent over one trial's
// measurement window, summed over the servers: the figures NewServerStats
// divides by the operations.
type WindowCost struct {
	// Window is the time between the readings at the window's edges.
	Window time.Duration
	// CPU is the processes' user+system time; RequestCPU the request
	// threads' part of it (0 where they are not told apart).
	CPU, RequestCPU time.Duration
	// Allocated is the heap bytes the JVMs allocated (AllocKnown false when
	// not read); RequestAllocated the request threads' part
	// (RequestAllocKnown false where the agent was not read at both edges).
	Allocated         int64
	AllocKnown        bool
	RequestAllocated  int64
	RequestAllocKnown bool
	// GCs and GCPause are the stop-the-world collections in the window.
	GCs     int64
	GCPause time.Duration
	// Flushes, Compactions and Splits are the servers' logged events.
	Flushes, Compactions, Splits int
}

// IdleRates is a side's idle background, pooled over the run's idle watches.
type IdleRates struct {
	CPUMillisPerSec  float64
	AllocBytesPerSec float64
}

// NewServerStats turns a window's cost into the per-operation figures a
// trial stores, the idle background's CPU (nil: not watched) subtracted over
// the window. cpu_per_op is the request threads' CPU where they were read,
// else the process's net of idle; alloc_per_op the request threads'
// allocation where the agent read it, else the whole JVMs'.
func NewServerStats(c WindowCost, idle *IdleRates, ops int64, servers int) *ServerStats {
	st := &ServerStats{
		GCs: c.GCs, GCPauseMicros: float64(c.GCPause) / 1e3,
		Flushes: c.Flushes, Compactions: c.Compactions, Splits: c.Splits,
		Servers: servers, WindowMillis: c.Window.Milliseconds(),
	}
	if ops <= 0 || c.Window <= 0 {
		return st
	}
	n := float64(ops)
	st.GrossCPUPerOpMicros = float64(c.CPU) / 1e3 / n
	net := float64(c.CPU) / 1e3
	if idle != nil {
		st.IdleCPUMillisPerSec, st.IdleAllocBytesPerSec = idle.CPUMillisPerSec, idle.AllocBytesPerSec
		net -= idle.CPUMillisPerSec * 1e3 * c.Window.Seconds()
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
