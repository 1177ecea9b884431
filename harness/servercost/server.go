package servercost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is one region server JVM: one this machine runs (PID), read from
// the outside, or one elsewhere read through its info server's /jmx (JMX).
type Server struct {
	// Name says which server it is in notes ("region server 1", "hbase").
	Name string
	// PID is the JVM's process id on this machine; 0 for a server elsewhere.
	PID int
	// JMX is the host:port of the server's info server (https://host:port
	// where it speaks TLS, as FindJMX says), read when PID is 0:
	// CPU, heap, GC counts and each collector's last collection (placed),
	// flush/compaction/split counts, (JDK 14+) the whole
	// JVM's allocation and, where the JVM runs regress's agent (`regress
	// agent`), the request threads' CPU and allocation.
	JMX string
	// GCLog is the JVM's unified GC log (GCLogOptions); empty means no
	// allocation figure.
	GCLog string
	// Log is the server's own log, scanned for flushes, compactions and splits.
	Log string
	// Agent is the host:port of the info server whose /jmx answers regress's
	// agent bean (AgentBean): the request threads' allocated bytes. Empty
	// when the JVM runs without the agent.
	Agent string
	// JMXRemote is the host:port of the JVM's JMX remote connector
	// (com.sun.management.jmxremote.port), where a run was given one
	// (--*-jmx-port): profiles are then recorded with JFR over JMX.
	JMXRemote string
}

// Reading is what one server had spent at one instant.
type Reading struct {
	At time.Time
	// CPU is the process's user+system time so far.
	CPU time.Duration
	// RequestCPU is the part of CPU spent by the threads that serve requests
	// (RPC handlers, RPC readers and event loops, WAL writers): CPU without
	// the JIT compiler, the GC and the chores. Threads that ended are lost.
	RequestCPU time.Duration
	// RequestAlloc is the heap bytes the request threads (RequestCPU's)
	// allocated so far, read from the agent; RequestAllocOK says it was read.
	RequestAlloc   int64
	RequestAllocOK bool
	// HeapUsed is the heap in use in bytes (every generation).
	HeapUsed int64
	// GCs counts stop-the-world collections so far; GCPause is their time.
	GCs     int64
	GCPause time.Duration
	// gcLogAt and logAt are the logs' sizes, where the window's part starts.
	gcLogAt, logAt int64
	perfOK         bool
	// jmx holds HBase's event counts when the reading came from /jmx.
	jmx *jmxEvents
	// collectors are the GarbageCollector beans and jvm the JVM's Uptime
	// when the reading came from /jmx (lastCollections places events with them).
	collectors []collector
	jvm        *jvmClock
	// requestThreads is each request thread's CPU by thread id (RequestCPU's parts).
	requestThreads map[int]time.Duration
	// allocThreads is each request thread's allocated bytes by Java thread id (RequestAlloc's parts).
	allocThreads map[int64]int64
	// cpuThreads is each request thread's CPU nanoseconds by Java thread id,
	// from the agent when the reading came from /jmx (RequestCPU's parts).
	cpuThreads map[int64]int64
	// totalAlloc is the JVM's TotalThreadAllocatedBytes when the reading
	// came from /jmx (JDK 14+; totalAllocOK says it was there).
	totalAlloc   int64
	totalAllocOK bool
}

