package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// DefaultTick is how often workers' histograms are merged, the interval log
// gets a line per op and kind, and progress is reported.
const DefaultTick = time.Second

// Schedule is what a run paces: its rate, workers, windows and operation
// count. It is the part of a trial's spec (package loadspec) that loadgen
// reads; its JSON is that of a load host's task.
type Schedule struct {
	// TargetRate is the global rate asked for in ops/s over all workers; 0
	// means unthrottled (closed loop). The Result reports it as asked.
	TargetRate float64 `json:"target_rate"`
	// Rate is the rate the run paces to when a limit the caller resolved
	// (the per-server clamp) lowered TargetRate, or capped an unthrottled
	// run; 0 means TargetRate. It may not exceed a positive TargetRate.
	Rate float64 `json:"rate,omitempty"`
	// Workers is the number of concurrent workers (YCSB's -threads).
	Workers int `json:"threads"`
	// Warmup is run before the measurement window and excluded from it.
	Warmup time.Duration `json:"warmup"`
	// Duration is the measurement window's length; 0 means no time limit.
	Duration time.Duration `json:"measure"`
	// MaxOps stops the run after this many measured operations; 0 means no limit.
	// At least one of Duration and MaxOps must be set; the first reached stops the run.
	MaxOps int64 `json:"operationcount"`
}

// Paced returns the rate the run paces to: Rate, or TargetRate when no
// limit lowered it; 0 means unthrottled.
func (s Schedule) Paced() float64 {
	if s.Rate > 0 {
		return s.Rate
	}
	return s.TargetRate
}

// Config describes a run phase.
type Config struct {
	// Schedule is what the run paces: its rates, workers, windows and count.
	Schedule
	// NewWorker makes worker number id (0-based); each runs on its own goroutine.
	NewWorker func(id int) (Worker, error)
	// Tick is the merge, log and progress interval; 0 means DefaultTick.
	Tick time.Duration
	// Progress, if set, is called on every tick (and once at the end) on the goroutine that called Run or Load.
	Progress func(Progress)
	// Hlog, if set, receives the HdrHistogram interval log of the measurement window.
	Hlog io.Writer
	// Pacer overrides the constant-rate schedule; nil means ConstantPacer at the paced rate.
	Pacer Pacer
	// Share makes this run one load host's part of a fleet's run (see
	// workload.Share): it takes every Of-th slot of the one global schedule
	// from slot Index, and its share of MaxOps, so the union of the hosts'
	// slots is exactly the schedule one host would run. The rates and MaxOps
	// stay the fleet's totals; the Result's rates are this host's share.
	Share workload.Share
	// Start anchors the schedule at this instant (slot 0 is due then, the
	// measurement window opens at Start+Warmup); zero means when Run starts.
	// Duet trials give both sides' runs the same Start, so the two meet the
	// machine's interference at the same moments.
	Start time.Time

	// newClock makes each worker's clock; nil means the real one (tests set a fake).
	newClock func(context.Context) clock
}

// Progress is what a run reports on every tick.
type Progress struct {
	// Elapsed is the time since the run started, warm-up included.
	Elapsed time.Duration
	// Warmup is true while the run is still in its warm-up.
	Warmup bool
	// Ops is the number of measured operations so far.
	Ops int64
	// OpsPerSec is the rate over the last tick, warm-up included.
	OpsPerSec float64
	// P99Intended is the p99 intended latency over all ops in the last tick (zero in warm-up).
	P99Intended time.Duration
	// Rate is the rate the run paces to; 0 means unthrottled.
	Rate float64
}

func (c *Config) validate() error {
	switch {
	case c.Workers <= 0:
		return fmt.Errorf("loadgen: %d workers: need at least 1", c.Workers)
	case c.NewWorker == nil:
		return errors.New("loadgen: Config.NewWorker is nil: give a function that makes a Worker")
	case c.Warmup < 0 || c.Duration < 0 || c.MaxOps < 0 || c.Tick < 0:
		return fmt.Errorf("loadgen: negative warm-up %v, duration %v, op count %d or tick %v", c.Warmup, c.Duration, c.MaxOps, c.Tick)
	case c.Duration == 0 && c.MaxOps == 0:
		return errors.New("loadgen: neither a duration nor an operation count is set: the run would never stop")
	case !validRate(c.TargetRate):
		return fmt.Errorf("loadgen: target rate %v ops/s is invalid: use 0 (unthrottled) or a positive rate", c.TargetRate)
	case !validRate(c.Rate) || c.TargetRate > 0 && c.Rate > c.TargetRate:
		return fmt.Errorf("loadgen: paced rate %v ops/s with target %v ops/s is invalid: a limit may lower the target, never raise it", c.Rate, c.TargetRate)
	}
	if err := c.Share.Validate(); err != nil {
		return fmt.Errorf("loadgen: %w", err)
	}
	return nil
}

