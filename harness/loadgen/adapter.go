package loadgen

import (
	"context"
	"fmt"

	"github.com/regress-hbase/regress/harness/workload"
)

type transactionWorker struct {
	k  *workload.Worker
	db workload.DB
}

func (w *transactionWorker) Next(ctx context.Context, rec workload.Recorder) error {
	w.k.DoTransaction(ctx, w.db, rec)
	return nil
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

// Inserts configures InsertRows.
type Inserts struct {
	// Batch is the number of rows one slot inserts: 1 is YCSB's load phase
	// (one INSERT per slot, paced like the run phase); more writes each slot's
	// rows in one request when the DB is a workload.BatchInserter.
	Batch int64
	// StopOnFailure stops the run at the first row that does not return OK,
	// with an error naming the rows; otherwise failures are counted as statuses.
	StopOnFailure bool
}

type insertWorker struct {
	k   *workload.Worker
	db  workload.DB
	opt Inserts
}

func (w *insertWorker) Next(ctx context.Context, rec workload.Recorder) error {
	first, n := w.k.Workload().NextLoadBatch(w.opt.Batch)
	if n == 0 {
		return nil
	}
	st := w.k.LoadRows(ctx, w.db, first, n, rec)
	if st != workload.OK && w.opt.StopOnFailure {
		return fmt.Errorf("insert rows %d..%d: %s", first, first+n-1, st)
	}
	return nil
}

// InsertRows returns a Config.NewWorker that inserts wl's load rows (YCSB's
// load phase: every field of each row), opt.Batch rows per slot, in key-number
// order across workers. Run it with MaxOps = LoadSlots(rows, opt.Batch): every
// slot then inserts its batch and every row is inserted once. This is the one
// load path: the seed preload (unthrottled, batched) and `regress ycsb load`
// (one row per slot, -target paced) both use it.
func InsertRows(wl *workload.Workload, newDB func(id int) (workload.DB, error), seed int64, opt Inserts) func(id int) (Worker, error) {
	if opt.Batch < 1 {
		opt.Batch = 1
	}
	return func(id int) (Worker, error) {
		db, err := newDB(id)
		if err != nil {
			return nil, fmt.Errorf("open DB for worker %d: %w", id, err)
		}
		return &insertWorker{k: wl.NewWorker(seed + int64(id)), db: db, opt: opt}, nil
	}
}

// LoadSlots returns the number of slots that insert rows rows batch at a time.
func LoadSlots(rows, batch int64) int64 {
	if batch < 1 {
		batch = 1
	}
	return (rows + batch - 1) / batch
}
