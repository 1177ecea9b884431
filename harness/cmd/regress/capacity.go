package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
)

func newCapacityCmd() *cobra.Command {
	var j job.Capacity
	cmd := &cobra.Command{
		Use:   "capacity --baseline V1 --candidate V2 [--suite S]",
		Short: "Find each version's capacity (the knee of an open-loop rate sweep) and compare them",
		Long: `capacity steps the open-loop target rate of each workload up (geometric steps
from capacity.start, or capacity.rates) on fresh clones, each step a short
trial, until the intended median of some operation exceeds capacity.slo_p50
(default 5ms; the p99 too when capacity.slo_p99 is set) or the achieved rate
falls below 95% of the target, then bisects between the
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
			j.SuiteGiven = cmd.Flags().Changed("suite")
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addSides(f, &j.Baseline, &j.Candidate)
	addCommon(f, &j.Options, "smoke")
	if fl := f.Lookup("suite"); fl != nil {
		fl.DefValue, fl.Usage = "capacity", "suite whose capacity: section drives the sweep (scenarios/suites/NAME.yaml) or path to a suite file"
		_ = fl.Value.Set("capacity")
	}
	f.DurationVar(&j.Budget, "budget", 0, "override capacity.budget: the wall-clock time the sweep may take (e.g. 10m)")
	f.Float64Var(&j.MaxRate, "max-rate", 0, "override capacity.max_rate: the rate ceiling in ops/s")
	f.IntVar(&j.Pairs, "pairs", 0, "override capacity.pairs: interleaved searches per side and workload")
	f.StringSliceVar(&j.Workloads, "workloads", nil, "only these workloads of the suite (default: all), e.g. workloade,workloadf")
	f.StringVar(&j.From, "from", "", "compare and report a stored sweep (<store>/capacity/<run id>.json, or its run id in --store) instead of running one")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE or DESCRIPTIVE (no knee found)")
	return cmd
}
