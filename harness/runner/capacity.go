package runner

import (
	"context"
	"fmt"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadspec"
	"github.com/regress-hbase/regress/harness/sut"
)

// Prepared is a target seeded and ready for capacity steps.
type Prepared struct {
	s *side
}

// Prepare cleans up what earlier runs left on t and makes sure its seed
// snapshot exists, as a paired run does before its first trial.
func (r *Runner) Prepare(ctx context.Context, t *sut.Target) (*Prepared, error) {
	s, err := r.prepare(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Prepared{s: s}, nil
}

// Step clones p's seed, runs one open-loop step of load (suite.StepSpec)
// on the clone and drops it. Nothing is stored: a step at a rate the suite
// does not run is no trial of the suite.
func (r *Runner) Step(ctx context.Context, p *Prepared, load loadspec.Spec) (res *loadgen.Result, err error) {
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
	load.Workload.Table, load.Seed = table, seedOf(timing{})
	res, _, err = r.drive(ctx, s, load, nil, timing{}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: workload %s at %.0f ops/s on %s: %w", s.t.Name, load.Name, load.TargetRate, table, err)
	}
	return res, nil
}

// Steps is capacity's StepRunner over two prepared sides (0 baseline, 1
// candidate): a step of workload w at rate ops/s runs spec(w, rate)
// (suite.StepSpec) through Step on that side.
func (r *Runner) Steps(sides [2]*Prepared, spec func(w string, rate float64) (loadspec.Spec, error)) func(ctx context.Context, side int, w string, rate float64) (*loadgen.Result, error) {
	return func(ctx context.Context, side int, w string, rate float64) (*loadgen.Result, error) {
		load, err := spec(w, rate)
		if err != nil {
			return nil, err
		}
		return r.Step(ctx, sides[side], load)
	}
}
