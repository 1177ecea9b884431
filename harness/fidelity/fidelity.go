// Package fidelity measures what the load client adds to HBase's latency: it
// runs YCSB workloads through the same load path as every trial (binding,
// native client, loadgen) at fixed rates, and reports per run the client's
// service and intended percentiles, the achieved rate, the client's CPU per
// operation, and the region server's own per-call times from its /jmx, so
// client-added latency shows as client minus server.
package fidelity

import (
	"context"
	"fmt"
	"time"

	"github.com/regress-hbase/regress/harness/binding"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

// Case is one fidelity measurement: a workload at a rate.
type Case struct {
	// Name labels the case in tables, e.g. "workloadc@1000".
	Name string
	// Props are the workload's YCSB properties (table, columnfamily, recordcount...).
	Props workload.Properties
	// Rate is the target in ops/s.
	Rate float64
	// Workers is the number of workers (YCSB's -threads).
	Workers int
	// Duration is the measurement window; Warmup runs before it, unmeasured.
	Duration, Warmup time.Duration
}

// Latencies are the percentiles of one histogram, in µs.
type Latencies struct {
	P50, P95, P99, P999 int64
}

func latencies(h interface{ ValueAtQuantile(float64) int64 }) Latencies {
	return Latencies{h.ValueAtQuantile(50), h.ValueAtQuantile(95), h.ValueAtQuantile(99), h.ValueAtQuantile(99.9)}
}

// OpFigures is what one operation type measured in a run.
type OpFigures struct {
	Count             int64
	Service, Intended Latencies
}

// Figures is one run of a Case.
type Figures struct {
	Case     string
	Run      int
	Ops      map[workload.Op]OpFigures
	Achieved float64 // ops/s over the measurement window
	Target   float64 // ops/s
	// CPUPerOp is the client process's user+system CPU over the whole run
	// (pacing, requests, responses, recording, warm-up included) divided by
	// the operations run.
	CPUPerOp time.Duration
	// LatenessP99 is how late the client started operations (p99);
	// GCPauseMax the load process's longest GC pause during the run.
	LatenessP99, GCPauseMax time.Duration
	// Server is the region server's view of the same window, when it was read.
	Server *ServerFigures
}

// Run runs c once against table through client and returns its figures.
// server, if not nil, is read before and after the run (see ServerFigures),
// the second read no sooner than CacheTTL after the first.
func Run(ctx context.Context, client *hbase.Client, c Case, server *JMX) (Figures, error) {
	load, err := loadOf(c.Props)
	if err != nil {
		return Figures{}, fmt.Errorf("fidelity %s: %w", c.Name, err)
	}
	load.Name, load.Seed = c.Name, time.Now().UnixNano()
	load.Schedule = loadgen.Schedule{TargetRate: c.Rate, Workers: c.Workers, Warmup: c.Warmup, Duration: c.Duration}
	cfg, err := binding.NewRun(client, load, workload.Share{}, nil)
	if err != nil {
		return Figures{}, fmt.Errorf("fidelity %s: %w", c.Name, err)
	}
	var before ServerSnapshot
	if server != nil {
		if before, err = server.Snapshot(ctx); err != nil {
			return Figures{}, err
		}
	}
	res, err := loadgen.Run(ctx, cfg)
	if err != nil {
		return Figures{}, fmt.Errorf("fidelity %s: %w", c.Name, err)
	}
	f := Figures{Case: c.Name, Ops: map[workload.Op]OpFigures{}, Achieved: res.Achieved(), Target: res.Rate, CPUPerOp: res.CPUPerOp(),
		GCPauseMax: res.Client.GCPauseMax}
	if res.Lateness != nil {
		f.LatenessP99 = time.Duration(res.Lateness.ValueAtQuantile(99)) * time.Microsecond
	}
	for _, o := range res.PerOp {
		if o == nil {
			continue
		}
		f.Ops[o.Op] = OpFigures{Count: o.Count(), Service: latencies(o.Service), Intended: latencies(o.Intended)}
	}
	if server != nil {
		// A read within CacheTTL of the one before would repeat its figures.
		if wait := CacheTTL - time.Since(before.At); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return Figures{}, ctx.Err()
			}
		}
		after, err := server.Snapshot(ctx)
		if err != nil {
			return Figures{}, err
		}
		sf := after.Since(before)
		f.Server = &sf
	}
	return f, nil
}

// loadOf reads the load of a case's properties; the column family
// defaults to "family".
func loadOf(props workload.Properties) (loadspec.Spec, error) {
	load, err := loadspec.FromProperties(props)
	if load.Family == "" {
		load.Family = "family"
	}
	return load, err
}

// Prepare creates table pre-split into regions (at the workload's key
// quantiles) and loads its recordcount rows with batched puts, through the
// same load path as a seed preload, at the table's default durability.
func Prepare(ctx context.Context, client *hbase.Client, props workload.Properties, regions int) error {
	load, err := loadOf(props)
	if err != nil {
		return fmt.Errorf("fidelity: %w", err)
	}
	cfg := load.Workload
	splits, err := cfg.SplitKeys(regions)
	if err != nil {
		return err
	}
	if err := client.CreateTable(ctx, hbase.TableSpec{Name: cfg.Table, Families: []hbase.FamilySpec{{Name: load.Family}}, SplitKeys: splits}); err != nil {
		return fmt.Errorf("fidelity: %w", err)
	}
	const batch = 100
	load.Name, load.Seed, load.Durability = "fidelity preload", 1, loadspec.UseDefault
	load.Schedule = loadgen.Schedule{Workers: 4, MaxOps: loadgen.LoadSlots(cfg.RecordCount, batch)}
	load.Insert = &loadgen.Inserts{Batch: batch, StopOnFailure: true}
	run, err := binding.NewRun(client, load, workload.Share{}, nil)
	if err != nil {
		return fmt.Errorf("fidelity: %w", err)
	}
	if _, err := loadgen.Run(ctx, run); err != nil {
		return fmt.Errorf("fidelity: load %s: %w", cfg.Table, err)
	}
	if err := client.FlushTable(ctx, cfg.Table); err != nil {
		return err
	}
	return client.MajorCompactTable(ctx, cfg.Table)
}
