package capacity

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/capacity/section"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// StepOf measures a step from its run: the achieved rate, the intended
// p50 and p99 over every operation type, the worst operation type's intended
// p99, and the operations that failed. Latencies are intended (from each
// slot's due time), so queueing behind a saturated server counts.
func StepOf(res *loadgen.Result) Step {
	st := Step{AchievedOpsPerSec: res.Achieved(), Ops: res.Ops}
	var all *hdr.Histogram
	for op, o := range res.PerOp {
		if o == nil {
			continue
		}
		st.Errors += o.Status(workload.Error)
		if o.Intended == nil || o.Intended.TotalCount() == 0 {
			continue
		}
		if p := float64(o.Intended.ValueAtQuantile(99)); p > st.WorstP99Micros {
			st.WorstP99Micros, st.WorstOp = p, workload.Op(op).String()
		}
		if p := float64(o.Intended.ValueAtQuantile(50)); p > st.WorstP50Micros {
			st.WorstP50Micros, st.WorstP50Op = p, workload.Op(op).String()
		}
		if all == nil {
			all = hdr.New(o.Intended.LowestTrackableValue(), o.Intended.HighestTrackableValue(), int(o.Intended.SignificantFigures()))
		}
		all.Merge(o.Intended)
	}
	if all != nil {
		st.P50Micros = float64(all.ValueAtQuantile(50))
		st.P99Micros = float64(all.ValueAtQuantile(99))
	}
	return st
}

// StepRunner runs one step: workload w at rate ops/s, open loop, on a fresh
// clone of side's seed (0 baseline, 1 candidate), and returns what the load
// generator measured. It is the seam to the runner (runner.Runner.Step);
// the sweep decides the rates and judges the steps.
type StepRunner func(ctx context.Context, side int, workload string, rate float64) (*loadgen.Result, error)

// Probe is the Prober that runs each step with run and measures it (StepOf).
func Probe(run StepRunner) Prober {
	return func(ctx context.Context, side int, w string, rate float64, _ string) (Step, error) {
		res, err := run(ctx, side, w, rate)
		if err != nil {
			return Step{}, err
		}
		return StepOf(res), nil
	}
}

// ConfigOf is the sweep a suite's capacity section drives; maxErrorRate is
// the suite's run.max_error_rate, the error budget of a good step too.
func ConfigOf(c section.Capacity, maxErrorRate float64) Config {
	return Config{Workloads: c.Workloads, StartOpsPerSec: c.StartOpsPerSec, Factor: c.Factor, Rates: c.Rates,
		MaxOpsPerSec: c.MaxOpsPerSec, SLOP99: c.SLOP99, SLOP50: c.SLOP50, Hold: loadgen.HoldThreshold, MaxErrorRate: maxErrorRate,
		Resolution: c.Resolution, StepTime: c.Warmup + c.Measure, Pairs: c.Pairs, Budget: c.Budget}
}

// String is the step's progress line: "capacity workloada pair 1 baseline sweep 2000 ops/s: achieved 1998, p99 3ms (ok) [41s elapsed]".
func (e Event) String() string {
	verdict := "ok"
	if !e.Step.Good {
		verdict = "FAILED: " + e.Step.Why
	}
	return fmt.Sprintf("capacity %s pair %d %s %s %.0f ops/s: achieved %.0f, p99 %s (%s) [%s elapsed]", filepath.Base(e.Workload), e.Pair+1, e.Side,
		e.Step.Phase, e.Step.TargetOpsPerSec, e.Step.AchievedOpsPerSec, time.Duration(e.Step.WorstP99Micros)*time.Microsecond, verdict, e.Elapsed.Round(time.Second))
}
