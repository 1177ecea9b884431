package results

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// statusRun runs 40 one-slot READs at 1000 ops/s: OK (100 us), NOT_FOUND
// (7 ms), ERROR (9 ms) and an unknown status (counted as ERROR) in turn.
func statusRun(t *testing.T) *loadgen.Result {
	t.Helper()
	n := 0
	res, err := loadgen.Run(context.Background(), loadgen.Config{Schedule: loadgen.Schedule{TargetRate: 1000, Workers: 1, MaxOps: 40},
		NewWorker: func(int) (loadgen.Worker, error) {
			return loadgen.WorkerFunc(func(_ context.Context, rec workload.Recorder) error {
				st := []workload.Status{workload.OK, workload.NotFound, workload.Error, workload.Status(9)}[n%4]
				d := []time.Duration{100 * time.Microsecond, 7 * time.Millisecond, 9 * time.Millisecond, 9 * time.Millisecond}[n%4]
				n++
				if n == 20 {
					runtime.GC() // one collection inside the run, for the client figures
				}
				s := time.Now()
				rec.Record(workload.Read, s, s.Add(d), st)
				return nil
			}), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFillTrial(t *testing.T) {
	res := statusRun(t)
	var tr Trial
	FillTrial(&tr, res)
	if tr.TargetOpsPerSec != 1000 || tr.AchievedOpsPerSec != res.Achieved() || tr.DurationMillis != res.Duration.Milliseconds() || !tr.Start.Equal(res.Start) {
		t.Errorf("trial %+v does not match result %+v", tr, res)
	}
	st := tr.Ops["READ"]
	if st.Count != 40 || st.Errors != 20 || st.Statuses["OK"] != 10 || st.Statuses["NOT_FOUND"] != 10 || st.Statuses["ERROR"] != 20 {
		t.Errorf("READ = %+v: want 40 operations, 10 OK, 10 NOT_FOUND, 20 ERROR (unknown statuses are errors)", st)
	}
	if l := st.Intended; l.P99Micros < l.P50Micros || l.MaxMicros < l.P999Micros || l.MinMicros > l.P50Micros {
		t.Errorf("intended latency summary out of order: %+v", l)
	}
	if st.Service.MaxMicros > 110 {
		t.Errorf("READ service max %v us: the latency of successful reads must not include the failed ones (7-9 ms)", st.Service.MaxMicros)
	}
	if st.Failed == nil || st.Failed.Count != 30 || st.Failed.Service.MinMicros < 6900 {
		t.Errorf("READ failures = %+v: want 30 from 7 ms", st.Failed)
	}
	if c := tr.Client; c == nil || c.CPUPerOpMicros <= 0 || c.GCs < 1 || c.GCPauseTotalMicros <= 0 || c.GCPauseMaxMicros > c.GCPauseTotalMicros || c.LatenessMaxMicros < c.LatenessP99Micros {
		t.Errorf("client figures %+v: want CPU per op, at least the one forced GC with its pause, lateness in order", c)
	}
	if _, ok := tr.Ops["READ-FAILED"]; ok {
		t.Error("failures stored as an operation of their own; they belong to READ.Failed")
	}
}