func validRate(r float64) bool { return r >= 0 && !math.IsInf(r, 0) }

// Run runs the run phase: every free worker claims the next slot of the one
// global schedule and waits for its due time on its own clock, parked
// without holding an OS thread or a P; a slot that finds every worker busy
// is claimed by the first to free up, late, and that wait is part of its
// intended latency. It returns the measurement window's result, and an error
// when the configuration is bad, a worker cannot be made or fails, the
// interval log cannot be written, or ctx ends first (with the result so far).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	rate := cfg.Paced()
	workers := make([]Worker, cfg.Workers)
	for i := range workers {
		var err error
		if workers[i], err = cfg.NewWorker(i); err != nil {
			return nil, fmt.Errorf("loadgen: make worker %d of %d: %w", i, cfg.Workers, err)
		}
	}
	pacer := cfg.Pacer
	if pacer == nil {
		pacer = ConstantPacer{Rate: rate}
	}
	maxOps, targetRate := cfg.MaxOps, cfg.TargetRate
	if n := cfg.Share.Of; n > 1 {
		pacer = sharePacer{Pacer: pacer, index: uint64(cfg.Share.Index), of: uint64(n)}
		if maxOps = shareOf(maxOps, cfg.Share); maxOps == 0 && cfg.MaxOps > 0 {
			maxOps = -1 // a fleet larger than the count: this host measures nothing
		}
		rate, targetRate = rate/float64(n), targetRate/float64(n)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	mkClock := cfg.newClock
	if mkClock == nil {
		mkClock = newClock
	}
	clocks := make([]clock, cfg.Workers)
	for i := range clocks {
		clocks[i] = mkClock(ctx)
		defer clocks[i].Close()
	}
	clk := clocks[0]

	// A custom pacer is open loop even without a rate.
	closed := cfg.Pacer == nil && rate == 0
	s := &schedule{pacer: pacer, closed: closed, maxOps: maxOps}
	recs := make([]*workerRecorder, cfg.Workers)
	for i := range recs {
		recs[i] = newWorkerRecorder(closed)
	}
	col := newCollector(recs)

	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := processCPU()
	s.start = clk.Now()
	if !cfg.Start.IsZero() {
		s.start = cfg.Start
	}
	s.measureStart = s.start.Add(cfg.Warmup)
	if cfg.Duration > 0 {
		s.end = s.measureStart.Add(cfg.Duration)
		s.endOffset = cfg.Warmup + cfg.Duration
	}
	col.startLog(cfg.Hlog, s.measureStart, fmt.Sprintf("regress loadgen: rate %.0f ops/s (0 = unthrottled), %d workers, values in microseconds", rate, cfg.Workers))

	var (
		wg      sync.WaitGroup
		failMu  sync.Mutex
		failErr error
	)
	for i, w := range workers {
		wg.Go(func() {
			if err := s.work(ctx, w, recs[i], clocks[i]); err != nil {
				failMu.Lock()
				if failErr == nil {
					failErr = fmt.Errorf("loadgen: worker %d: %w", i, err)
					cancel(failErr)
				}
				failMu.Unlock()
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	tick := cfg.Tick
	if tick == 0 {
		tick = DefaultTick
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	last := s.start
	report := func(now time.Time) {
		f := col.collect(now)
		if cfg.Progress != nil {
			secs := now.Sub(last).Seconds()
			p := Progress{Elapsed: now.Sub(s.start), Warmup: now.Before(s.measureStart), Ops: col.slots, P99Intended: f.p99Intended, Rate: rate}
			if secs > 0 {
				p.OpsPerSec = float64(f.slots+f.warmupSlots) / secs
			}
			cfg.Progress(p)
		}
		last = now
	}
loop:
	for {
		select {
		case <-t.C:
			report(clk.Now())
		case <-done:
			break loop
		}
	}
	report(clk.Now())

	res := &Result{TargetRate: targetRate, Rate: rate, Start: s.measureStart}
	res.Client = clientCost(processCPU()-cpu0, &ms0)
	col.result(res)
	res.Duration = cfg.Duration
	switch {
	case failErr != nil || ctx.Err() != nil:
		res.StoppedBy = "canceled"
		res.Duration = max(0, clk.Now().Sub(s.measureStart))
	case s.countReached.Load() || s.pacerStopped.Load():
		res.StoppedBy = "count"
		if s.pacerStopped.Load() {
			res.StoppedBy = "pacer"
		}
		res.Duration = 0
	default:
		res.StoppedBy = "duration"
	}
	if d := col.lastEnd.Sub(s.measureStart); d > res.Duration {
		res.Duration = d
	}
	if failErr != nil {
		return res, failErr
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("loadgen: run canceled after %d measured ops: %w", res.Ops, ctx.Err())
	}
	return res, col.logErr
}

// clientCost reads the GC's pauses since ms0 (ReadMemStats stops the world
// for microseconds, twice per run).
func clientCost(cpu time.Duration, ms0 *runtime.MemStats) ClientCost {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c := ClientCost{CPU: cpu, GCPauses: time.Duration(ms.PauseTotalNs - ms0.PauseTotalNs), GCs: ms.NumGC - ms0.NumGC}
	// PauseNs is a ring of the last 256 pauses; collection j is at (j+255)%256.
	for j := ms0.NumGC + 1; j <= ms.NumGC && ms.NumGC-j < 256; j++ {
		c.GCPauseMax = max(c.GCPauseMax, time.Duration(ms.PauseNs[(j+255)%256]))
	}
	return c
}

// slot is one scheduled operation as a worker claims it.
type slot struct {
	due     time.Time // intended start; in a closed loop the worker's own start
	measure bool      // inside the measurement window
}

// schedule is the run's one global schedule: workers claim slot numbers from
// an atomic counter, so the union of their slots is exactly the schedule and
// the global rate is exact however the workers are scheduled; a stalled
// worker's next slots go to workers that are free (as a real client pool's
// would); only when all are busy do slots queue, and that queueing is what
// intended latency measures.
type schedule struct {
	pacer  Pacer
	closed bool

	start, measureStart, end time.Time
	endOffset                time.Duration // end - start; 0 means no time limit

	maxOps       int64 // measured slots allowed; 0 means no limit, -1 none
	next         atomic.Uint64
	measured     atomic.Int64
	countReached atomic.Bool
	pacerStopped atomic.Bool
}

// claim takes the next slot, or reports that none is left: the window ends
// before it, the pacer stopped, or the operation count is reached. now is
// the claiming worker's clock reading, used in a closed loop.
func (s *schedule) claim(now time.Time) (slot, bool) {
	var sl slot
	if s.closed {
		if s.endOffset > 0 && !now.Before(s.end) {
			return sl, false
		}
		sl = slot{due: now, measure: !now.Before(s.measureStart)}
	} else {
		k := s.next.Add(1) - 1
		off := s.pacer.Due(k)
		if s.endOffset > 0 && off >= s.endOffset {
			return sl, false // scheduled after the window ends
		}
		if _, stop := s.pacer.Pace(off, k); stop {
			s.pacerStopped.Store(true)
			return sl, false
		}
		due := s.start.Add(off)
		sl = slot{due: due, measure: !due.Before(s.measureStart)}
	}
	if sl.measure && s.maxOps != 0 && s.measured.Add(1) > s.maxOps {
		s.countReached.Store(true)
		return sl, false
	}
	return sl, true
}

// work claims and runs slots until none is left, ctx ends or the Worker fails.
func (s *schedule) work(ctx context.Context, w Worker, rec *workerRecorder, clk clock) error {
	// A closed loop has no due times to wait for: with a Start in the
	// future (a duet), its workers wait for it here.
	if s.closed && !clk.SleepUntil(ctx, s.start) {
		return nil
	}
	for ctx.Err() == nil {
		sl, ok := s.claim(clk.Now())
		if !ok {
			return nil
		}
		if !s.closed {
			if !clk.SleepUntil(ctx, sl.due) {
				return nil
			}
			// The backlog of a run that fell behind is dropped at the
			// deadline: the achieved rate then shows the shortfall.
			if s.endOffset > 0 && !clk.Now().Before(s.end) {
				return nil
			}
		}
		rec.beginSlot(sl.due, sl.measure)
		err := w.Next(ctx, rec)
		rec.endSlot()
		if err != nil {
			return err
		}
	}
	return nil
}
