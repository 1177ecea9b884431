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

// DefaultTick is how often workers' histograms are merged, the interval log
// gets a line per op and kind, and progress is reported.
const DefaultTick = time.Second

// Config describes a run phase.
type Config struct {
	// TargetRate is the global rate in ops/s over all workers; 0 means unthrottled (closed loop).
	TargetRate float64
	// PerServerClamp caps the rate at PerServerClamp × LiveServers ops/s; 0 means no clamp.
	PerServerClamp float64
	// LiveServers is the number of live region servers, needed with PerServerClamp.
	LiveServers int
	// Workers is the number of concurrent workers (YCSB's -threads).
	Workers int
	// NewWorker makes worker number id (0-based); each runs on its own goroutine.
	NewWorker func(id int) (Worker, error)
	// Warmup is run before the measurement window and excluded from it.
	Warmup time.Duration
	// Duration is the measurement window's length; 0 means no time limit.
	Duration time.Duration
	// MaxOps stops the run after this many measured operations; 0 means no limit.
	// At least one of Duration and MaxOps must be set; the first reached stops the run.
	MaxOps int64
	// Tick is the merge, log and progress interval; 0 means DefaultTick.
	Tick time.Duration
	// Progress, if set, is called on every tick (and once at the end) on the goroutine that called Run or Load.
	Progress func(Progress)
	// Hlog, if set, receives the HdrHistogram interval log of the measurement window.
	Hlog io.Writer
	// Pacer overrides the constant-rate schedule; nil means ConstantPacer at the clamped rate.
	Pacer Pacer
	// CoarseSleep waits for slots on Go timers alone. On Linux these wake at
	// millisecond granularity, so ops start about 0.5 ms late on average and
	// intended latency includes that; the default nanosleep starts them within
	// about 0.1 ms at some more client CPU (see BenchmarkPacer).
	CoarseSleep bool
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
	}
	return nil
}

// Run runs the run phase: workers take slots from one global schedule, wait
// until each slot is due, and run it; a worker that falls behind runs back to
// back. It returns the measurement window's result, and an error when the
// configuration is bad, a worker cannot be made, the interval log cannot be
// written, or ctx ends first (with the result so far).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	rate, err := ClampRate(cfg.TargetRate, cfg.PerServerClamp, cfg.LiveServers)
	if err != nil {
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	workers := make([]Worker, cfg.Workers)
	for i := range workers {
		if workers[i], err = cfg.NewWorker(i); err != nil {
			return nil, fmt.Errorf("loadgen: make worker %d of %d: %w", i, cfg.Workers, err)
		}
	}
	pacer := cfg.Pacer
	if pacer == nil {
		pacer = ConstantPacer{Rate: rate}
	}
	// A custom pacer is open loop even without a rate.
	closed := cfg.Pacer == nil && rate == 0

	s := &schedule{pacer: pacer, closed: closed, coarse: cfg.CoarseSleep, maxOps: cfg.MaxOps}
	recs := make([]*workerRecorder, cfg.Workers)
	for i := range recs {
		recs[i] = newWorkerRecorder(closed)
	}
	col := newCollector(recs)

	s.start = time.Now()
	s.measureStart = s.start.Add(cfg.Warmup)
	if cfg.Duration > 0 {
		s.end = s.measureStart.Add(cfg.Duration)
		s.endOffset = cfg.Warmup + cfg.Duration
	}
	col.startLog(cfg.Hlog, s.measureStart, fmt.Sprintf("regress loadgen: rate %.0f ops/s (0 = unthrottled), %d workers, values in microseconds", rate, cfg.Workers))

	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Go(func() { s.work(ctx, w, recs[i]) })
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
		case now := <-t.C:
			report(now)
		case <-done:
			break loop
		}
	}
	report(time.Now())

	res := &Result{TargetRate: cfg.TargetRate, Rate: rate, Start: s.measureStart}
	col.result(res)
	res.Duration = cfg.Duration
	switch {
	case ctx.Err() != nil:
		res.StoppedBy = "canceled"
		res.Duration = max(0, time.Since(s.measureStart))
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
	if ctx.Err() != nil {
		return res, fmt.Errorf("loadgen: run canceled after %d measured ops: %w", res.Ops, ctx.Err())
	}
	return res, col.logErr
}

// schedule is the run's one global schedule: workers claim slot numbers from
// an atomic counter, so the global rate is exact however the workers are
// scheduled, and a stalled worker's next slots go to workers that are free
// (as a real client pool's would); only when all are busy do slots queue,
// and that queueing is what intended latency measures.
type schedule struct {
	pacer  Pacer
	closed bool
	coarse bool

	start, measureStart, end time.Time
	endOffset                time.Duration // end - start; 0 means no time limit

	maxOps       int64
	next         atomic.Uint64
	measured     atomic.Int64
	countReached atomic.Bool
	pacerStopped atomic.Bool
}

func (s *schedule) work(ctx context.Context, w Worker, rec *workerRecorder) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for ctx.Err() == nil {
		var due time.Time
		if s.closed {
			due = time.Now()
		} else {
			k := s.next.Add(1) - 1
			off := s.pacer.Due(k)
			if s.endOffset > 0 && off >= s.endOffset {
				return // scheduled after the window ends
			}
			if _, stop := s.pacer.Pace(off, k); stop {
				s.pacerStopped.Store(true)
				return
			}
			due = s.start.Add(off)
			if !sleepUntil(ctx, timer, due, s.coarse) {
				return
			}
		}
		// The backlog of a run that fell behind is dropped at the deadline: the
		// achieved rate then shows the shortfall.
		if s.endOffset > 0 && !time.Now().Before(s.end) {
			return
		}
		measure := !due.Before(s.measureStart)
		if measure && s.maxOps > 0 && s.measured.Add(1) > s.maxOps {
			s.countReached.Store(true)
			return
		}
		rec.beginSlot(due, measure)
		w.Next(ctx, rec)
		rec.endSlot()
	}
}

// preciseSpan is the longest wait slept with preciseSleep; longer waits sleep
// on a timer (watching ctx) until preciseSpan is left. One nanosleep per slot
// costs less CPU than a timer wake plus a nanosleep, and 50ms bounds how late
// a cancellation is seen.
const preciseSpan = 50 * time.Millisecond

// sleepUntil waits until due and returns false when ctx ended first. With
// coarse set it only uses Go timers, which wake at millisecond granularity.
func sleepUntil(ctx context.Context, timer *time.Timer, due time.Time, coarse bool) bool {
	wait := time.Until(due)
	span := preciseSpan
	if coarse {
		span = 0
	}
	if wait > span {
		timer.Reset(wait - span)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return false
		}
		wait = time.Until(due)
	}
	if wait > 0 {
		preciseSleep(wait)
	}
	return ctx.Err() == nil
}
