package suite

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/regress-hbase/regress/harness/capacity/section"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/workload"
)

// loads holds each workload's load by workload name.
type loads map[string]loadspec.Spec

// properties builds workload w's YCSB properties as YCSB's command line
// would: the workload file (-P), then the suite's properties (-p), then its
// data spec, each later one winning, so the data the suite fingerprints and
// seeds wins over a recordcount or fieldlength in the workload file. This is
// the one place the suite's typed data spec becomes text, once per workload
// when the suite loads: each trial then changes the typed settings.
func (s *Suite) properties(w string) (workload.Properties, error) {
	b, err := s.workloadFile(w)
	if err != nil {
		return workload.Properties{}, err
	}
	p, err := workload.ParseProperties(bytes.NewReader(b), s.WorkloadPath(w))
	if err != nil {
		return p, err
	}
	for k, v := range s.Properties {
		src := "suite properties"
		if s.cmdline[k] {
			src = workload.OverrideSource
		}
		p.Set(k, v, src)
	}
	src := "suite data"
	p.Set("recordcount", strconv.FormatInt(s.Data.RecordCount, 10), src)
	p.Set("fieldcount", strconv.Itoa(s.Data.FieldCount), src)
	p.Set("fieldlength", strconv.Itoa(s.Data.FieldLength), src)
	p.Set("columnfamily", s.Data.ColumnFamily, src)
	p.Set("operationcount", "1", src)
	return p, nil
}

// readLoads reads every workload's load once (loads), so a bad value in
// properties: or a workload file is refused when the suite loads, before
// any cluster starts.
func (s *Suite) readLoads() error {
	var errs []error
	s.loads = loads{}
	for _, w := range s.Workloads {
		l, err := s.readLoad(w)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.loads[w] = l
	}
	return errors.Join(errs...)
}

func (s *Suite) readLoad(w string) (loadspec.Spec, error) {
	p, err := s.properties(w)
	if err != nil {
		return loadspec.Spec{}, fmt.Errorf("workloads: %w", err)
	}
	l, err := loadspec.FromProperties(p)
	if err != nil {
		return loadspec.Spec{}, fmt.Errorf("workload %s with the suite's properties: %w", w, err)
	}
	l.Name, l.Family = w, s.Data.ColumnFamily
	return l, nil
}

// load is workload w's load as read when the suite loaded (read again for
// a Suite not made by Parse).
func (s *Suite) load(w string) (loadspec.Spec, error) {
	if l, ok := s.loads[w]; ok {
		return l, nil
	}
	return s.readLoad(w)
}

// TrialSpec is the load of one trial of workload w: the run section's rate
// clamped to run.per_server_clamp times servers (the live region servers
// the caller counted), its threads, windows and operation count. The caller
// sets the trial's table and seed.
func (s *Suite) TrialSpec(w string, servers int) (loadspec.Spec, error) {
	r := s.Run
	r.TargetOpsPerSec = r.Target(w)
	rate, err := loadspec.ClampRate(r.TargetOpsPerSec, r.PerServerClampOpsPerSec, servers)
	if err != nil {
		return loadspec.Spec{}, err
	}
	return s.spec(w, r.expectedOps(), loadgen.Schedule{TargetRate: r.TargetOpsPerSec, Rate: rate, Workers: r.Threads,
		Warmup: r.Warmup, Duration: r.Measure, MaxOps: r.OperationCount})
}

// StepSpec is the load of one capacity step of workload w at rate ops/s:
// the capacity section's threads and windows, no clamp (the sweep sets the
// rate) and no operation count. The caller sets the step's table.
func (s *Suite) StepSpec(w string, rate float64) (loadspec.Spec, error) {
	c := s.Capacity
	if c == nil {
		d := section.Defaults()
		d.Threads = s.Run.Threads
		c = &d
	}
	ops := int64(math.Ceil(rate * (c.Warmup + c.Measure).Seconds()))
	return s.spec(w, ops, loadgen.Schedule{TargetRate: rate, Workers: c.Threads, Warmup: c.Warmup, Duration: c.Measure})
}

// PreloadSpec is the seed's load: every row of the data spec, inserted
// load.batch rows a slot by load.threads workers, unthrottled, stopping at
// the first batch that fails. The first workload's settings shape the rows;
// its mix does not matter. The caller sets the table.
func (s *Suite) PreloadSpec() (loadspec.Spec, error) {
	rows, batch := s.Data.RecordCount, int64(max(s.Load.BatchSize, 1))
	l, err := s.spec(s.Workloads[0], rows, loadgen.Schedule{Workers: s.Load.Threads, MaxOps: loadgen.LoadSlots(rows, batch)})
	if err != nil {
		return l, err
	}
	l.Workload.InsertStart, l.Workload.InsertCount = 0, rows
	l.Workload.Table, l.Seed = "seed", 1
	l.Insert = &loadgen.Inserts{Batch: batch, StopOnFailure: true}
	if err := l.Validate(); err != nil {
		return l, err
	}
	return l, nil
}

// spec is workload w's load sized for operations operations (which size the
// key space of run-phase inserts) on schedule.
func (s *Suite) spec(w string, operations int64, schedule loadgen.Schedule) (loadspec.Spec, error) {
	l, err := s.load(w)
	if err != nil {
		return l, err
	}
	l.Workload.SetOperations(max(operations, 1))
	l.Schedule = schedule
	if err := l.Validate(); err != nil {
		return l, err
	}
	return l, nil
}

// Target is workload w's target rate before the clamp: its run.targets
// entry, else run.target.
func (r Run) Target(w string) float64 {
	if t, ok := r.Targets[w]; ok {
		return t
	}
	return r.TargetOpsPerSec
}

// expectedOps is the number of operations a trial should run, which YCSB
// uses to size the key space of run-phase inserts.
func (r Run) expectedOps() int64 {
	if r.OperationCount > 0 {
		return r.OperationCount
	}
	rate := r.TargetOpsPerSec
	if rate == 0 {
		rate = 10000
	}
	return int64(math.Ceil(rate * (r.Warmup + r.Measure).Seconds()))
}

// PreloadPart is the rows part (0-based) of parts preloads: its first row
// and how many, the rows spread evenly, the first parts one row more.
func PreloadPart(rows int64, part, parts int) (start, count int64) {
	if parts <= 1 {
		return 0, rows
	}
	n, extra := rows/int64(parts), rows%int64(parts)
	p := int64(part)
	return p*n + min(p, extra), n + min(1, max(0, extra-p))
}
