package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/progress"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
)

func init() { register(newCapacityCmd) }

// capacityFlags are `regress capacity`'s own flags besides the sides and the common ones.
type capacityFlags struct {
	budget       time.Duration
	maxRate      float64
	pairs        int
	out, format  string
	failOnNoKnee bool
	// from names a stored sweep to compare again instead of running one.
	from string
}

func newCapacityCmd() *cobra.Command {
	var jf jobFlags
	var cf capacityFlags
	cmd := &cobra.Command{
		Use:   "capacity --baseline V1 --candidate V2 [--suite S]",
		Short: "Find each version's capacity (the knee of an open-loop rate sweep) and compare them",
		Long: `capacity steps the open-loop target rate of each workload up (geometric steps
from capacity.start, or capacity.rates) on fresh clones, each step a short
trial, until the intended p99 of some operation exceeds capacity.slo_p99 or
the achieved rate falls below 95% of the target, then bisects between the
last good and the first bad rate. Baseline and candidate steps interleave in
random order; the search repeats for capacity.pairs pairs, and the
capacities are compared with the paired trial-level statistics: a capacity
lower beyond capacity.tolerance is a REGRESSION (exit 1). The sweep stops at
capacity.max_rate and within capacity.budget; a search that never found the
knee reports "at least X", described, not tested.`,
		Example: `  regress capacity --baseline 2.6.1 --candidate 2.6.2
  regress capacity --baseline 2.6.1 --candidate 2.6.1 --budget 10m   # an A/A check of the sweep's noise`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCapacity(cmd, &jf, &cf)
		},
	}
	f := cmd.Flags()
	jf.addSides(f)
	jf.common.add(cmd, false)
	if fl := f.Lookup("suite"); fl != nil {
		fl.DefValue, fl.Usage = "capacity", "suite whose capacity: section drives the sweep (scenarios/suites/NAME.yaml) or path to a suite file"
		_ = fl.Value.Set("capacity")
	}
	f.DurationVar(&cf.budget, "budget", 0, "override capacity.budget: the wall-clock time the sweep may take (e.g. 10m)")
	f.Float64Var(&cf.maxRate, "max-rate", 0, "override capacity.max_rate: the rate ceiling in ops/s")
	f.IntVar(&cf.pairs, "pairs", 0, "override capacity.pairs: interleaved searches per side and workload")
	f.StringVar(&cf.from, "from", "", "compare and report a stored sweep (<store>/capacity/<run id>.json) instead of running one")
	f.BoolVar(&cf.failOnNoKnee, "fail-on-inconclusive", false, "exit 4 when the verdict is INCONCLUSIVE or DESCRIPTIVE (no knee found)")
	f.StringVar(&cf.out, "out", "", "report directory (default reports/<timestamp>)")
	f.StringVar(&cf.format, "format", "text", "report on stdout: "+strings.Join(report.Formats(), "|"))
	return cmd
}

// capacityConfig turns a suite's capacity section, with the flags' overrides, into a sweep config.
func capacityConfig(s *suite.Suite, cf *capacityFlags) (capacity.Config, error) {
	c := *s.Capacity
	if cf.budget != 0 {
		c.Budget = cf.budget
	}
	if cf.maxRate != 0 {
		c.MaxOpsPerSec = cf.maxRate
	}
	if cf.pairs != 0 {
		c.Pairs = cf.pairs
	}
	cfg := capacity.Config{Workloads: c.Workloads, StartOpsPerSec: c.StartOpsPerSec, Factor: c.Factor, Rates: c.Rates,
		MaxOpsPerSec: c.MaxOpsPerSec, SLOP99: c.SLOP99, Hold: loadgen.HoldThreshold, MaxErrorRate: s.Run.MaxErrorRate,
		Resolution: c.Resolution, StepTime: c.Warmup + c.Measure, Pairs: c.Pairs, Budget: c.Budget}
	if err := cfg.Validate(); err != nil {
		return cfg, fault.Usage(fmt.Errorf("suite %s: %w (or fix the flags --budget, --max-rate, --pairs)", s.Name, err))
	}
	return cfg, nil
}

