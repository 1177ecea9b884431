package loadgen

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/workload"
)

// Histogram geometry: 1 µs to 60 s at 3 significant digits, values in µs as YCSB records them.
const (
	lowestMicros  = 1
	highestMicros = 60_000_000
	sigFigs       = 3
)

// Kind says which of an operation's two latencies a histogram holds.
type Kind uint8

// The two latencies recorded for every operation.
const (
	// Intended is measured from the slot's scheduled start: the coordinated-omission-corrected figure.
	Intended Kind = iota
	// Service is measured from the operation's actual start.
	Service
	numKinds
)

// Outcome says whether a histogram holds successful operations or the others.
type Outcome uint8

// An operation's latencies go to its OK histograms or, as YCSB's READ-FAILED
// does, to its failed ones (NOT_FOUND and ERROR, as YCSB's isOk() counts).
const (
	Succeeded Outcome = iota
	Failed
	numOutcomes
)

// Name returns the measurement name of op's histograms of this outcome:
// READ, or READ-FAILED.
func (o Outcome) Name(op workload.Op) string {
	if o == Failed {
		return op.String() + "-FAILED"
	}
	return op.String()
}

func outcomeOf(s workload.Status) Outcome {
	if s == workload.OK {
		return Succeeded
	}
	return Failed
}

// String returns the kind's name as used in .hlog tags (READ.intended).
func (k Kind) String() string {
	if k == Intended {
		return "intended"
	}
	return "service"
}

func newHistogram() *hdr.Histogram { return hdr.New(lowestMicros, highestMicros, sigFigs) }

// toMicros rounds d to whole microseconds and clamps it into the histogram's
// range; clamped reports a value above the range, which the caller counts.
func toMicros(d time.Duration) (v int64, clamped bool) {
	v = int64((d + 500) / time.Microsecond)
	if v < 0 {
		return 0, false
	}
	if v > highestMicros {
		return highestMicros, true
	}
	return v, false
}

// sample is one recorded operation, kept raw until the collector records
// it into the tick's histograms.
type sample struct {
	op                workload.Op
	outcome           Outcome
	intended, service int64 // µs, clamped into the histograms' range
}

// interval is what one worker recorded since the last collection. Operations
// are kept as raw samples rather than in per-worker histograms: a histogram
// of this range is about 140 KB, and resetting and merging three of them per
// worker on every tick cost more client CPU than all the recording (the
// loopback benchmark showed it); a sample costs 24 bytes and one append,
// and the slices are reused, so recording allocates nothing once warm.
type interval struct {
	samples     []sample
	lateness    []int64 // µs: actual start of a slot's first record minus its intended start
	status      [workload.NumOps][numStatuses]int64
	slots       int64 // measured slots (operations as the rate counts them)
	warmupSlots int64 // slots during warm-up: counted, not measured
	empty       int64 // slots whose Worker recorded nothing
	clamped     int64 // values above 60 s recorded as 60 s
	invalid     int64 // records with an unknown Op
	lastEnd     time.Time
}

func (iv *interval) reset() {
	iv.samples = iv.samples[:0]
	iv.lateness = iv.lateness[:0]
	iv.status = [workload.NumOps][numStatuses]int64{}
	iv.slots, iv.warmupSlots, iv.empty, iv.clamped, iv.invalid = 0, 0, 0, 0, 0
	iv.lastEnd = time.Time{}
}

// workerRecorder is one worker's Recorder. The worker holds mu only while
// recording; the collector holds it only to swap cur with spare, so the lock
// is contended at most once per tick and never across workers.
type workerRecorder struct {
	mu    sync.Mutex
	cur   *interval
	spare *interval // owned by the collector between swaps

	// Slot state, touched only by the owning worker goroutine.
	due        time.Time
	measure    bool
	firstInSet bool
	closed     bool // unthrottled: intended start is the actual start
}

func newWorkerRecorder(closedLoop bool) *workerRecorder {
	return &workerRecorder{cur: &interval{}, spare: &interval{}, closed: closedLoop}
}

// beginSlot tells the recorder the intended start of the next slot and whether
// it falls in the measurement window.
func (r *workerRecorder) beginSlot(due time.Time, measure bool) {
	r.due, r.measure, r.firstInSet = due, measure, true
}

// Record implements workload.Recorder: intended latency runs from the slot's
// intended start, as YCSB measures it.
func (r *workerRecorder) Record(op workload.Op, start, end time.Time, status workload.Status) {
	r.record(op, start, end, status, false)
}

// RecordFollowUp implements workload.Recorder: an operation that could start
// only when an earlier one of its slot ended is intended to start when it
// did, so its intended latency is its service time.
func (r *workerRecorder) RecordFollowUp(op workload.Op, start, end time.Time, status workload.Status) {
	r.record(op, start, end, status, true)
}

func (r *workerRecorder) record(op workload.Op, start, end time.Time, status workload.Status, followUp bool) {
	service := end.Sub(start)
	intended := service
	if !r.closed && !followUp {
		// A worker can only start after the slot is due, so intended >=
		// service; the max guards against a Worker reporting a start before
		// it was called.
		if d := end.Sub(r.due); d > intended {
			intended = d
		}
	}
	iv, sv, ic := toMicrosPair(intended, service)
	first := r.firstInSet
	r.firstInSet = false

	r.mu.Lock()
	c := r.cur
	switch {
	case !r.measure:
		if first {
			c.warmupSlots++
		}
	case op >= workload.NumOps:
		if first {
			c.slots++
		}
		c.invalid++
	default:
		c.samples = append(c.samples, sample{op: op, outcome: outcomeOf(status), intended: iv, service: sv})
		c.status[op][statusIndex(status)]++
		c.clamped += ic
		if first {
			c.slots++
		}
		if first && !r.closed {
			l, _ := toMicros(start.Sub(r.due))
			c.lateness = append(c.lateness, l)
		}
		if end.After(c.lastEnd) {
			c.lastEnd = end
		}
	}
	r.mu.Unlock()
}

// endSlot counts a slot in which the Worker recorded nothing, so a slot is
// never lost from the operation count.
func (r *workerRecorder) endSlot() {
	if !r.firstInSet {
		return
	}
	r.firstInSet = false
	r.mu.Lock()
	if r.measure {
		r.cur.slots++
		r.cur.empty++
	} else {
		r.cur.warmupSlots++
	}
	r.mu.Unlock()
}

func toMicrosPair(intended, service time.Duration) (iv, sv, clamped int64) {
	iv, ic := toMicros(intended)
	sv, sc := toMicros(service)
	if ic {
		clamped++
	}
	if sc {
		clamped++
	}
	return iv, sv, clamped
}

// swap hands the collector everything recorded since the last swap. The
// returned interval belongs to the collector until the next swap, which
// expects it reset.
func (r *workerRecorder) swap() *interval {
	r.mu.Lock()
	r.cur, r.spare = r.spare, r.cur
	out := r.spare
	r.mu.Unlock()
	return out
}