// Read takes a reading of s now. Only a missing process is an error; a
// counter that cannot be read leaves its figure out.
func (s Server) Read() (Reading, error) {
	if s.PID == 0 && s.JMX != "" {
		r, ev, err := readJMX(context.Background(), jmxClient, s.JMX)
		if err != nil {
			return r, fmt.Errorf("%s: %w", s.Name, err)
		}
		r.jmx = &ev
		return r, nil
	}
	r := Reading{At: time.Now()}
	cpu, err := procCPU(s.PID)
	if err != nil {
		return r, fmt.Errorf("%s (pid %d): %w", s.Name, s.PID, err)
	}
	r.CPU = cpu
	r.RequestCPU, r.requestThreads = requestThreadsCPU(s.PID)
	if s.Agent != "" {
		// The agent's bean answers on an info server thread, not a request
		// thread: this reading adds nothing to the figure it reads.
		ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
		if a, err := readAgent(ctx, jmxClient, s.Agent); err == nil {
			r.RequestAlloc, r.RequestAllocOK, r.allocThreads = a.requestAlloc, true, a.byThread
		}
		cancel()
	}
	// The heap counters and the GC log's size are taken back to back, in
	// that order, the parsing after: a collection that ends between the two
	// is split between windows (its freed bytes in one, its heap change in
	// the other). Measured on a JVM collecting 3 times a second, read every
	// 40 ms (TestAllocationKnownAcrossPauses): with the parsing between
	// them 1 window in 1,296 came out negative, with the log's size first 1
	// in 897, in this order none in 2,093.
	path, perr := PerfDataPath(s.PID)
	var raw []byte
	if perr == nil {
		raw, perr = os.ReadFile(path)
	}
	r.gcLogAt = fileSize(s.GCLog)
	if perr == nil {
		if p, err := parsePerfData(raw); err == nil {
			r.perfOK = true
			r.HeapUsed = p.HeapUsed()
			r.GCs, r.GCPause = p.GCs()
		}
	}
	r.logAt = fileSize(s.Log)
	return r, nil
}

// Cost is what one server spent between two readings.
type Cost struct {
	Server string
	// Timeline is what the server did in the window, in log order (GC
	// pauses, flushes, compactions, splits, regions opened); TimelineRead
	// is false where its logs are not on this machine.
	Timeline     []Event
	TimelineRead bool
	// TimelineCounted is true where the server was read through /jmx: its
	// Timeline holds at most each collector's last collection (LastGcInfo),
	// while GCs, GCPause and Events count the whole window's, edge to edge.
	TimelineCounted bool
	// Window is the time between the readings.
	Window time.Duration
	// CPU is the process's user+system time in the window.
	CPU time.Duration
	// RequestCPU is the request-serving threads' part of CPU (Reading.RequestCPU).
	RequestCPU time.Duration
	// RequestAllocated is the heap bytes the request threads allocated in
	// the window (the agent's counters); RequestAllocKnown is false where
	// the agent was not read at both edges.
	RequestAllocated  int64
	RequestAllocKnown bool
	// Allocated is the bytes the JVM allocated in the window; AllocKnown is
	// false when its GC log or counters could not be read.
	Allocated  int64
	AllocKnown bool
	// GCs counts the stop-the-world collections in the window; GCPause is their time.
	GCs     int64
	GCPause time.Duration
	// Events are the flushes, compactions and splits logged in the window.
	Events Events
}