func runCapacity(cmd *cobra.Command, jf *jobFlags, cf *capacityFlags) error {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := checkFormat(cf.format); err != nil {
		return err
	}
	if cf.from != "" {
		return fromStored(cmd, jf, cf)
	}
	base, err := newSide("baseline", jf.baseline, jf.baselineZK, jf.baseSrc, jf.baseConf, jf.baseJVM)
	if err != nil {
		return err
	}
	cand, err := newSide("candidate", jf.candidate, jf.candidateZK, jf.candSrc, jf.candConf, jf.candJVM)
	if err != nil {
		return err
	}
	s, err := loadSuite(&jf.common)
	if err != nil {
		return err
	}
	cfg, err := capacityConfig(s, cf)
	if err != nil {
		return err
	}
	store, err := results.Open(jf.common.store)
	if err != nil {
		return fault.Usage(err)
	}
	log := newLogger(stderr, jf.common.quiet)
	prog := progress.New(stderr, jf.common.quiet)
	defer prog.Close()
	ctx, died := context.WithCancelCause(ctx)
	defer died(nil)
	targets, stop, err := startTargets(ctx, log, prog, &jf.common, []runner.Side{base, cand}, died)
	defer stop()
	if err != nil {
		return err
	}
	runner.DistinctNames(targets[0], targets[1])
	runID := newRunID()
	// Step progress comes from the sweep below; the runner reports seeding.
	r := &runner.Runner{Suite: s, Store: store, RunID: runID, Reseed: jf.common.reseed, Log: log,
		OnEvent: func(e runner.Event) {
			if e.Run == nil && e.Phase != "trial" {
				prog.Event(e)
			}
		}, Env: results.CurrentEnvironment(ctx)}
	var sides [2]*runner.Prepared
	for i, t := range targets {
		if sides[i], err = r.Prepare(ctx, t); err != nil {
			return runFailure(ctx, err)
		}
	}
	probe := func(ctx context.Context, side int, w string, rate float64, _ string) (capacity.Step, error) {
		res, err := r.Step(ctx, sides[side], runner.StepSpec{Workload: w, TargetOpsPerSec: rate, Threads: s.Capacity.Threads,
			Warmup: s.Capacity.Warmup, Measure: s.Capacity.Measure})
		if err != nil {
			return capacity.Step{}, err
		}
		return capacity.StepOf(res), nil
	}
	onStep := func(e capacity.Event) {
		verdict := "ok"
		if !e.Step.Good {
			verdict = "FAILED: " + e.Step.Why
		}
		prog.Message(fmt.Sprintf("capacity %s pair %d %s %s %.0f ops/s: achieved %.0f, p99 %s (%s) [%s elapsed]", filepath.Base(e.Workload), e.Pair+1, e.Side,
			e.Step.Phase, e.Step.TargetOpsPerSec, e.Step.AchievedOpsPerSec, time.Duration(e.Step.WorstP99Micros)*time.Microsecond, verdict, e.Elapsed.Round(time.Second)))
	}
	sw, runErr := capacity.Run(ctx, cfg, probe, nil, onStep)
	if sw != nil {
		sw.Baseline, sw.Candidate, sw.Suite, sw.RunID = targets[0].Name, targets[1].Name, s.Name, runID
		p := filepath.Join(store.Root(), "capacity", runID+".json")
		if err := capacity.Save(p, sw); err != nil {
			fmt.Fprintln(stderr, "regress: warning:", err)
		} else {
			log.Info("capacity sweep stored", "path", p)
		}
	}
	if runErr != nil {
		return runFailure(ctx, runErr)
	}
	prog.Close()
	return decideCapacity(stdout, stderr, sw, compare.CapacityConfig{Alpha: s.Compare.Alpha, Tolerance: s.Capacity.Tolerance}, cf)
}

// decideCapacity compares the capacities, writes every report, prints the chosen one and maps the verdict to the exit code.
func decideCapacity(stdout, stderr io.Writer, sw *capacity.Sweep, cfg compare.CapacityConfig, cf *capacityFlags) error {
	c, err := compare.CompareCapacity(sw, cfg)
	if err != nil {
		return fault.Run(err)
	}
	rep := report.Report{Comparison: c, Capacity: sw, Generated: time.Now()}
	out := cf.out
	if out == "" {
		out = report.Timestamped("reports", time.Now())
	}
	written, err := report.WriteAll(out, rep)
	if err != nil {
		return fault.Run(err)
	}
	if err := report.Render(stdout, cf.format, rep); err != nil {
		return fault.Usage(err)
	}
	fmt.Fprintf(stderr, "reports: %s (%d files)\n", out, len(written))
	switch c.Verdict {
	case compare.Regression:
		return &fault.VerdictError{Verdict: fault.Regression, Err: fmt.Errorf("verdict REGRESSION: %s sustains less load than %s beyond tolerance", c.Candidate.Name, c.Baseline.Name)}
	case compare.VerdictInconclusive, compare.VerdictDescriptive:
		if cf.failOnNoKnee {
			return &fault.VerdictError{Verdict: fault.Inconclusive, Err: errors.New("verdict " + string(c.Verdict) + " (--fail-on-inconclusive): raise capacity.pairs or capacity.budget, or capacity.max_rate when a knee was not found")}
		}
	}
	return nil
}

// fromStored compares a sweep stored by an earlier run, with the suite's alpha and capacity tolerance.
func fromStored(cmd *cobra.Command, jf *jobFlags, cf *capacityFlags) error {
	sw, err := capacity.Load(cf.from)
	if err != nil {
		return fault.Usage(err)
	}
	if sw.Suite != "" && !cmd.Flags().Changed("suite") {
		jf.common.suiteName = sw.Suite
	}
	s, err := loadSuite(&jf.common)
	if err != nil {
		return err
	}
	return decideCapacity(cmd.OutOrStdout(), cmd.ErrOrStderr(), sw, compare.CapacityConfig{Alpha: s.Compare.Alpha, Tolerance: s.Capacity.Tolerance}, cf)
}
