// Package loadgen drives a workload against a database: an open-loop run
// paced to one global schedule (or a closed loop), recording every operation
// twice (service time and coordinated-omission-corrected intended latency)
// into per-worker HdrHistograms merged on a tick. A load phase is a run whose
// workers insert rows (InsertRows).
package loadgen

import (
	"context"

	"github.com/regress-hbase/regress/harness/workload"
)

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

// Worker runs one operation per call of Next, reporting it and any
// sub-operations through rec: READ-MODIFY-WRITE records READ, UPDATE and
// itself. A non-nil error stops the whole run and is returned by Run (a failed
// operation is a status, not an error). Each worker goroutine owns its Worker,
// so a Worker needs no locking.
type Worker interface {
	Next(ctx context.Context, rec workload.Recorder) error
}

// WorkerFunc adapts a function to the Worker interface.
type WorkerFunc func(ctx context.Context, rec workload.Recorder) error

// Next calls f.
func (f WorkerFunc) Next(ctx context.Context, rec workload.Recorder) error { return f(ctx, rec) }
