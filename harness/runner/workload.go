package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/regress-hbase/regress/harness/binding"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/lifecycle"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/workload"
)

// properties builds a trial's YCSB properties as YCSB's command line would:
// workload file w (-P), then the suite's properties (-p), then the suite's
// data spec, the trial's table and its operation count, each later one
// winning. The suite's typed values go back into the property set as text,
// and the workload parses them again, because the workload, the binding and
// `regress ycsb` all read one thing, a YCSB property set with YCSB's
// precedence: the data spec the suite fingerprints and seeds must win over a
// recordcount or fieldlength in the workload file, as -p wins over -P.
func (r *Runner) properties(w, table string, operations int64) (workload.Properties, error) {
	s := r.Suite
	p, err := workload.LoadPropertiesFile(s.WorkloadPath(w))
	if err != nil {
		return p, err
	}
	for k, v := range s.Properties {
		p.Set(k, v, "suite "+s.Name)
	}
	src := "suite " + s.Name + " data"
	p.Set("recordcount", strconv.FormatInt(s.Data.RecordCount, 10), src)
	p.Set("fieldcount", strconv.Itoa(s.Data.FieldCount), src)
	p.Set("fieldlength", strconv.Itoa(s.Data.FieldLength), src)
	p.Set("columnfamily", s.Data.ColumnFamily, src)
	p.Set("table", table, src)
	p.Set("operationcount", strconv.FormatInt(max(operations, 1), 10), src)
	return p, nil
}

// expectedOps is the number of operations a trial should run, which YCSB
// uses to size the key space of run-phase inserts.
func (r *Runner) expectedOps() int64 {
	run := r.Suite.Run
	if run.OperationCount > 0 {
		return run.OperationCount
	}
	rate := run.TargetOpsPerSec
	if rate == 0 {
		rate = 10000
	}
	return int64(math.Ceil(rate * (run.Warmup + run.Measure).Seconds()))
}

func (r *Runner) durability(p workload.Properties) (hbase.Durability, error) {
	return binding.ParseDurability(p.String("durability", ""))
}

// seedSpec describes the seed of s's cluster, with its preload.
func (r *Runner) seedSpec(s *side) (lifecycle.SeedSpec, error) {
	first := r.Suite.Workloads[0]
	p, err := r.properties(first, "seed", r.Suite.Data.RecordCount)
	if err != nil {
		return lifecycle.SeedSpec{}, err
	}
	// The seed holds every row of the data spec; run-phase properties of the
	// first workload (its mix) do not matter for loading.
	p.Set("insertstart", "0", "seed")
	p.Set("insertcount", strconv.FormatInt(r.Suite.Data.RecordCount, 10), "seed")
	wl, err := workload.New(p)
	if err != nil {
		return lifecycle.SeedSpec{}, fmt.Errorf("workload %s: %w", first, err)
	}
	splits, err := wl.SplitKeys(r.Suite.Data.Regions)
	if err != nil {
		return lifecycle.SeedSpec{}, err
	}
	d, err := r.durability(p)
	if err != nil {
		return lifecycle.SeedSpec{}, err
	}
	return lifecycle.SeedSpec{
		Key:          r.Suite.SeedKey(),
		Version:      s.t.Version,
		ColumnFamily: r.Suite.Data.ColumnFamily,
		Compression:  r.Suite.Data.Compression,
		SplitKeys:    splits,
		Reseed:       r.Reseed,
		Preload: func(ctx context.Context, table string) error {
			// A workload of its own per preload: it writes to the table the
			// lifecycle named, and its load sequence starts at row 0 again.
			lp := p.Clone()
			lp.Set("table", table, "seed")
			lwl, err := workload.New(lp)
			if err != nil {
				return fmt.Errorf("workload %s: %w", first, err)
			}
			return r.preload(ctx, s, lwl, table, d)
		},
	}, nil
}

// preload writes every seed row into table (wl's table) with batched puts
// from Load.Threads workers, unthrottled, through the one load path
// (loadgen.InsertRows); the first batch that fails stops it.
func (r *Runner) preload(ctx context.Context, s *side, wl *workload.Workload, table string, d hbase.Durability) error {
	db := binding.New(s.t.Client, r.Suite.Data.ColumnFamily, d, r.logger())
	rows, batch := r.Suite.Data.RecordCount, int64(max(r.Suite.Load.BatchSize, 1))
	slots := loadgen.LoadSlots(rows, batch)
	res, err := loadgen.Run(ctx, loadgen.Config{
		Workers: r.Suite.Load.Threads,
		MaxOps:  slots,
		NewWorker: loadgen.InsertRows(wl, func(int) (workload.DB, error) { return db.Worker(), nil }, 1,
			loadgen.Inserts{Batch: batch, StopOnFailure: true}),
		Progress: func(p loadgen.Progress) {
			done := min(p.Ops*batch, rows)
			r.emit(Event{Phase: "load", Target: s.t.Name, Load: &LoadProgress{Rows: done, Total: rows, RowsPerSec: p.OpsPerSec * float64(batch)}})
		},
	})
	if err != nil {
		return fmt.Errorf("preload %s: %w", table, err)
	}
	if ins := res.PerOp[workload.Insert]; ins == nil || ins.Status(workload.OK) != rows {
		var ok int64
		if ins != nil {
			ok = ins.Status(workload.OK)
		}
		return fmt.Errorf("preload wrote %d of %d rows", ok, rows)
	}
	return nil
}

