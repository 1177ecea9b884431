package loadgen

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/workload"
)

// noop returns a worker factory whose op records one READ and does nothing.
func noop(op workload.Op) func(int) (Worker, error) {
	return func(int) (Worker, error) {
		return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
			s := time.Now()
			rec.Record(op, s, time.Now(), workload.OK)
			return nil
		}), nil
	}
}

func mustRun(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestRecorderIntendedNeverBelowService(t *testing.T) {
	base := time.Now()
	tests := []struct {
		name                 string
		due, start, end      time.Duration
		closed, followUp     bool
		wantIntended, wantSv int64
	}{
		{"on time", 0, 0, 300 * time.Microsecond, false, false, 300, 300},
		{"late start counts from the schedule", 0, 2 * time.Millisecond, 3 * time.Millisecond, false, false, 3000, 1000},
		{"start reported before due is floored at service", time.Millisecond, 0, 2 * time.Millisecond, false, false, 2000, 2000},
		{"closed loop measures from the actual start", 0, 5 * time.Millisecond, 6 * time.Millisecond, true, false, 1000, 1000},
		{"a follow-up is intended to start when it started", 0, 2 * time.Millisecond, 3 * time.Millisecond, false, true, 1000, 1000},
		{"above 60s is clamped", 0, 0, 90 * time.Second, false, false, highestMicros, highestMicros},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newWorkerRecorder(tt.closed)
			r.beginSlot(base.Add(tt.due), true)
			if tt.followUp {
				r.RecordFollowUp(workload.Update, base.Add(tt.start), base.Add(tt.end), workload.OK)
			} else {
				r.Record(workload.Update, base.Add(tt.start), base.Add(tt.end), workload.OK)
			}
			iv := r.swap()
			if len(iv.samples) != 1 {
				t.Fatalf("%d samples recorded, want 1", len(iv.samples))
			}
			sm := iv.samples[0]
			if sm.op != workload.Update || sm.outcome != Succeeded || sm.intended != tt.wantIntended || sm.service != tt.wantSv {
				t.Errorf("recorded %+v; want UPDATE, succeeded, intended %d us, service %d us", sm, tt.wantIntended, tt.wantSv)
			}
		})
	}
}

// TestRunIntendedDominatesService runs ops of varying cost, some slower than
// the schedule, and checks every quantile of intended latency is at least the
// same quantile of service time (which holds when each op's intended >= service).
func TestRunIntendedDominatesService(t *testing.T) {
	var n atomic.Int64
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 400, Workers: 2, Duration: 700 * time.Millisecond}, Tick: 100 * time.Millisecond,
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				s := time.Now()
				if n.Add(1)%7 == 0 {
					time.Sleep(8 * time.Millisecond)
				}
				rec.Record(workload.Read, s, time.Now(), workload.OK)
				return nil
			}), nil
		},
	})
	r := res.PerOp[workload.Read]
	if r == nil || r.Count() == 0 {
		t.Fatal("no READ recorded")
	}
	for q := 0.0; q <= 100; q += 0.5 {
		if in, sv := r.Intended.ValueAtQuantile(q), r.Service.ValueAtQuantile(q); in < sv {
			t.Errorf("p%v: intended %dus < service %dus", q, in, sv)
		}
	}
}

// TestCoordinatedOmissionCorrection stalls one op for 1s in a 100 ops/s run
// with one worker: the ~100 slots that queue behind it show in intended p99,
// while service p99 (one slow op in ~300) does not.
func TestCoordinatedOmissionCorrection(t *testing.T) {
	var n atomic.Int64
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 100, Workers: 1, Duration: 3 * time.Second}, Tick: 200 * time.Millisecond,
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				s := time.Now()
				if n.Add(1) == 50 {
					time.Sleep(time.Second)
				}
				rec.Record(workload.Read, s, time.Now(), workload.OK)
				return nil
			}), nil
		},
	})
	r := res.PerOp[workload.Read]
	inP99 := time.Duration(r.Intended.ValueAtQuantile(99)) * time.Microsecond
	svP99 := time.Duration(r.Service.ValueAtQuantile(99)) * time.Microsecond
	svMax := time.Duration(r.Service.Max()) * time.Microsecond
	t.Logf("ops %d, intended p99 %v, service p99 %v, service max %v", res.Ops, inP99, svP99, svMax)
	if inP99 < 900*time.Millisecond {
		t.Errorf("intended p99 %v: want >= 900ms, the queueing behind the 1s stall", inP99)
	}
	if svP99 > 100*time.Millisecond {
		t.Errorf("service p99 %v: want well under the stall (one slow op in %d)", svP99, r.Count())
	}
	if svMax < time.Second {
		t.Errorf("service max %v: want the 1s stall itself", svMax)
	}
	// The worker catches up back to back, so the run still holds its rate.
	if !res.HeldTarget() {
		t.Errorf("run did not hold its target after catching up: %s", res.RateMessage())
	}
}

