package runner

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/target"
)

// Prepared is a target seeded and ready for capacity steps.
type Prepared struct {
	s *side
}

// Name is the prepared target's store name.
func (p *Prepared) Name() string { return p.s.t.Name }

// Prepare cleans up what earlier runs left on t and makes sure its seed
// snapshot exists, as a paired run does before its first trial.
func (r *Runner) Prepare(ctx context.Context, t *target.Target) (*Prepared, error) {
	s, err := r.prepare(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Prepared{s: s}, nil
}

// StepSpec is one capacity step: a rate, workers and windows.
type StepSpec struct {
	Workload        string
	TargetOpsPerSec float64
	Threads         int
	Warmup, Measure time.Duration
}

// Step clones p's seed, runs one open-loop step on the clone and drops it.
// Nothing is stored: a step at a rate the suite does not run is no trial of
// the suite. The per-server clamp does not apply: the sweep sets the rate.
func (r *Runner) Step(ctx context.Context, p *Prepared, spec StepSpec) (res *loadgen.Result, err error) {
	s := p.s
	table, err := s.mgr.Clone(ctx, s.seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.t.Name, err)
	}
	defer func() {
		if derr := r.dropTable(ctx, s, table, err); derr != nil && err == nil {
			err = derr
		}
	}()
	run := r.Suite.Run
	run.TargetOpsPerSec, run.PerServerClampOpsPerSec = spec.TargetOpsPerSec, 0
	run.Threads, run.Warmup, run.Measure, run.OperationCount = spec.Threads, spec.Warmup, spec.Measure, 0
	ops := int64(math.Ceil(spec.TargetOpsPerSec * (spec.Warmup + spec.Measure).Seconds()))
	res, _, err = r.drive(ctx, s, spec.Workload, table, nil, run, ops)
	if err != nil {
		return nil, fmt.Errorf("%s: workload %s at %.0f ops/s on %s: %w", s.t.Name, spec.Workload, spec.TargetOpsPerSec, table, err)
	}
	return res, nil
}
