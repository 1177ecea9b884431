package loadgen

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// BenchmarkRecord measures recording one operation (its intended and service
// latency as one sample), lock included, as a worker does on every op.
func BenchmarkRecord(b *testing.B) {
	r := newWorkerRecorder(false)
	base := time.Now()
	r.beginSlot(base, true)
	r.Record(workload.Read, base, base.Add(time.Millisecond), workload.OK) // allocate the histograms
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		start := base.Add(time.Duration(i&1023) * time.Microsecond)
		r.beginSlot(base, true)
		r.Record(workload.Read, start, start.Add(time.Duration(i&65535)*time.Microsecond), workload.OK)
		if i&1023 == 0 {
			r.swap().reset() // as the collector does once per tick: buffers are reused
		}
	}
}

// BenchmarkPacer runs a no-op operation for 10 s at 1k, 10k and 100k ops/s
// with 32 workers and reports the achieved rate, its error against the
// target, the schedule lateness (how late ops start after their intended
// start) and the client CPU spent per op (dispatching, waking a worker,
// recording and collecting; the op itself is a no-op). Run it once:
//
//	go test -run '^$' -bench Pacer -benchtime 1x ./harness/loadgen
func BenchmarkPacer(b *testing.B) {
	for _, rate := range []float64{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("rate=%.0f", rate), func(b *testing.B) { benchPacer(b, rate) })
	}
}

func benchPacer(b *testing.B, rate float64) {
	for range b.N {
		cpu0 := processCPU()
		res, err := Run(context.Background(), Config{Schedule: Schedule{TargetRate: rate, Workers: 32, Duration: 10 * time.Second}, NewWorker: noop(workload.Read)})
		if err != nil {
			b.Fatal(err)
		}
		cpu := processCPU() - cpu0
		a := res.Achieved()
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(res.Ops), "cpu_ns/op")
		b.ReportMetric(a, "achieved_ops/s")
		b.ReportMetric(100*(a-rate)/rate, "rate_err_%")
		b.ReportMetric(float64(res.Lateness.ValueAtQuantile(50)), "late_p50_us")
		b.ReportMetric(float64(res.Lateness.ValueAtQuantile(99)), "late_p99_us")
		b.ReportMetric(float64(res.Lateness.Max()), "late_max_us")
	}
}

// BenchmarkCollectTick measures one collector tick over 8 workers that each
// recorded 1000 READs since the last tick: recording their 8000 samples into
// the tick's histograms, the cost paid once per tick off the workers' hot path.
func BenchmarkCollectTick(b *testing.B) {
	recs := make([]*workerRecorder, 8)
	for i := range recs {
		recs[i] = newWorkerRecorder(false)
	}
	col := newCollector(recs)
	base := time.Now()
	now := base
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for _, r := range recs {
			for i := range 1000 {
				r.beginSlot(base, true)
				r.Record(workload.Read, base, base.Add(time.Duration(i*97)*time.Microsecond), workload.OK)
			}
		}
		now = now.Add(time.Second)
		b.StartTimer()
		col.collect(now)
	}
}

// BenchmarkWorkloadOp measures one whole client-side operation of workloads
// C and F through the adapter: pick op, pick key, build values, call a no-op
// DB, record both histograms. The DB's own cost is excluded.
func BenchmarkWorkloadOp(b *testing.B) {
	for _, name := range []string{"workloadc", "workloadf"} {
		b.Run(name, func(b *testing.B) {
			p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", name))
			if err != nil {
				b.Fatal(err)
			}
			wl, err := workload.New(p)
			if err != nil {
				b.Fatal(err)
			}
			w, _ := Transactions(wl, func(int) (workload.DB, error) { return nopDB{}, nil }, 1)(0)
			r := newWorkerRecorder(false)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				r.beginSlot(time.Now(), true)
				w.Next(ctx, r)
			}
		})
	}
}
