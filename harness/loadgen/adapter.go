package loadgen

import (
	"context"
	"fmt"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// Op and workload.OpType are numbered alike, so converting is a plain type
// conversion; these fail to compile if either side grows alone.
var (
	_ [int(NumOps) - int(workload.NumOpTypes)]struct{}
	_ [int(workload.NumOpTypes) - int(NumOps)]struct{}
)

// recorderAdapter lets a loadgen Recorder receive a workload's records. It
// lives inside its worker, so passing it allocates nothing.
type recorderAdapter struct{ r Recorder }

// Record implements workload.Recorder.
func (a *recorderAdapter) Record(op workload.OpType, start, end time.Time, st workload.Status) {
	a.r.Record(Op(op), start, end, st)
}

type transactionWorker struct {
	k   *workload.Worker
	db  workload.DB
	rec recorderAdapter
}

func (w *transactionWorker) Next(ctx context.Context, rec Recorder) {
	w.rec.r = rec
	w.k.DoTransaction(ctx, w.db, &w.rec)
}

// Transactions returns a Config.NewWorker that runs wl's run-phase
// transactions (YCSB's doTransaction) against the DB newDB makes for each
// worker. Worker id draws with seed+id, so a run's draws are reproducible.
func Transactions(wl *workload.Workload, newDB func(id int) (workload.DB, error), seed int64) func(id int) (Worker, error) {
	return func(id int) (Worker, error) {
		db, err := newDB(id)
		if err != nil {
			return nil, fmt.Errorf("open DB for worker %d: %w", id, err)
		}
		return &transactionWorker{k: wl.NewWorker(seed + int64(id)), db: db}, nil
	}
}

type rowLoader struct {
	k   *workload.Worker
	db  workload.DB
	rec recorderAdapter
}

func (l *rowLoader) LoadBatch(ctx context.Context, first, n int64, rec Recorder) error {
	l.rec.r = rec
	for i := first; i < first+n; i++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("stopped before row %d: %w", i, err)
		}
		l.k.LoadRow(ctx, l.db, i, &l.rec)
	}
	return nil
}

// Rows returns a LoadConfig.NewLoader that inserts wl's rows (YCSB's load
// phase, one INSERT per row with all its fields) through the DB newDB makes
// for each loader. Take First and Rows from wl.LoadRange().
func Rows(wl *workload.Workload, newDB func(id int) (workload.DB, error), seed int64) func(id int) (Loader, error) {
	return func(id int) (Loader, error) {
		db, err := newDB(id)
		if err != nil {
			return nil, fmt.Errorf("open DB for loader %d: %w", id, err)
		}
		return &rowLoader{k: wl.NewWorker(seed + int64(id)), db: db}, nil
	}
}

type insertWorker struct {
	k   *workload.Worker
	db  workload.DB
	rec recorderAdapter
}

func (w *insertWorker) Next(ctx context.Context, rec Recorder) {
	w.rec.r = rec
	w.k.LoadRow(ctx, w.db, w.k.Workload().NextLoadKeyNumber(), &w.rec)
}

// InsertRows returns a Config.NewWorker that inserts wl's load rows one per
// slot, in key-number order across workers, as YCSB's load phase does; use it
// with Run and MaxOps set to the row count for a throttled (-target) load.
func InsertRows(wl *workload.Workload, newDB func(id int) (workload.DB, error), seed int64) func(id int) (Worker, error) {
	return func(id int) (Worker, error) {
		db, err := newDB(id)
		if err != nil {
			return nil, fmt.Errorf("open DB for worker %d: %w", id, err)
		}
		return &insertWorker{k: wl.NewWorker(seed + int64(id)), db: db}, nil
	}
}
