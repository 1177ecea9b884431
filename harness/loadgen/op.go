// Package loadgen drives a workload against a database: a batched load phase
// and an open-loop run phase paced to a global target rate, recording every
// operation twice (service time and coordinated-omission-corrected intended
// latency) into per-worker HdrHistograms merged on a tick.
package loadgen

import (
	"context"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// Op names an operation type, as YCSB's measurement names do.
type Op uint8

// The operation types measured; YCSB's names are their String values.
const (
	Read Op = iota
	Update
	Insert
	Scan
	ReadModifyWrite
	// NumOps is the number of operation types; an Op at or above it is invalid.
	NumOps
)

var opNames = [NumOps]string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"}

// String returns YCSB's measurement name for the op, e.g. READ-MODIFY-WRITE.
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return "INVALID"
}

// ParseOp returns the Op with YCSB's measurement name s, and false when s names none.
func ParseOp(s string) (Op, bool) {
	for i, n := range opNames {
		if n == s {
			return Op(i), true
		}
	}
	return 0, false
}

// numStatuses is the number of status buckets counted per op: OK, NOT_FOUND, ERROR.
const numStatuses = 3

// statusIndex maps a status to its bucket; any status beyond the known ones is
// an error, so a new status can never be dropped silently.
func statusIndex(s workload.Status) int {
	if s == workload.OK || s == workload.NotFound {
		return int(s)
	}
	return int(workload.Error)
}

// Recorder receives the operations of one scheduled slot. start and end are the
// actual start and end of the (sub-)operation; the recorder knows the slot's
// intended start. It is owned by one worker and must not be shared.
type Recorder interface {
	Record(op Op, start, end time.Time, status workload.Status)
}

// Worker runs one operation per call of Next, reporting it and any
// sub-operations through rec: READ-MODIFY-WRITE records READ, UPDATE and itself.
// Each worker goroutine owns its Worker, so a Worker needs no locking.
type Worker interface {
	Next(ctx context.Context, rec Recorder)
}

// WorkerFunc adapts a function to the Worker interface.
type WorkerFunc func(ctx context.Context, rec Recorder)

// Next calls f.
func (f WorkerFunc) Next(ctx context.Context, rec Recorder) { f(ctx, rec) }

// Loader inserts one batch of rows during the load phase: key numbers first to
// first+n-1, recording each INSERT (with its status) through rec. A returned
// error aborts the whole load; a failed row should be recorded as ERROR instead.
type Loader interface {
	LoadBatch(ctx context.Context, first, n int64, rec Recorder) error
}

// LoaderFunc adapts a function to the Loader interface.
type LoaderFunc func(ctx context.Context, first, n int64, rec Recorder) error

// LoadBatch calls f.
func (f LoaderFunc) LoadBatch(ctx context.Context, first, n int64, rec Recorder) error {
	return f(ctx, first, n, rec)
}
