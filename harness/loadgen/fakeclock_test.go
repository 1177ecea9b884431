package loadgen

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// fakeClock is a clock that never waits: SleepUntil moves it to the due
// time (plus late, to model a wake-up that overshoots) at once. It is shared
// by every worker of a run.
type fakeClock struct {
	mu   sync.Mutex
	now  time.Time
	late time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *fakeClock) SleepUntil(ctx context.Context, t time.Time) bool {
	c.mu.Lock()
	if t = t.Add(c.late); t.After(c.now) {
		c.now = t
	}
	c.mu.Unlock()
	return ctx.Err() == nil
}

func (c *fakeClock) Close() error { return nil }

func (c *fakeClock) factory() func(context.Context) clock {
	return func(context.Context) clock { return c }
}

// TestScheduleOnFakeClock checks the schedule itself: at 1000 ops/s with a
// 100 ms warm-up and a 1 s window, slot k is due at exactly k ms, the
// warm-up slots are counted apart, and the window holds exactly 1000 slots.
func TestScheduleOnFakeClock(t *testing.T) {
	clk := &fakeClock{now: time.Unix(5000, 0)}
	var mu sync.Mutex
	var dues []time.Duration
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 1000, Workers: 1, Warmup: 100 * time.Millisecond, Duration: time.Second}, newClock: clk.factory(),
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				r := rec.(*workerRecorder)
				mu.Lock()
				dues = append(dues, r.due.Sub(time.Unix(5000, 0)))
				mu.Unlock()
				now := clk.Now()
				rec.Record(workload.Read, now, now, workload.OK)
				return nil
			}), nil
		},
	})
	if len(dues) != 1100 {
		t.Fatalf("%d slots run, want 1100 (100 warm-up + 1000 measured)", len(dues))
	}
	for k, d := range dues {
		if d != time.Duration(k)*time.Millisecond {
			t.Fatalf("slot %d due at %v, want %v", k, d, time.Duration(k)*time.Millisecond)
		}
	}
	if res.Ops != 1000 || res.WarmupOps != 100 || res.StoppedBy != "duration" {
		t.Errorf("ops %d, warm-up %d, stopped by %q; want 1000, 100, duration", res.Ops, res.WarmupOps, res.StoppedBy)
	}
	if got := res.Lateness.Max(); got != 0 {
		t.Errorf("lateness max %d us on a clock that wakes on time, want 0", got)
	}
}

// TestQueueingBehindAStallOnFakeClock stalls the first of ten 1 ms slots for
// 10 ms with one worker: slots 1-9 then start back to back, and each one's
// intended latency is exactly the time since it was due, its service time zero.
func TestQueueingBehindAStallOnFakeClock(t *testing.T) {
	clk := &fakeClock{now: time.Unix(5000, 0)}
	n := 0
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 1000, Workers: 1, MaxOps: 10}, newClock: clk.factory(),
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				start := clk.Now()
				if n == 0 {
					clk.advance(10 * time.Millisecond)
				}
				n++
				rec.Record(workload.Read, start, clk.Now(), workload.OK)
				return nil
			}), nil
		},
	})
	r := res.PerOp[workload.Read]
	want := newHistogram()
	for k := range 10 {
		_ = want.RecordValue(int64(10-k) * 1000) // slot k due at k ms, ended at 10 ms
	}
	if !r.Intended.Equals(want) {
		t.Errorf("intended: min %d max %d mean %.0f us, want 1000..10000 us (10 ms - k ms for slot k)", r.Intended.Min(), r.Intended.Max(), r.Intended.Mean())
	}
	if !r.Service.ValuesAreEquivalent(r.Service.Max(), 10000) || r.Service.ValueAtQuantile(80) != 0 {
		t.Errorf("service: max %d, p80 %d us; want 10000 (the stall) and 0 (the rest)", r.Service.Max(), r.Service.ValueAtQuantile(80))
	}
}

// slowDB advances the fake clock per call, so F's sub-operations take
// known times: READ 3 ms, UPDATE 5 ms.
type slowDB struct {
	nopDB
	clk *fakeClock
}

func (d slowDB) Read(context.Context, string, string, []string) workload.Status {
	d.clk.advance(3 * time.Millisecond)
	return workload.OK
}

func (d slowDB) Update(context.Context, string, string, []workload.Field) workload.Status {
	d.clk.advance(5 * time.Millisecond)
	return workload.OK
}