func TestWarmupExcluded(t *testing.T) {
	start := time.Now()
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 200, Workers: 8, Warmup: 300 * time.Millisecond, Duration: 500 * time.Millisecond}, Tick: 50 * time.Millisecond,
		NewWorker: func(int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				s := time.Now()
				// Slow only well inside the warm-up, so measured ops are all fast.
				if s.Sub(start) < 250*time.Millisecond {
					time.Sleep(20 * time.Millisecond)
				}
				rec.Record(workload.Read, s, time.Now(), workload.OK)
				return nil
			}), nil
		},
	})
	if res.WarmupOps < 50 || res.WarmupOps > 61 {
		t.Errorf("warm-up ops %d, want about 60 (300ms at 200 ops/s)", res.WarmupOps)
	}
	if res.Ops < 90 || res.Ops > 100 {
		t.Errorf("measured ops %d, want about 100 (500ms at 200 ops/s)", res.Ops)
	}
	if got := res.PerOp[workload.Read].Count(); got != res.Ops {
		t.Errorf("READ count %d != measured ops %d", got, res.Ops)
	}
	if mx := time.Duration(res.PerOp[workload.Read].Service.Max()) * time.Microsecond; mx >= 20*time.Millisecond {
		t.Errorf("service max %v includes a warm-up op (20ms)", mx)
	}
	if res.Start.Sub(start) < 300*time.Millisecond {
		t.Errorf("measurement started %v after the run, want after the 300ms warm-up", res.Start.Sub(start))
	}
}

func TestStopByCount(t *testing.T) {
	for _, rate := range []float64{0, 5000} {
		res := mustRun(t, Config{Schedule: Schedule{TargetRate: rate, Workers: 4, MaxOps: 137, Duration: time.Minute}, NewWorker: noop(workload.Scan)})
		if res.Ops != 137 || res.PerOp[workload.Scan].Count() != 137 || res.StoppedBy != "count" {
			t.Errorf("rate %v: ops %d, SCAN count %d, stopped by %q; want 137, 137, count", rate, res.Ops, res.PerOp[workload.Scan].Count(), res.StoppedBy)
		}
		if res.Duration >= time.Minute {
			t.Errorf("rate %v: window %v: stop by count should end the run early", rate, res.Duration)
		}
	}
}

func TestStopByDuration(t *testing.T) {
	for _, coarse := range []bool{false, true} {
		res := mustRun(t, Config{Schedule: Schedule{TargetRate: 200, Workers: 2, MaxOps: 1_000_000, Duration: 500 * time.Millisecond}, NewWorker: noop(workload.Read)})
		// At most the 100 slots the window schedules; fewer when a busy
		// machine wakes the workers late (a backlog is dropped at the deadline).
		if res.StoppedBy != "duration" || res.Ops > 100 || res.Ops < 20 {
			t.Errorf("coarse sleep %v: stopped by %q after %d ops; want duration after at most 100", coarse, res.StoppedBy, res.Ops)
		}
		if res.Lateness.TotalCount() != res.Ops {
			t.Errorf("coarse sleep %v: lateness of %d slots recorded, want all %d", coarse, res.Lateness.TotalCount(), res.Ops)
		}
	}
}

func TestStatusesCountedNeverDropped(t *testing.T) {
	var n atomic.Int64
	res := mustRun(t, Config{Schedule: Schedule{Workers: 3, MaxOps: 400}, NewWorker: func(int) (Worker, error) {
		return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
			s := time.Now()
			st := []workload.Status{workload.OK, workload.NotFound, workload.Error, workload.Status(9)}[n.Add(1)%4]
			rec.Record(workload.Insert, s, time.Now(), st)
			return nil
		}), nil
	}})
	o := res.PerOp[workload.Insert]
	if o.Status(workload.OK) != 100 || o.Status(workload.NotFound) != 100 || o.Status(workload.Error) != 200 {
		t.Errorf("statuses %v: want OK 100, NOT_FOUND 100, ERROR 200 (unknown statuses count as ERROR)", o.Statuses)
	}
}