// Since is the cost of s from reading a to reading b.
func (s Server) Since(a, b Reading) Cost {
	c := Cost{Server: s.Name, Window: b.At.Sub(a.At), CPU: b.CPU - a.CPU, RequestCPU: b.RequestCPU - a.RequestCPU}
	if a.requestThreads != nil && b.requestThreads != nil {
		c.RequestCPU = threadsDelta(a.requestThreads, b.requestThreads)
	}
	switch {
	case a.allocThreads != nil && b.allocThreads != nil:
		c.RequestAllocated, c.RequestAllocKnown = perThreadDelta(a.allocThreads, b.allocThreads), true
	case a.RequestAllocOK && b.RequestAllocOK && b.RequestAlloc >= a.RequestAlloc:
		c.RequestAllocated, c.RequestAllocKnown = b.RequestAlloc-a.RequestAlloc, true
	}
	if a.jmx != nil && b.jmx != nil {
		if a.cpuThreads != nil && b.cpuThreads != nil {
			c.RequestCPU = time.Duration(perThreadDelta(a.cpuThreads, b.cpuThreads))
		}
		c.GCs, c.GCPause = b.GCs-a.GCs, b.GCPause-a.GCPause
		if a.totalAllocOK && b.totalAllocOK && b.totalAlloc >= a.totalAlloc {
			c.Allocated, c.AllocKnown = b.totalAlloc-a.totalAlloc, true
		}
		c.Events = Events{Flushes: int(b.jmx.flushes - a.jmx.flushes), Compactions: int(b.jmx.compactions - a.jmx.compactions),
			Splits: int(b.jmx.splits - a.jmx.splits)}
		c.Timeline, c.TimelineCounted = lastCollections(s.Name, a, b), true
		return c
	}
	if a.perfOK && b.perfOK {
		c.GCs, c.GCPause = b.GCs-a.GCs, b.GCPause-a.GCPause
		if s.GCLog != "" {
			// Read from a little before the window, for a pause that began
			// before it and ended in it, and a little past it, for the rest
			// of the last block whose end the reading saw begin.
			from := max(0, a.gcLogAt-gcLogSlack)
			if log, err := readRange(s.GCLog, from, b.gcLogAt+gcLogSlack); err == nil && b.gcLogAt >= a.gcLogAt {
				freed, _ := gcFreedIn(log, int(a.gcLogAt-from), int(b.gcLogAt-from))
				if alloc := freed + b.HeapUsed - a.HeapUsed; alloc >= 0 {
					c.Allocated, c.AllocKnown = alloc, true
				}
			}
		}
	}
	if s.Log != "" {
		if log, err := readRange(s.Log, a.logAt, b.logAt); err == nil {
			c.Events = scanEvents(log)
		}
	}
	c.Timeline, c.TimelineRead = s.timeline(a, b)
	return c
}

// gcLogSlack is how far before and after a window its GC log is read: a
// few collections' blocks (one is about 2 KiB).
const gcLogSlack = 16 << 10

// Servers are the region servers of one side, read together.
type Servers []Server

