package loadgen

import (
	"fmt"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/workload"
)

// HoldThreshold is the fraction of the target rate a run must achieve to have
// held its target. 95% leaves room for the last interval's partial schedule
// and scheduler jitter on a loaded client, while a run that is really behind
// (a saturated cluster) lands well below it.
const HoldThreshold = 0.95

// OpResult is what one operation type measured in the measurement window.
type OpResult struct {
	Op workload.Op
	// Intended holds the latencies in µs of successful (OK) operations from
	// their intended start to their end: the coordinated-omission-corrected
	// figure. A slot's operation is intended to start at the slot's due time;
	// a follow-up (the UPDATE of a read-modify-write) when it started.
	Intended *hdr.Histogram
	// Service holds the latencies in µs of successful operations from their actual start to their end.
	Service *hdr.Histogram
	// FailedIntended and FailedService hold the same for operations that did
	// not return OK (YCSB's READ-FAILED), so failures never mix into the
	// latency of successful operations.
	FailedIntended, FailedService *hdr.Histogram
	// Statuses counts every operation by status (OK, NOT_FOUND, ERROR), indexed by workload.Status.
	Statuses [numStatuses]int64
}

// Count returns the number of operations recorded, whatever their status.
func (o *OpResult) Count() int64 {
	var n int64
	for _, c := range o.Statuses {
		n += c
	}
	return n
}

// Status returns the number of operations that ended with status s.
func (o *OpResult) Status(s workload.Status) int64 { return o.Statuses[statusIndex(s)] }

// Result is a run's (or load's) measurement window.
type Result struct {
	// TargetRate is the rate asked for in ops/s; 0 means unthrottled.
	TargetRate float64
	// Rate is the rate the run paced to after the per-server clamp; 0 means unthrottled.
	Rate float64
	// Start is the start of the measurement window (after warm-up).
	Start time.Time
	// Duration is the measurement window: from Start to the later of the
	// scheduled end and the last operation's end.
	Duration time.Duration
	// Ops counts operations (slots) in the window; a READ-MODIFY-WRITE slot
	// counts once although it records three measurements. For a load, rows.
	Ops int64
	// WarmupOps counts operations run during warm-up and excluded.
	WarmupOps int64
	// PerOp holds one entry per operation type seen, indexed by Op; unseen ops are nil.
	PerOp [workload.NumOps]*OpResult
	// Lateness holds, in µs, how late each slot's first operation started
	// after its intended start (open loop only; empty when unthrottled).
	Lateness *hdr.Histogram
	// Clamped counts latencies above 60 s recorded as 60 s.
	Clamped int64
	// Invalid counts records with an unknown Op (a Worker bug), kept out of the histograms.
	Invalid int64
	// Empty counts slots in which the Worker recorded nothing (a Worker bug).
	Empty int64
	// StoppedBy says what ended the run: "duration", "count", "pacer", "rows" or "canceled".
	StoppedBy string
	// Client is what the load process itself spent and suffered during the
	// run, warm-up included: the evidence that a latency is the server's.
	Client ClientCost
}

// ClientCost is the load process's own share of a run.
type ClientCost struct {
	// CPU is the process's user+system CPU time over the run (0 where not measured).
	CPU time.Duration
	// GCPauses is the garbage collector's stop-the-world time over the run,
	// GCPauseMax its longest pause, GCs the collections.
	GCPauses, GCPauseMax time.Duration
	GCs                  uint32
}

// CPUPerOp is the client CPU per operation run, warm-up included.
func (r *Result) CPUPerOp() time.Duration {
	if n := r.Ops + r.WarmupOps; n > 0 {
		return r.Client.CPU / time.Duration(n)
	}
	return 0
}

// Achieved returns the achieved rate in ops/s over the measurement window.
func (r *Result) Achieved() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Duration.Seconds()
}

// HeldTarget reports whether the run achieved at least HoldThreshold of its
// (clamped) rate. An unthrottled run has no target and always holds it.
func (r *Result) HeldTarget() bool {
	return r.Rate <= 0 || r.Achieved() >= HoldThreshold*r.Rate
}

// RateMessage says plainly how the achieved rate compares with the target.
func (r *Result) RateMessage() string {
	a := r.Achieved()
	clamp := ""
	if r.Rate > 0 && r.Rate != r.TargetRate {
		if r.TargetRate > 0 {
			clamp = fmt.Sprintf(" (target %.0f ops/s clamped to %.0f by the per-server limit)", r.TargetRate, r.Rate)
		} else {
			clamp = " (unthrottled run clamped by the per-server limit)"
		}
	}
	switch {
	case r.Rate <= 0:
		return fmt.Sprintf("achieved %.1f ops/s, unthrottled", a)
	case r.HeldTarget():
		return fmt.Sprintf("achieved %.1f ops/s of target %.0f ops/s (%.1f%%)%s", a, r.Rate, 100*a/r.Rate, clamp)
	default:
		return fmt.Sprintf("TARGET NOT HELD: achieved %.1f ops/s of target %.0f ops/s (%.1f%%, below %.0f%%)%s; "+
			"the client or the cluster could not keep up, so intended latencies include the queueing behind the schedule",
			a, r.Rate, 100*a/r.Rate, 100*HoldThreshold, clamp)
	}
}

// Merge adds the results of the load hosts that ran one run's schedule
// together into the result of one client: histograms and counts add, rates
// add, the window is the longest, the client cost is the fleet's. The inputs
// are not changed; Merge of none is nil.
func Merge(parts ...*Result) *Result {
	if len(parts) == 0 {
		return nil
	}
	m := &Result{Start: parts[0].Start, StoppedBy: parts[0].StoppedBy}
	for _, p := range parts {
		m.TargetRate += p.TargetRate
		m.Rate += p.Rate
		if p.Start.Before(m.Start) {
			m.Start = p.Start
		}
		m.Duration = max(m.Duration, p.Duration)
		m.Ops += p.Ops
		m.WarmupOps += p.WarmupOps
		m.Clamped += p.Clamped
		m.Invalid += p.Invalid
		m.Empty += p.Empty
		if p.StoppedBy == "canceled" {
			m.StoppedBy = p.StoppedBy
		}
		m.Lateness = mergeHist(m.Lateness, p.Lateness)
		for op, o := range p.PerOp {
			if o == nil {
				continue
			}
			mo := m.PerOp[op]
			if mo == nil {
				mo = &OpResult{Op: o.Op}
				m.PerOp[op] = mo
			}
			mo.Intended = mergeHist(mo.Intended, o.Intended)
			mo.Service = mergeHist(mo.Service, o.Service)
			mo.FailedIntended = mergeHist(mo.FailedIntended, o.FailedIntended)
			mo.FailedService = mergeHist(mo.FailedService, o.FailedService)
			for i, n := range o.Statuses {
				mo.Statuses[i] += n
			}
		}
		m.Client.CPU += p.Client.CPU
		m.Client.GCPauses += p.Client.GCPauses
		m.Client.GCPauseMax = max(m.Client.GCPauseMax, p.Client.GCPauseMax)
		m.Client.GCs += p.Client.GCs
	}
	return m
}

// mergeHist returns into with from added (a copy of from when into is nil).
func mergeHist(into, from *hdr.Histogram) *hdr.Histogram {
	if from == nil {
		return into
	}
	if into == nil {
		return hdr.Import(from.Export())
	}
	into.Merge(from)
	return into
}
