package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultBatchSize is the number of rows a load worker takes at a time.
const DefaultBatchSize = 100

// LoadConfig describes a load phase: Rows rows, key numbers First to
// First+Rows-1, inserted by Workers workers that each take BatchSize rows at a time.
type LoadConfig struct {
	// First is the first key number (YCSB's insertstart).
	First int64
	// Rows is the number of rows to insert (YCSB's insertcount).
	Rows int64
	// Workers is the number of concurrent loaders.
	Workers int
	// BatchSize is the number of rows per LoadBatch call; 0 means DefaultBatchSize.
	BatchSize int64
	// NewLoader makes loader number id (0-based); each runs on its own goroutine.
	NewLoader func(id int) (Loader, error)
	// Tick is the merge, log and progress interval; 0 means DefaultTick.
	Tick time.Duration
	// Progress, if set, is called on every tick (and once at the end) on the goroutine that called Run or Load.
	Progress func(LoadProgress)
	// Hlog, if set, receives the HdrHistogram interval log of the load's inserts.
	Hlog io.Writer
}

// LoadProgress is what a load reports on every tick.
type LoadProgress struct {
	// Elapsed is the time since the load started.
	Elapsed time.Duration
	// Rows is the number of rows whose batch has completed; Total is the number asked for.
	Rows, Total int64
	// RowsPerSec is the rate over the last tick.
	RowsPerSec float64
}

// Load inserts the rows and returns the inserts' measurements: Ops counts
// rows, PerOp[Insert] their latencies and statuses (a failed row is an ERROR
// status, never dropped). A loader error stops every worker and is returned
// with the batch that failed; the result so far is returned too.
func Load(ctx context.Context, cfg LoadConfig) (*Result, error) {
	batch := cfg.BatchSize
	if batch == 0 {
		batch = DefaultBatchSize
	}
	switch {
	case cfg.Workers <= 0:
		return nil, fmt.Errorf("loadgen: load with %d workers: need at least 1", cfg.Workers)
	case cfg.NewLoader == nil:
		return nil, errors.New("loadgen: LoadConfig.NewLoader is nil: give a function that makes a Loader")
	case cfg.Rows < 0 || cfg.First < 0 || batch < 0 || cfg.Tick < 0:
		return nil, fmt.Errorf("loadgen: load of %d rows from key %d in batches of %d (tick %v): none may be negative", cfg.Rows, cfg.First, batch, cfg.Tick)
	}
	loaders := make([]Loader, cfg.Workers)
	for i := range loaders {
		var err error
		if loaders[i], err = cfg.NewLoader(i); err != nil {
			return nil, fmt.Errorf("loadgen: make loader %d of %d: %w", i, cfg.Workers, err)
		}
	}
	recs := make([]*workerRecorder, cfg.Workers)
	for i := range recs {
		recs[i] = newWorkerRecorder(true)
	}
	col := newCollector(recs)
	start := time.Now()
	col.startLog(cfg.Hlog, start, fmt.Sprintf("regress loadgen: load of %d rows, %d workers, values in microseconds", cfg.Rows, cfg.Workers))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    atomic.Int64
		done    atomic.Int64
		errOnce sync.Once
		loadErr error
		wg      sync.WaitGroup
	)
	end := cfg.First + cfg.Rows
	for i, l := range loaders {
		rec := recs[i]
		wg.Go(func() {
			for ctx.Err() == nil {
				first := cfg.First + (next.Add(1)-1)*batch
				if first >= end || first < cfg.First { // past the end (or overflowed)
					return
				}
				n := min(batch, end-first)
				rec.beginSlot(time.Now(), true)
				err := l.LoadBatch(ctx, first, n, rec)
				if err != nil {
					errOnce.Do(func() {
						loadErr = fmt.Errorf("loadgen: load rows %d..%d (loader %d): %w", first, first+n-1, i, err)
						cancel()
					})
					return
				}
				done.Add(n)
			}
		})
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()

	tick := cfg.Tick
	if tick == 0 {
		tick = DefaultTick
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	last, lastRows := start, int64(0)
	report := func(now time.Time) {
		col.collect(now)
		rows := done.Load()
		if cfg.Progress != nil {
			p := LoadProgress{Elapsed: now.Sub(start), Rows: rows, Total: cfg.Rows}
			if secs := now.Sub(last).Seconds(); secs > 0 {
				p.RowsPerSec = float64(rows-lastRows) / secs
			}
			cfg.Progress(p)
		}
		last, lastRows = now, rows
	}
loop:
	for {
		select {
		case now := <-t.C:
			report(now)
		case <-finished:
			break loop
		}
	}
	report(time.Now())

	res := &Result{Start: start, StoppedBy: "rows"}
	col.result(res)
	res.Ops = done.Load()
	res.Duration = time.Since(start)
	if loadErr != nil {
		res.StoppedBy = "canceled"
		return res, loadErr
	}
	if err := ctx.Err(); err != nil {
		res.StoppedBy = "canceled"
		return res, fmt.Errorf("loadgen: load canceled after %d of %d rows: %w", res.Ops, cfg.Rows, err)
	}
	return res, col.logErr
}
