package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/regress-hbase/regress/harness/lifecycle"
	"github.com/regress-hbase/regress/harness/probe"
)

// Instances: a suite's run.instances starts each side afresh that many
// times over a run, so the offset between two JVMs of one release (which
// no pair inside one pair of JVMs removes) becomes a level the comparison
// sees (compare's nested estimate). The initial pairs split evenly into
// blocks; pairs a later look adds run in the last. Between blocks both
// sides stop, start again from their specs (Runner.Renew), seed again and
// warm up as the first instance did; every trial records its instance.

// instanceOf is the instance block pair runs in: pair*instances/initial,
// the last for pairs past the initial ones.
func (r *Runner) instanceOf(pair int) int {
	n := r.instances()
	if n < 2 {
		return 0
	}
	return min(pair*n/r.Suite.Pairs.Initial, n-1)
}

// instances is how many instances a side gets: the suite's, or 1 when
// there is nothing to start afresh.
func (r *Runner) instances() int {
	if r.Renew == nil || r.LoadHosts != nil || r.Suite.Run.Instances < 2 || r.oneInstance {
		return 1
	}
	return r.Suite.Run.Instances
}

// pairDue says whether some workload still runs pair in this look.
func (r *Runner) pairDue(pair int, done, planned map[string]int) bool {
	for _, w := range r.Suite.Workloads {
		if pair >= done[w] && pair < planned[w] {
			return true
		}
	}
	return false
}

// renewSides starts both sides afresh as instance b: stopped, started,
// seeded and warmed up. A side whose cluster regress did not start keeps
// its one instance (Renew refuses it); the run then says so once and goes
// on with the instances it has.
func (r *Runner) renewSides(ctx context.Context, b int, sides ...*side) error {
	began := time.Now()
	r.emit(Event{Phase: "seed", Message: fmt.Sprintf("instance %d of %d: starting both sides afresh", b+1, r.instances())})
	errs := atOnce(sides, func(i int, s *side) error { return r.renewSide(ctx, i, s, b) })
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s: start instance %d: %w", sides[i].t.Name, b+1, err)
		}
	}
	if r.Suite.Run.Pin {
		if err := pinSides(sides); err != nil {
			return err
		}
	}
	if err := r.warmUp(ctx, sides...); err != nil {
		return err
	}
	r.logger().Info("instance started", "instance", b+1, "of", r.instances(), "took", time.Since(began).Round(time.Second))
	return nil
}

// renewSide replaces s's cluster by a fresh one and seeds it.
func (r *Runner) renewSide(ctx context.Context, i int, s *side, b int) error {
	t, err := r.Renew(ctx, i, s.t)
	if err != nil {
		return err
	}
	log := r.logger().With("target", t.Name)
	s.t, s.instance = t, b
	s.idle, s.counts = background{}, probe.CountSource{}
	s.mgr = lifecycle.New(t.Client, s.tag, log)
	spec, err := r.seedSpec(s)
	if err != nil {
		return err
	}
	s.seed, err = s.mgr.EnsureSeed(ctx, spec)
	return err
}

// checkRenewable keeps one instance a side, with a warning, when a side's
// cluster is one regress did not start (nothing of it to start afresh).
func (r *Runner) checkRenewable(sides ...*side) {
	if r.Suite.Run.Instances < 2 || r.Renew == nil {
		return
	}
	for _, s := range sides {
		if s.t.Stop == nil {
			r.oneInstance = true
			r.logger().Warn("run.instances asks for fresh server instances, but this side's cluster was not started by regress: one instance a side, and the offset between JVMs stays out of the interval", "target", s.t.Name, "instances", r.Suite.Run.Instances)
			return
		}
	}
}
