package runner

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/binding"
	"github.com/regress-hbase/regress/harness/lifecycle"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/workload"
)

// seedSpec describes the seed of s's cluster, with its preload.
func (r *Runner) seedSpec(s *side) (lifecycle.SeedSpec, error) {
	load, err := r.Suite.PreloadSpec()
	if err != nil {
		return lifecycle.SeedSpec{}, err
	}
	splits, err := load.Workload.SplitKeys(r.Suite.Data.Regions)
	if err != nil {
		return lifecycle.SeedSpec{}, err
	}
	return lifecycle.SeedSpec{
		Key:        r.Suite.SeedKey(),
		Version:    s.t.Version,
		Family:     r.Suite.Data.Family(),
		SplitKeys:  splits,
		StoreFiles: r.Suite.Data.StoreFiles,
		Reseed:     r.Reseed,
		Preload: func(ctx context.Context, table string, part, parts int) error {
			// A workload of its own per preload (NewRun builds one): it
			// writes to the table the lifecycle named, its load sequence
			// starting at the part's first row.
			load := load
			load.Workload.Table = table
			load.Workload.InsertStart, load.Workload.InsertCount = suite.PreloadPart(load.Workload.InsertCount, part, parts)
			load.Schedule.MaxOps = loadgen.LoadSlots(load.Workload.InsertCount, load.Insert.Batch)
			return r.preload(ctx, s, load)
		},
	}, nil
}

// preload writes every seed row into load's table with batched puts from
// Load.Threads workers, unthrottled, through the one load path; the first
// batch that fails stops it.
func (r *Runner) preload(ctx context.Context, s *side, load loadspec.Spec) error {
	table, rows, batch := load.Workload.Table, load.Workload.InsertCount, load.Insert.Batch
	cfg, err := binding.NewRun(s.t.Client, load, workload.Share{}, r.logger())
	if err != nil {
		return fmt.Errorf("preload %s: %w", table, err)
	}
	cfg.Progress = func(p loadgen.Progress) {
		done := min(p.Ops*batch, rows)
		r.emit(Event{Phase: "load", Target: s.t.Name, Load: &LoadProgress{Rows: done, Total: rows, RowsPerSec: p.OpsPerSec * float64(batch)}})
	}
	res, err := loadgen.Run(ctx, cfg)
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

// trialSpec is the load of one trial of workload w on table, its draws
// seeded by at, its rate clamped to s's live region servers.
func (r *Runner) trialSpec(s *side, w, table string, at timing) (loadspec.Spec, error) {
	load, err := r.Suite.TrialSpec(w, s.servers)
	if err != nil {
		return load, fmt.Errorf("%s: %w", s.t.Name, err)
	}
	load.Workload.Table, load.Seed = table, seedOf(at)
	if at.Measure > 0 {
		load.Duration = at.Measure
	}
	return load, nil
}

// timing pins a trial's run in time: Start anchors its schedule (zero: when
// it starts), Seed its workload's random choices (zero: from the clock). A
// duet's two runs share both. On load hosts Start is a proposal: the run
// starts once its hosts have prepared, at StartLead after that at the
// earliest, and a duet's two sides agree one instant through gate.
type timing struct {
	Start time.Time
	Seed  int64
	// Measure, when set, is the trial's measurement window in place of the
	// suite's: the profiled pair's (suite.Run.ProfileMeasure).
	Measure time.Duration
	gate    *startGate
}

// drive runs load here or on the load hosts, writing the interval log to
// hlog; with load hosts it also returns each host's part. onStart, if set,
// is told the instant the schedule is anchored at (at.Start here; on load
// hosts the agreed one) before the load begins.
func (r *Runner) drive(ctx context.Context, s *side, load loadspec.Spec, hlog io.Writer, at timing, onStart func(time.Time)) (*loadgen.Result, []results.LoadHost, error) {
	if r.LoadHosts == nil {
		if onStart != nil && !at.Start.IsZero() {
			onStart(at.Start)
		}
		res, err := r.runHere(ctx, s, load, hlog, at)
		return res, nil, err
	}
	p, err := r.LoadHosts.Prepare(ctx, loadhosts.Task{Trial: load.Workload.Table, ZK: s.t.ZK, ZNode: s.t.ZNode, Spec: load})
	start, gerr := at.agree(ctx, err)
	if err != nil {
		return nil, nil, err
	}
	defer p.Close()
	if gerr != nil {
		return nil, nil, gerr
	}
	if onStart != nil {
		onStart(start)
	}
	tr, err := p.Go(ctx, start)
	if err != nil {
		return nil, nil, err
	}
	if hlog != nil {
		if _, err := hlog.Write(tr.Hlog); err != nil {
			return nil, nil, err
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var parts []results.LoadHost
	for _, h := range tr.Hosts {
		lh := results.LoadHostOf(h.Host.Name(), h.Share, h.Result)
		lh.ClockAheadMs, lh.ClockErrorMs, lh.BarrierLeadMs = ms(h.ClockAhead), ms(h.ClockError), ms(h.Lead)
		parts = append(parts, lh)
	}
	return tr.Merged, parts, nil
}

// agree is the instant a run on load hosts starts once its hosts have
// prepared (failed: they could not): the later of at.Start and StartLead
// from now, agreed with the duet's other side when there is one.
func (at timing) agree(ctx context.Context, failed error) (time.Time, error) {
	if at.gate != nil {
		return at.gate.agree(ctx, at.Start, failed)
	}
	return later(at.Start, time.Now().Add(loadhosts.StartLead)), nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// startGate agrees one start for a duet's two runs on load hosts: each side
// arrives once its hosts prepared its trial (or failed to), and both start
// at the latest proposal or StartLead after the last arrival, whichever is
// later. A side that failed releases the other with an error.
type startGate struct {
	mu      sync.Mutex
	want    int
	arrived int
	start   time.Time
	err     error
	done    chan struct{}
}

func newStartGate(sides int) *startGate { return &startGate{want: sides, done: make(chan struct{})} }

func (g *startGate) agree(ctx context.Context, proposed time.Time, failed error) (time.Time, error) {
	g.mu.Lock()
	g.arrived++
	g.start = later(g.start, proposed)
	if failed != nil && g.err == nil {
		g.err = fmt.Errorf("the duet's other side could not start: %w", failed)
	}
	if g.arrived == g.want || failed != nil {
		select {
		case <-g.done:
		default:
			g.start = later(g.start, time.Now().Add(loadhosts.StartLead))
			close(g.done)
		}
	}
	g.mu.Unlock()
	select {
	case <-g.done:
	case <-ctx.Done():
		return time.Time{}, ctx.Err()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.start, g.err
}

// runHere runs load from this process.
func (r *Runner) runHere(ctx context.Context, s *side, load loadspec.Spec, hlog io.Writer, at timing) (*loadgen.Result, error) {
	cfg, err := binding.NewRun(s.t.Client, load, workload.Share{}, r.logger())
	if err != nil {
		return nil, err
	}
	kind, trial, trials := s.kind, s.number, r.plan.Trials(s.kind)
	cfg.Start, cfg.Hlog = at.Start, hlog
	cfg.Progress = func(pr loadgen.Progress) {
		r.emit(Event{Phase: "trial", Target: s.t.Name, Workload: load.Name, Kind: kind, Trial: trial, Trials: trials, Run: &pr})
	}
	return loadgen.Run(ctx, cfg)
}

func seedOf(at timing) int64 {
	if at.Seed != 0 {
		return at.Seed
	}
	return time.Now().UnixNano()
}