// drive runs workload w on table with run's rate, threads and windows,
// here or on the load hosts, writing the interval log to hlog; operations
// sizes the key space of run-phase inserts. With load hosts it also returns
// each host's part.
func (r *Runner) drive(ctx context.Context, s *side, w, table string, hlog io.Writer, run suite.Run, operations int64) (*loadgen.Result, []results.LoadHost, error) {
	return r.driveAt(ctx, s, w, table, hlog, run, operations, timing{})
}

// timing pins a trial's run in time: Start anchors its schedule (zero: when
// it starts), Seed its workload's random choices (zero: from the clock). A
// duet's two runs share both.
type timing struct {
	Start time.Time
	Seed  int64
}

// driveAt is drive with the run pinned by at; load hosts take only its seed.
func (r *Runner) driveAt(ctx context.Context, s *side, w, table string, hlog io.Writer, run suite.Run, operations int64, at timing) (*loadgen.Result, []results.LoadHost, error) {
	if r.LoadHosts == nil {
		res, err := r.runWorkloadAt(ctx, s, w, table, hlog, run, operations, at)
		return res, nil, err
	}
	p, err := r.properties(w, table, operations)
	if err != nil {
		return nil, nil, err
	}
	hosts := len(r.LoadHosts.Hosts())
	task := loadhosts.Task{
		Trial: table, ZK: s.t.ZK, ZNode: s.t.ZNode, ColumnFamily: r.Suite.Data.ColumnFamily,
		Threads:    loadhosts.PerHost(run.Threads, hosts),
		TargetRate: run.TargetOpsPerSec, PerServerClamp: run.PerServerClampOpsPerSec, LiveServers: s.servers,
		Warmup: run.Warmup, Measure: run.Measure, OperationCount: run.OperationCount,
		Seed: seedOf(at),
	}
	task.SetProperties(p)
	tr, err := r.LoadHosts.Run(ctx, task)
	if err != nil {
		return nil, nil, err
	}
	if hlog != nil {
		if _, err := hlog.Write(tr.Hlog); err != nil {
			return nil, nil, err
		}
	}
	var parts []results.LoadHost
	for _, h := range tr.Hosts {
		parts = append(parts, results.LoadHostOf(h.Host.Name(), h.Share, h.Result))
	}
	return tr.Merged, parts, nil
}

// runWorkloadAt runs workload w on table here with run's rate, threads and
// windows; operations sizes the key space of run-phase inserts.
func (r *Runner) runWorkloadAt(ctx context.Context, s *side, w, table string, hlog io.Writer, run suite.Run, operations int64, at timing) (*loadgen.Result, error) {
	p, err := r.properties(w, table, operations)
	if err != nil {
		return nil, err
	}
	wl, err := workload.New(p)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", w, err)
	}
	d, err := r.durability(p)
	if err != nil {
		return nil, err
	}
	db := binding.New(s.t.Client, r.Suite.Data.ColumnFamily, d, r.logger())
	trial, trials := r.started, r.planned
	base := seedOf(at)
	return loadgen.Run(ctx, loadgen.Config{
		Start:          at.Start,
		TargetRate:     run.TargetOpsPerSec,
		PerServerClamp: run.PerServerClampOpsPerSec,
		LiveServers:    s.servers,
		Workers:        run.Threads,
		Warmup:         run.Warmup,
		Duration:       run.Measure,
		MaxOps:         run.OperationCount,
		Hlog:           hlog,
		NewWorker:      loadgen.Transactions(wl, func(int) (workload.DB, error) { return db.Worker(), nil }, base),
		Progress: func(pr loadgen.Progress) {
			r.emit(Event{Phase: "trial", Target: s.t.Name, Workload: w, Trial: trial, Trials: trials, Run: &pr})
		},
	})
}

func seedOf(at timing) int64 {
	if at.Seed != 0 {
		return at.Seed
	}
	return time.Now().UnixNano()
}