func TestReadModifyWriteRecordsThree(t *testing.T) {
	res := mustRun(t, Config{Schedule: Schedule{Workers: 2, MaxOps: 50}, NewWorker: func(int) (Worker, error) {
		return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
			s := time.Now()
			m := time.Now()
			rec.Record(workload.Read, s, m, workload.OK)
			e := time.Now()
			rec.Record(workload.Update, m, e, workload.OK)
			rec.Record(workload.ReadModifyWrite, s, e, workload.OK)
			return nil
		}), nil
	}})
	for _, op := range []workload.Op{workload.Read, workload.Update, workload.ReadModifyWrite} {
		if c := res.PerOp[op].Count(); c != 50 {
			t.Errorf("%v count %d, want 50", op, c)
		}
	}
	if res.Ops != 50 {
		t.Errorf("ops %d, want 50: an RMW slot counts once", res.Ops)
	}
}

func TestInvalidAndEmptySlotsCounted(t *testing.T) {
	var n atomic.Int64
	res := mustRun(t, Config{Schedule: Schedule{Workers: 1, MaxOps: 30}, NewWorker: func(int) (Worker, error) {
		return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
			switch n.Add(1) % 3 {
			case 0:
				rec.Record(workload.Op(42), time.Now(), time.Now(), workload.OK)
			case 1: // records nothing
			default:
				rec.Record(workload.Read, time.Now(), time.Now(), workload.OK)
			}
			return nil
		}), nil
	}})
	if res.Ops != 30 || res.Invalid != 10 || res.Empty != 10 || res.PerOp[workload.Read].Count() != 10 {
		t.Errorf("ops %d invalid %d empty %d reads %d; want 30, 10, 10, 10", res.Ops, res.Invalid, res.Empty, res.PerOp[workload.Read].Count())
	}
}

// TestCollectorMergeMatchesDirect records known values from several workers
// across several collections and checks the merged totals equal one
// histogram that recorded every value directly.
func TestCollectorMergeMatchesDirect(t *testing.T) {
	recs := []*workerRecorder{newWorkerRecorder(false), newWorkerRecorder(false), newWorkerRecorder(false)}
	col := newCollector(recs)
	wantIn, wantSv := newHistogram(), newHistogram()
	base := time.Now()
	now := base
	for round := range 5 {
		for w, r := range recs {
			for i := range 200 {
				due := base.Add(time.Duration(i) * time.Millisecond)
				start := due.Add(time.Duration(w*37+round*11) * time.Microsecond)
				end := start.Add(time.Duration((i*7919+w*104729+round*13)%50_000) * time.Microsecond)
				r.beginSlot(due, true)
				r.Record(workload.Read, start, end, workload.OK)
				in, _ := toMicros(end.Sub(due))
				sv, _ := toMicros(end.Sub(start))
				_ = wantIn.RecordValue(in)
				_ = wantSv.RecordValue(sv)
			}
		}
		now = now.Add(time.Second)
		col.collect(now)
	}
	var res Result
	col.result(&res)
	for _, c := range []struct {
		name      string
		got, want *hdr.Histogram
	}{{"intended", res.PerOp[workload.Read].Intended, wantIn}, {"service", res.PerOp[workload.Read].Service, wantSv}} {
		if c.got.TotalCount() != c.want.TotalCount() {
			t.Fatalf("%s: merged %d values, want %d", c.name, c.got.TotalCount(), c.want.TotalCount())
		}
		if !c.got.Equals(c.want) {
			for _, q := range []float64{0, 50, 90, 99, 99.9, 100} {
				t.Logf("%s p%v: merged %d direct %d", c.name, q, c.got.ValueAtQuantile(q), c.want.ValueAtQuantile(q))
			}
			t.Errorf("%s: merged histogram differs from the direct one", c.name)
		}
	}
	if res.Ops != 3000 || res.PerOp[workload.Read].Status(workload.OK) != 3000 {
		t.Errorf("ops %d, OK %d; want 3000", res.Ops, res.PerOp[workload.Read].Status(workload.OK))
	}
}

func TestHlogRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 2000, Workers: 2, Warmup: 100 * time.Millisecond, Duration: 600 * time.Millisecond},
		Tick:     100 * time.Millisecond, Hlog: &buf, NewWorker: func(id int) (Worker, error) {
			return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				s := time.Now()
				op := workload.Read
				if id == 1 {
					op = workload.Update
				}
				rec.Record(op, s, time.Now(), workload.OK)
				return nil
			}), nil
		},
	})
	text := buf.String()
	for _, want := range []string{"#[Histogram log format version 1.3]", "#[StartTime: ", "#[BaseTime: ", "Tag=READ.intended,", "Tag=READ.service,", "Tag=UPDATE.intended,", "Tag=UPDATE.service,"} {
		if !strings.Contains(text, want) {
			t.Errorf("interval log lacks %q:\n%s", want, text)
		}
	}
	intervals, err := ReadHlog(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	// A 600 ms window at a 100 ms tick writes about 6 intervals per tag; a
	// loaded machine may drop ticks (a Ticker does), so ask only that the log
	// is split at all: every tag in at least two intervals.
	perTag := map[string]int{}
	for _, h := range intervals {
		perTag[h.Tag()]++
	}
	for _, tag := range []string{"READ.intended", "READ.service", "UPDATE.intended", "UPDATE.service"} {
		if perTag[tag] < 2 {
			t.Errorf("%s in %d intervals, want at least 2 (the log is split per tick): %v", tag, perTag[tag], perTag)
		}
	}
	startMs := res.Start.UnixMilli()
	for _, h := range intervals {
		if h.StartTimeMs() < startMs-1 || h.EndTimeMs() < h.StartTimeMs() {
			t.Errorf("interval %s [%d, %d] ms starts before the measurement window (%d)", h.Tag(), h.StartTimeMs(), h.EndTimeMs(), startMs)
		}
	}
	merged := map[string]*hdr.Histogram{}
	if err := MergeByTag(merged, intervals); err != nil {
		t.Fatal(err)
	}
	for _, op := range []workload.Op{workload.Read, workload.Update} {
		for _, k := range []Kind{Intended, Service} {
			want := res.PerOp[op].Intended
			if k == Service {
				want = res.PerOp[op].Service
			}
			got := merged[Tag(op.String(), k)]
			if got == nil || !got.Equals(want) {
				t.Errorf("%s: log's merged intervals differ from the result's histogram", Tag(op.String(), k))
			}
		}
	}
}

func TestProgressReported(t *testing.T) {
	var mu sync.Mutex
	var ps []Progress
	res := mustRun(t, Config{
		Schedule: Schedule{TargetRate: 500, Workers: 2, Warmup: 200 * time.Millisecond, Duration: 400 * time.Millisecond}, Tick: 100 * time.Millisecond,
		NewWorker: noop(workload.Read),
		Progress:  func(p Progress) { mu.Lock(); ps = append(ps, p); mu.Unlock() },
	})
	// One per 100 ms tick over 600 ms, and the final one; a busy machine
	// may coalesce ticks (time.Ticker drops them), never all of them.
	if len(ps) < 3 {
		t.Fatalf("%d progress reports, want about one per 100ms tick over 600ms", len(ps))
	}
	if !ps[0].Warmup || ps[len(ps)-1].Warmup {
		t.Errorf("first report warm-up %v, last %v: want true then false", ps[0].Warmup, ps[len(ps)-1].Warmup)
	}
	last := ps[len(ps)-1]
	if last.Ops != res.Ops || last.Rate != 500 {
		t.Errorf("last report ops %d rate %v, want %d, 500", last.Ops, last.Rate, res.Ops)
	}
	var sawRate, sawP99 bool
	for _, p := range ps {
		sawRate = sawRate || p.OpsPerSec > 0
		sawP99 = sawP99 || (!p.Warmup && p.P99Intended > 0)
	}
	if !sawRate || !sawP99 {
		t.Errorf("progress never showed a rate (%v) or a p99 intended latency (%v): %+v", sawRate, sawP99, ps)
	}
}

func TestRateClampedAndReported(t *testing.T) {
	res := mustRun(t, Config{Schedule: Schedule{TargetRate: 50_000, Rate: 200, Workers: 2, Duration: time.Second}, NewWorker: noop(workload.Read)})
	if res.Rate != 200 || res.TargetRate != 50_000 {
		t.Fatalf("rate %v (target %v), want clamped to 200", res.Rate, res.TargetRate)
	}
	if res.Ops > 200 || res.Ops < 180 {
		t.Errorf("ops %d in 1s, want about 200 at the clamped rate", res.Ops)
	}
	if msg := res.RateMessage(); !strings.Contains(msg, "clamped to 200") {
		t.Errorf("rate message %q does not mention the clamp", msg)
	}
}

func TestHeldTarget(t *testing.T) {
	tests := []struct {
		rate     float64
		ops      int64
		held     bool
		contains string
	}{
		{1000, 10_000, true, "100.0%"},
		{1000, 9_500, true, "95.0%"},
		{1000, 9_400, false, "TARGET NOT HELD"},
		{0, 5, true, "unthrottled"},
	}
	for _, tt := range tests {
		r := Result{TargetRate: tt.rate, Rate: tt.rate, Ops: tt.ops, Duration: 10 * time.Second}
		if r.HeldTarget() != tt.held || !strings.Contains(r.RateMessage(), tt.contains) {
			t.Errorf("rate %v ops %d: held %v message %q; want %v and %q", tt.rate, tt.ops, r.HeldTarget(), r.RateMessage(), tt.held, tt.contains)
		}
	}
}

