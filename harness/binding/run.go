package binding

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

// NewRun builds spec's load path against c, once: the workload from its
// typed settings (with share, one load host's part of a fleet's run-phase
// inserts), one binding at its column family and durability, and the
// loadgen.Config whose workers run its transactions, or insert its rows
// when spec.Insert is set. Worker i draws with spec.Seed+i, plus
// share.Index<<32 on a load host, so no two hosts draw alike. The caller
// adds what is its own (Start, Hlog, Progress) and runs it with loadgen.Run.
// It is the one place a workload, a binding and loadgen's workers meet.
func NewRun(c Client, spec loadspec.Spec, share workload.Share, log *slog.Logger) (loadgen.Config, error) {
	if err := spec.Validate(); err != nil {
		return loadgen.Config{}, err
	}
	if spec.Insert != nil && share.Of > 1 {
		return loadgen.Config{}, fmt.Errorf("load of %s: a load phase runs from one process, not as load host %d of %d", spec.Name, share.Index, share.Of)
	}
	wl, err := workload.FromConfig(spec.Workload)
	if err != nil {
		return loadgen.Config{}, fmt.Errorf("workload %s: %w", spec.Name, err)
	}
	if err := wl.ShareInserts(share); err != nil {
		return loadgen.Config{}, err
	}
	d, err := hbaseDurability(spec.Durability)
	if err != nil {
		return loadgen.Config{}, err
	}
	db := New(c, spec.Family, d, log)
	newDB := func(int) (workload.DB, error) { return db.Worker(), nil }
	cfg := loadgen.Config{Schedule: spec.Schedule, Share: share}
	if spec.Insert != nil {
		cfg.NewWorker = loadgen.InsertRows(wl, newDB, spec.Seed, *spec.Insert)
	} else {
		cfg.NewWorker = loadgen.Transactions(wl, newDB, spec.Seed+int64(share.Index)<<32)
	}
	return cfg, nil
}

// hbaseDurability maps YCSB's durability name onto the client's.
func hbaseDurability(d loadspec.Durability) (hbase.Durability, error) {
	switch d {
	case "", loadspec.UseDefault:
		return hbase.UseDefault, nil
	case loadspec.SkipWAL:
		return hbase.SkipWAL, nil
	case loadspec.AsyncWAL:
		return hbase.AsyncWAL, nil
	case loadspec.SyncWAL:
		return hbase.SyncWAL, nil
	case loadspec.FsyncWAL:
		return hbase.FsyncWAL, nil
	}
	return 0, errors.New("durability=" + string(d) + ": use USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL")
}
