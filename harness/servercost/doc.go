// Package servercost reads what a region server spent during a trial's
// measurement window: its process CPU time, the bytes its JVM allocated, its
// garbage collections, and the flushes, compactions and splits it logged.
//
// A latency at a low rate on a shared VM is set by a few stalls; what the
// server spends per operation is not, so a per-request cost that a tail
// hides (an attribute built on every RPC, an extra comparison per cell)
// shows here. A Reading is taken at each edge of a window and two of them
// make a Cost. Local clusters are read from the outside, without touching
// the JVM: /proc/<pid>/stat for CPU, the JVM's own performance counters
// (hsperfdata, the file jstat reads) for heap use and GC, the unified GC log
// the local provider turns on (-Xlog:gc...) for what each collection freed,
// and the region server's log for flushes and compactions. Allocated bytes
// are what each collection in the window freed plus the change in heap use.
package servercost