func TestRunConfigErrors(t *testing.T) {
	errWorker := errors.New("no connection")
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no workers", Config{Schedule: Schedule{MaxOps: 1}, NewWorker: noop(workload.Read)}, "workers"},
		{"no factory", Config{Schedule: Schedule{Workers: 1, MaxOps: 1}}, "NewWorker"},
		{"never stops", Config{Schedule: Schedule{Workers: 1}, NewWorker: noop(workload.Read)}, "never stop"},
		{"negative duration", Config{Schedule: Schedule{Workers: 1, Duration: -time.Second}, NewWorker: noop(workload.Read)}, "negative"},
		{"negative target", Config{Schedule: Schedule{TargetRate: -1, Workers: 1, MaxOps: 1}, NewWorker: noop(workload.Read)}, "target rate"},
		{"NaN target", Config{Schedule: Schedule{TargetRate: math.NaN(), Workers: 1, MaxOps: 1}, NewWorker: noop(workload.Read)}, "target rate"},
		{"a limit above the target", Config{Schedule: Schedule{TargetRate: 100, Rate: 200, Workers: 1, MaxOps: 1}, NewWorker: noop(workload.Read)}, "never raise"},
		{"infinite limit", Config{Schedule: Schedule{Rate: math.Inf(1), Workers: 1, MaxOps: 1}, NewWorker: noop(workload.Read)}, "paced rate"},
		{"worker fails", Config{Schedule: Schedule{Workers: 2, MaxOps: 1}, NewWorker: func(id int) (Worker, error) { return nil, errWorker }}, "make worker 0 of 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, Config{Schedule: Schedule{TargetRate: 100, Workers: 2, Duration: time.Hour}, NewWorker: noop(workload.Read)})
	if !errors.Is(err, context.DeadlineExceeded) || res == nil || res.StoppedBy != "canceled" || res.Ops == 0 {
		t.Fatalf("Run after cancel: result %+v, error %v; want the ops so far and the context's error", res, err)
	}
	if res.Duration > 5*time.Second || res.Achieved() < 50 {
		t.Errorf("canceled after ~300ms: window %v, achieved %.1f ops/s; want the window actually run", res.Duration, res.Achieved())
	}
}

func FuzzReadHlog(f *testing.F) {
	var buf bytes.Buffer
	res, err := Run(context.Background(), Config{Schedule: Schedule{Workers: 1, MaxOps: 50}, Tick: time.Millisecond, Hlog: &buf, NewWorker: noop(workload.Read)})
	if err != nil || res.Ops != 50 {
		f.Fatalf("seed run: %v", err)
	}
	f.Add(buf.String())
	f.Add("Tag=READ.intended,0.1,0.2,0.3,HISTFAAAACV42pJpmSzMwMDAxAABzFCaEcyZ3M5g/wEicIIREAAA//9O2QRi\n")
	f.Add("#[StartTime: 12.5 (seconds since epoch)]\n1,2,3,HISTggAA\n")
	f.Fuzz(func(t *testing.T, s string) {
		hs, err := ReadHlog(strings.NewReader(s))
		if err == nil {
			_ = MergeByTag(map[string]*hdr.Histogram{}, hs)
		}
	})
}

func TestReadHlogRejectsV1Plainly(t *testing.T) {
	// A V1 compressed payload (cookie 0x1c849302, as old YCSB logs wrote) is not decodable by hdrhistogram-go.
	v1 := "0.000,1.000,2.000,HISTIgAAAFx42pNpmSzMwMBkxgABzFCaEcyZ3M5g/wEicIIREAAA\n"
	_, err := ReadHlog(strings.NewReader(v1))
	if err == nil || !strings.Contains(err.Error(), "V1-encoded") {
		t.Fatalf("ReadHlog error = %v, want one saying V1 logs cannot be decoded", err)
	}
}

func TestSchedulePaced(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		want float64
	}{
		{Schedule{TargetRate: 500}, 500},
		{Schedule{TargetRate: 500, Rate: 200}, 200},
		{Schedule{Rate: 300}, 300},
		{Schedule{}, 0},
	} {
		if got := tc.s.Paced(); got != tc.want {
			t.Errorf("%+v.Paced() = %v, want %v", tc.s, got, tc.want)
		}
	}
}
