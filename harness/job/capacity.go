package job

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// Capacity is `regress capacity`: each side's knee found by an open-loop rate
// sweep, the capacities compared.
type Capacity struct {
	Options
	Report
	Baseline, Candidate sut.Spec
	// Budget, MaxRate and Pairs override the suite's capacity section when set.
	Budget  time.Duration
	MaxRate float64
	Pairs   int
	// From names a stored sweep to compare again instead of running one.
	From string
	// Given are the flags the command line set (a stored sweep takes only
	// fromFlags; --suite given judges it by that suite, else its own).
	Given []string
	// Workloads narrows the suite's workloads (default: all of them).
	Workloads []string
}

// config turns a suite's capacity section, with the overrides, into a sweep config.
func (j *Capacity) config(s *suite.Suite) (capacity.Config, error) {
	c := *s.Capacity
	if j.Budget != 0 {
		c.Budget = j.Budget
	}
	if j.MaxRate != 0 {
		c.MaxOpsPerSec = j.MaxRate
	}
	if j.Pairs != 0 {
		c.Pairs = j.Pairs
	}
	if len(j.Workloads) > 0 {
		// s.Workloads is narrowed already; the section lists its own.
		var keep []string
		for _, w := range c.Workloads {
			if slices.Contains(s.Workloads, w) {
				keep = append(keep, w)
			}
		}
		if len(keep) == 0 {
			return capacity.Config{}, fault.Usagef("--workloads %s: suite %s's capacity section sweeps only %s", strings.Join(j.Workloads, ","), s.Name, strings.Join(c.Workloads, ", "))
		}
		c.Workloads = keep
	}
	cfg := capacity.ConfigOf(c, s.Run.MaxErrorRate)
	if err := cfg.Validate(); err != nil {
		return cfg, fault.Usagef("suite %s: %w (or fix the flags --budget, --max-rate, --pairs)", s.Name, err)
	}
	return cfg, nil
}

// Run sweeps both sides (or reads the stored sweep), stores the sweep, and
// returns the verdict as an error when it fails the job.
func (j *Capacity) Run(ctx context.Context, stdout, stderr io.Writer) error {
	outcomeOf(ctx).expect()
	if err := j.Report.CheckIn(j.Store); err != nil {
		return err
	}
	if j.From != "" {
		if len(j.Workloads) > 0 {
			return fault.Usage(errors.New("--workloads narrows a new sweep; a stored sweep (--from) is reported whole: drop one of them"))
		}
		var sweep []string
		for _, f := range j.Given {
			if !slices.Contains(fromFlags, f) {
				sweep = append(sweep, "--"+f)
			}
		}
		if len(sweep) > 0 {
			return fault.Usagef("--from reports a stored sweep as it ran: %s shape a new sweep and would be ignored; drop them, or drop --from to run a sweep with them", strings.Join(sweep, ", "))
		}
		return j.fromStored(ctx, stdout)
	}
	if j.Trials == suite.ModeDuet {
		return fault.Usage(errors.New("--trials duet: a capacity sweep runs its steps interleaved (each step finds one side's limit, which a second loaded server would move); drop --trials"))
	}
	base, cand, s, err := j.checkPair(j.Baseline, j.Candidate)
	if err != nil {
		return err
	}
	if err := narrowWorkloads(s, j.Workloads, "--workloads"); err != nil {
		return err
	}
	cfg, err := j.config(s)
	if err != nil {
		return err
	}
	se, err := j.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer se.prog.Close()
	store, log, prog := se.store, se.log, se.prog
	ctx, targets, stop, err := se.start(ctx, &j.Options, s, []sut.Spec{base, cand})
	defer stop()
	if err != nil {
		return err
	}
	sut.DistinctNames(targets[0], targets[1])
	runID := newRunID()
	// Step progress comes from the sweep below; the runner reports seeding.
	r := se.runner(ctx, &j.Options, s, runID, func(e runner.Event) {
		if e.Run == nil && e.Phase != "trial" {
			prog.Event(e)
		}
	})
	closeHosts, err := se.useLoadHosts(ctx, &j.Options, s, r, targets[0].ZK)
	defer closeHosts()
	if err != nil {
		return err
	}
	var sides [2]*runner.Prepared
	for i, t := range targets {
		if sides[i], err = r.Prepare(ctx, t); err != nil {
			return RunFailure(ctx, err)
		}
	}
	onStep := func(e capacity.Event) { prog.Message(e.String()) }
	sw, runErr := capacity.Run(ctx, cfg, capacity.Probe(r.Steps(sides, s.StepSpec)), nil, onStep)
	if sw != nil {
		sw.Baseline, sw.Candidate, sw.Suite, sw.RunID = targets[0].Name, targets[1].Name, s.Name, runID
		if p, err := capacity.Save(store, sw); err != nil {
			log.Warn("capacity sweep not stored", "err", err)
		} else {
			log.Info("capacity sweep stored", "path", p)
		}
	}
	if runErr != nil {
		return RunFailure(ctx, runErr)
	}
	prog.Close()
	return DecideCapacity(ctx, stdout, sw, capacity.Gate{Alpha: s.Compare.Alpha, Tolerance: s.Capacity.Tolerance}, j.Report)
}

// DecideCapacity compares the capacities, writes every report, prints the
// chosen one, and returns the verdict as an error when it fails the job.
func DecideCapacity(ctx context.Context, stdout io.Writer, sw *capacity.Sweep, gate capacity.Gate, rp Report) error {
	c, err := gate.Compare(sw)
	if err != nil {
		return fault.Run(err)
	}
	if err := writeReports(ctx, stdout, rp, report.Report{Comparison: c, Capacity: sw, Generated: time.Now(), Build: ReadVersion().Build(), Measured: stepTime(sw)}, false); err != nil {
		return err
	}
	return capacity.VerdictError(c, rp.FailOnInconclusive)
}

// fromFlags are the flags a stored sweep (--from) takes: where it and the
// suite are, and how to report it. Every other flag shapes a new sweep.
var fromFlags = []string{"from", "store", "scenarios", "suite", "out", "format", "fail-on-inconclusive", "wide", "quiet", "log-format"}

// fromStored compares a sweep stored by an earlier run (a file, or its run
// id in the store), with the suite's alpha and capacity tolerance.
func (j *Capacity) fromStored(ctx context.Context, stdout io.Writer) error {
	st, err := results.OpenReadOnly(j.Store)
	if err != nil {
		return fault.Usage(err)
	}
	sw, err := capacity.Load(st, j.From)
	if err != nil {
		return fault.Usage(err)
	}
	name := j.Suite
	if given := slices.Contains(j.Given, "suite"); sw.Suite != "" && !given {
		name = sw.Suite
	} else if given && sw.Suite != "" && sw.Suite != strings.TrimSuffix(filepath.Base(j.Suite), ".yaml") {
		return fault.Usagef("--suite %s: the stored sweep %s ran suite %s; it is judged by its own suite's alpha and tolerance: drop --suite", j.Suite, j.From, sw.Suite)
	}
	s, err := LoadSuite(j.Scenarios, name)
	if err != nil {
		return err
	}
	return DecideCapacity(ctx, stdout, sw, capacity.Gate{Alpha: s.Compare.Alpha, Tolerance: s.Capacity.Tolerance}, j.Report)
}

// stepTime is each workload's time in the sweep's steps (JUnit's times):
// what its searches' steps took, clone and drop included.
func stepTime(sw *capacity.Sweep) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, s := range sw.Searches {
		for _, st := range s.Steps {
			out[s.Workload] += st.Wall
		}
	}
	return out
}