// Read reads every server concurrently.
func (ss Servers) Read() ([]Reading, error) {
	out := make([]Reading, len(ss))
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Go(func() { out[i], errs[i] = s.Read() })
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// Since is each server's cost from readings a to b (as Read returned them).
func (ss Servers) Since(a, b []Reading) []Cost {
	out := make([]Cost, 0, len(ss))
	for i, s := range ss {
		if i < len(a) && i < len(b) {
			out = append(out, s.Since(a[i], b[i]))
		}
	}
	return out
}

// Total adds the servers' costs of one window; the window is the longest.
func Total(cs []Cost) Cost {
	var t Cost
	t.AllocKnown = len(cs) > 0
	t.RequestAllocKnown = len(cs) > 0
	for _, c := range cs {
		t.RequestAllocated += c.RequestAllocated
		t.RequestAllocKnown = t.RequestAllocKnown && c.RequestAllocKnown
		t.Window = max(t.Window, c.Window)
		t.CPU += c.CPU
		t.RequestCPU += c.RequestCPU
		t.Allocated += c.Allocated
		t.AllocKnown = t.AllocKnown && c.AllocKnown
		t.GCs += c.GCs
		t.GCPause += c.GCPause
		t.Events.add(c.Events)
	}
	if !t.AllocKnown {
		t.Allocated = 0
	}
	if !t.RequestAllocKnown {
		t.RequestAllocated = 0
	}
	return t
}

// At waits until t (or ctx ends) and reads every server then.
func (ss Servers) At(ctx context.Context, t time.Time) ([]Reading, error) {
	if d := time.Until(t); d > 0 {
		tm := time.NewTimer(d)
		defer tm.Stop()
		select {
		case <-tm.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return ss.Read()
}

// agentTimeout bounds one read of the agent's bean: on loopback it answers
// in milliseconds; a reading must not hold its window's edge longer.
const agentTimeout = 2 * time.Second

// jmxClient reads info servers; each request has its own deadline.
var jmxClient = &http.Client{}

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times; it
// is 100 on every Linux ABI.
const clockTicks = 100

// procCPU is a process's user+system CPU time from /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, fmt.Errorf("read its CPU time: %w", err)
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime and stime (fields 14 and 15) of a /proc/<pid>/stat
// line; the command name (field 2) may hold spaces, so fields count from
// its closing parenthesis.
func parseStatCPU(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat line")
	}
	f := strings.Fields(line[i+1:])
	if len(f) < 13 {
		return 0, errors.New("short /proc stat line")
	}
	// f[0] is field 3 (state), so utime (14) is f[11], stime (15) f[12].
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("malformed CPU times in /proc stat line")
	}
	return time.Duration(u+s) * time.Second / clockTicks, nil
}

func fileSize(path string) int64 {
	if path == "" {
		return 0
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// readRange reads path's bytes [from, to); a file that shrank (rotated) gives
// what is there from its start.
func readRange(path string, from, to int64) ([]byte, error) {
	if to <= from {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() < from {
		from = 0
	}
	return io.ReadAll(io.NewSectionReader(f, from, to-from))
}

// requestThread reports whether a JVM thread (its name as /proc shows it,
// cut to 15 bytes) serves requests: RPC handlers and readers of every HBase
// line ("RpcServer.defau", "B.defaultRpcSer", "PriorityRpcServ"), the Netty
// event loops that read and write the calls ("RS-EventLoopGro"), and the
// threads that append and sync the WAL ("AsyncFSWAL-0-fi", "AsyncFSOutputFl",
// FSHLog's "sync.N").
func requestThread(comm string) bool {
	return strings.Contains(comm, "RpcSer") || strings.HasPrefix(comm, "RS-EventLoopGro") ||
		strings.Contains(comm, "WAL") || strings.HasPrefix(comm, "AsyncFSOutput") || strings.HasPrefix(comm, "sync.")
}

// requestCPU sums the CPU time of pid's request-serving threads from
// /proc/<pid>/task; 0 when the tasks cannot be read.
func requestCPU(pid int) time.Duration {
	sum, _ := requestThreadsCPU(pid)
	return sum
}

// requestThreadsCPU is requestCPU with each thread's CPU by its id.
func requestThreadsCPU(pid int) (time.Duration, map[int]time.Duration) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, nil
	}
	var sum time.Duration
	by := map[int]time.Duration{}
	for _, t := range tasks {
		comm, err := os.ReadFile(dir + "/" + t.Name() + "/comm")
		if err != nil || !requestThread(strings.TrimSpace(string(comm))) {
			continue
		}
		c := threadCPU(dir + "/" + t.Name())
		sum += c
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			by[tid] = c
		}
	}
	return sum, by
}

// threadsDelta is what the threads of b spent since a: a thread in both
// readings its difference, one born in the window all it spent. A thread
// that ended in the window is lost (its in-window CPU with it) instead of
// taking its whole life's CPU off the sum: the totals' difference went
// negative in such windows, and cpu_per_op fell back to the process's
// figure for that trial, mixing two quantities in one metric.
func threadsDelta(a, b map[int]time.Duration) time.Duration {
	var d time.Duration
	for tid, cb := range b {
		if ca, ok := a[tid]; ok {
			if cb > ca {
				d += cb - ca
			}
			continue
		}
		d += cb
	}
	return d
}

// threadCPU is one thread's CPU time: schedstat's nanoseconds on the CPU
// where the kernel keeps them, else stat's 10 ms ticks, whose rounding over
// sixty handler threads would add about 5% of a trial's figure; 0 when the
// thread ended.
func threadCPU(taskDir string) time.Duration {
	if b, err := os.ReadFile(taskDir + "/schedstat"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns)
			}
		}
	}
	stat, err := os.ReadFile(taskDir + "/stat")
	if err != nil {
		return 0
	}
	cpu, err := parseStatCPU(string(stat))
	if err != nil {
		return 0
	}
	return cpu
}
