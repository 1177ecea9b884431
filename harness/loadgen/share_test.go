package loadgen

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// runShare runs host share of a 1000 ops/s schedule on a fake clock and
// returns its result and the due offsets of the slots it ran.
func runShare(t *testing.T, share workload.Share, cfg Config) (*Result, []time.Duration) {
	t.Helper()
	origin := time.Unix(5000, 0)
	clk := &fakeClock{now: origin}
	var mu sync.Mutex
	var dues []time.Duration
	cfg.TargetRate, cfg.Workers, cfg.Share, cfg.newClock = 1000, 2, share, clk.factory()
	cfg.NewWorker = func(int) (Worker, error) {
		return WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
			r := rec.(*workerRecorder)
			mu.Lock()
			dues = append(dues, r.due.Sub(origin))
			took := time.Duration(len(dues)%7) * time.Microsecond
			mu.Unlock()
			now := clk.Now()
			rec.Record(workload.Read, now, now.Add(took), workload.OK)
			return nil
		}), nil
	}
	res := mustRun(t, cfg)
	slices.Sort(dues)
	return res, dues
}

// TestSharesUnionIsTheSchedule runs a window as three hosts' shares: the
// union of their slots is exactly the one-host schedule, and the merged
// result counts what one host counts, at the one host's rate.
func TestSharesUnionIsTheSchedule(t *testing.T) {
	cfg := Config{Schedule: Schedule{Warmup: 30 * time.Millisecond, Duration: 300 * time.Millisecond}}
	whole, wholeDues := runShare(t, workload.Share{}, cfg)
	var parts []*Result
	var union []time.Duration
	for i := range 3 {
		res, dues := runShare(t, workload.Share{Index: i, Of: 3}, cfg)
		if res.Rate < 333 || res.Rate > 334 {
			t.Errorf("host %d paces to %.2f ops/s, want its third of 1000", i, res.Rate)
		}
		for _, d := range dues {
			if k := int(d / time.Millisecond); k%3 != i {
				t.Fatalf("host %d ran slot %d, which is host %d's", i, k, k%3)
			}
		}
		parts = append(parts, res)
		union = append(union, dues...)
	}
	slices.Sort(union)
	if !slices.Equal(union, wholeDues) {
		t.Fatalf("the shares ran %d slots, the one host %d: the union must be the schedule", len(union), len(wholeDues))
	}
	m := Merge(parts...)
	if m.Ops != whole.Ops || m.WarmupOps != whole.WarmupOps || m.Rate != whole.Rate {
		t.Errorf("merged ops %d, warm-up %d, rate %.1f; one host %d, %d, %.1f", m.Ops, m.WarmupOps, m.Rate, whole.Ops, whole.WarmupOps, whole.Rate)
	}
	rd := m.PerOp[workload.Read]
	if rd.Intended.TotalCount() != whole.Ops || rd.Status(workload.OK) != whole.Ops {
		t.Errorf("merged READ histogram holds %d, statuses %d; want %d", rd.Intended.TotalCount(), rd.Status(workload.OK), whole.Ops)
	}
	var sum int64
	for _, p := range parts {
		sum += p.PerOp[workload.Read].Service.TotalCount()
	}
	if rd.Service.TotalCount() != sum {
		t.Errorf("merged service count %d, sum of hosts %d", rd.Service.TotalCount(), sum)
	}
	if parts[0].PerOp[workload.Read].Service.TotalCount() == sum {
		t.Error("Merge changed its first input")
	}
}

// TestShareOfOperationCount splits a 10-operation run over three hosts:
// 4, 3 and 3 slots, and a host beyond the count runs none.
func TestShareOfOperationCount(t *testing.T) {
	cfg := Config{Schedule: Schedule{MaxOps: 10}}
	var total int64
	for i, want := range []int64{4, 3, 3} {
		res, _ := runShare(t, workload.Share{Index: i, Of: 3}, cfg)
		if res.Ops != want {
			t.Errorf("host %d of 3 ran %d of 10 operations, want %d", i, res.Ops, want)
		}
		total += res.Ops
	}
	if total != 10 {
		t.Errorf("hosts ran %d operations, want 10", total)
	}
	if res, _ := runShare(t, workload.Share{Index: 3, Of: 4}, Config{Schedule: Schedule{MaxOps: 3}}); res.Ops != 0 {
		t.Errorf("host 3 of 4 ran %d of 3 operations, want 0", res.Ops)
	}
	if _, err := Run(context.Background(), Config{Schedule: Schedule{Workers: 1, MaxOps: 1}, Share: workload.Share{Index: 3, Of: 3},
		NewWorker: func(int) (Worker, error) { return nil, nil }}); err == nil {
		t.Error("host 3 of 3 accepted, want an error")
	}
}