// TestReadModifyWriteLatenciesOnFakeClock runs workload F's
// read-modify-write with every slot started 2 ms late: READ carries the
// lateness and its own 3 ms, UPDATE only its own 5 ms (it is a follow-up),
// and READ-MODIFY-WRITE the whole 2+3+5 ms.
func TestReadModifyWriteLatenciesOnFakeClock(t *testing.T) {
	p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", "workloadf"))
	if err != nil {
		t.Fatal(err)
	}
	wl, err := workload.New(p)
	if err != nil {
		t.Fatal(err)
	}
	clk := &fakeClock{now: time.Unix(5000, 0), late: 2 * time.Millisecond}
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 100, Workers: 1, MaxOps: 50}, newClock: clk.factory(),
		NewWorker: func(id int) (Worker, error) {
			k := wl.NewWorker(int64(id))
			k.SetClock(clk.Now)
			db := slowDB{clk: clk}
			return WorkerFunc(func(ctx context.Context, rec workload.Recorder) error {
				k.Do(ctx, db, workload.ReadModifyWrite, rec)
				return nil
			}), nil
		},
	})
	for _, c := range []struct {
		op                workload.Op
		intended, service int64 // µs
	}{{workload.Read, 5000, 3000}, {workload.Update, 5000, 5000}, {workload.ReadModifyWrite, 10000, 8000}} {
		r := res.PerOp[c.op]
		if r == nil || r.Count() != 50 {
			t.Fatalf("%s: %v, want 50 operations", c.op, r)
		}
		// Every value is the same, so min and max must both be it (to the histogram's 3 digits).
		same := func(h interface {
			Min() int64
			Max() int64
			ValuesAreEquivalent(a, b int64) bool
		}, v int64) bool {
			return h.ValuesAreEquivalent(h.Min(), v) && h.ValuesAreEquivalent(h.Max(), v)
		}
		if !same(r.Intended, c.intended) || !same(r.Service, c.service) {
			t.Errorf("%s: intended %d-%d us, service %d-%d us; want intended %d, service %d",
				c.op, r.Intended.Min(), r.Intended.Max(), r.Service.Min(), r.Service.Max(), c.intended, c.service)
		}
	}
}

// TestFailedOperationsInTheirOwnHistograms checks that a READ that does
// not return OK is counted in READ's statuses but timed in READ-FAILED's
// histograms, never in READ's.
func TestFailedOperationsInTheirOwnHistograms(t *testing.T) {
	clk := &fakeClock{now: time.Unix(5000, 0)}
	n := 0
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 1000, Workers: 1, MaxOps: 30}, newClock: clk.factory(),
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				start := clk.Now()
				st, d := workload.OK, 100*time.Microsecond
				switch n % 3 {
				case 1:
					st, d = workload.NotFound, 7*time.Millisecond
				case 2:
					st, d = workload.Error, 9*time.Millisecond
				}
				n++
				clk.advance(d)
				rec.Record(workload.Read, start, clk.Now(), st)
				return nil
			}), nil
		},
	})
	r := res.PerOp[workload.Read]
	if r.Count() != 30 || r.Status(workload.OK) != 10 || r.Status(workload.NotFound) != 10 || r.Status(workload.Error) != 10 {
		t.Errorf("statuses %v, want 10 of each", r.Statuses)
	}
	if r.Service.TotalCount() != 10 || r.Service.Max() != 100 {
		t.Errorf("READ service: %d values, max %d us; want only the 10 OK reads of 100 us", r.Service.TotalCount(), r.Service.Max())
	}
	if r.FailedService.TotalCount() != 20 || r.FailedService.Min() != 7000 {
		t.Errorf("READ-FAILED service: %d values, min %d us; want the 20 failed reads of 7-9 ms", r.FailedService.TotalCount(), r.FailedService.Min())
	}
}

// TestStartAnchorsTheSchedule: with Config.Start 3 s after the run begins,
// slot 0 is due at Start, the window opens at Start+Warmup, and every slot
// keeps the rate from there, as a duet's two runs need to meet the machine at
// the same moments.
func TestStartAnchorsTheSchedule(t *testing.T) {
	for _, closed := range []bool{false, true} {
		begin := time.Unix(5000, 0)
		clk := &fakeClock{now: begin}
		start := begin.Add(3 * time.Second)
		var first time.Time
		var once sync.Once
		cfg := Config{
			Schedule: Schedule{Workers: 1, Warmup: 100 * time.Millisecond, Duration: time.Second}, newClock: clk.factory(), Start: start,
			NewWorker: func(int) (Worker, error) {
				return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
					now := clk.Now()
					once.Do(func() { first = now })
					if closed {
						clk.advance(time.Millisecond)
					}
					rec.Record(workload.Read, now, clk.Now(), workload.OK)
					return nil
				}), nil
			},
		}
		if !closed {
			cfg.TargetRate = 1000
		}
		res := mustRun(t, cfg)
		if !first.Equal(start) {
			t.Errorf("closed=%v: first operation at %v, want the Start %v", closed, first.Sub(begin), start.Sub(begin))
		}
		if want := start.Add(100 * time.Millisecond); !res.Start.Equal(want) {
			t.Errorf("closed=%v: window opened at %v, want %v", closed, res.Start.Sub(begin), want.Sub(begin))
		}
		if !closed && res.Ops != 1000 {
			t.Errorf("%d measured ops at 1000 ops/s for 1 s, want 1000", res.Ops)
		}
	}
}
