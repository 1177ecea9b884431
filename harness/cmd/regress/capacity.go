package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/job"
)

func newCapacityCmd() *cobra.Command {
	var j job.Capacity
	cmd := &cobra.Command{
		Use:   "capacity --baseline V1 --candidate V2 [--suite S]",
		Short: "Find each version's capacity (the knee of an open-loop rate sweep) and compare them",
		Long:  capacity.Help(),
		Example: `  regress capacity --baseline 2.6.1 --candidate 2.6.2
  regress capacity --baseline 2.6.1 --candidate 2.6.1 --budget 10m   # an A/A check of the sweep's noise`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Flags().Visit(func(f *pflag.Flag) { j.Given = append(j.Given, f.Name) })
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addSides(f, &j.Baseline, &j.Candidate)
	addCommon(f, &j.Options, job.CapacitySuite)
	f.Lookup("suite").Usage = "suite whose capacity: section drives the sweep (scenarios/suites/NAME.yaml) or path to a suite file"
	f.DurationVar(&j.Budget, "budget", 0, "override capacity.budget: the wall-clock time the sweep may take (e.g. 10m)")
	f.Float64Var(&j.MaxRate, "max-rate", 0, "override capacity.max_rate: the rate ceiling in ops/s")
	f.IntVar(&j.Pairs, "pairs", 0, "override capacity.pairs: interleaved searches per side and workload")
	f.StringSliceVar(&j.Workloads, "workloads", nil, "only these workloads of the suite (default: all), e.g. workloade,workloadf")
	f.StringVar(&j.From, "from", "", "compare and report a stored sweep (<store>/capacity/<run id>.json, or its run id in --store) instead of running one")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE or DESCRIPTIVE (no knee found)")
	return cmd
}
