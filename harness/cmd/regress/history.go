package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/history"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/report"
)

func newHistoryCmd() *cobra.Command {
	var j job.History
	cmd := &cobra.Command{
		Use:   "history --versions LIST|FROM..TO [--reference V] [--suite S] [--workloads W,...]",
		Short: "Measure a series of releases against one reference and find where each metric shifts",
		Long: "history keeps the reference release up and measures every other release beside it in turn, in " +
			"pairs (duet or interleaved, as the suite's run.mode or --trials says), so the machine's drift over a long sweep cancels in each ratio. It reports, per " +
			"workload and metric, the series of ratios to the reference with intervals and the releases where the " +
			"series shifts (E-divisive means with a permutation test; see docs/history.md). Trials are stored as any " +
			"run's: a release already measured against the reference with the suite is reused, so a killed sweep " +
			"resumes and a later sweep adds releases. Exit 0, or 3 when some release could not be measured.",
		Example: `  regress history --versions 2.5.10..2.6.4 --suite quick --workloads workloada,workloadc
  regress history --versions 2.6.0,2.6.2,2.6.4 --reference 2.6.0 --format csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&j.Versions, "versions", "", "releases: a list (2.6.0,2.6.2,2.6.4) or a range (2.5.10..2.6.4) of the versions regress cluster versions lists, or both")
	f.StringVar(&j.Reference, "reference", "", "the release every other is compared with, kept up during the sweep (default: the oldest)")
	f.StringSliceVar(&j.Workloads, "workloads", nil, "only these workloads of the suite (default: all), e.g. workloada,workloadc")
	f.BoolVar(&j.Fresh, "fresh", false, "measure every release again even when stored trials against the reference exist")
	f.BoolVar(&j.RestartReference, "restart-reference", false, "start the reference afresh beside every release measured (one more HBase start and seed each): a reference kept up through a long sweep ages, and its allocation per operation drifts")
	f.Var(checked(&j.Out, job.ParseOut, "string"), "out", "report directory: history.txt, .csv, .json, .html (default "+job.ReportsDir+"/history-<timestamp>)")
	j.Format = report.FormatText
	f.Var(checked(&j.Format, job.ParseHistoryFormat, "string"), "format", "report on stdout: "+history.Formats.Choices()+", in any case")
	addCommon(f, &j.Options, job.SweepSuite)
	return cmd
}

func newBisectCmd() *cobra.Command {
	var j job.Bisect
	cmd := &cobra.Command{
		Use:   "bisect --good A --bad B --workload W --metric M",
		Short: "Find the first release between two where one metric moved beyond tolerance",
		Long: "bisect keeps the good release up and compares releases between good and bad with it, halving the " +
			"range each step, until it names the first release where the metric moved beyond its tolerance in the " +
			"direction the bad release moved. Each step runs the suite's pairs (duet or interleaved) of the one workload " +
			"(adding pairs up to pairs.max while the metric is inconclusive) unless a run against the good release " +
			"is stored. An inconclusive step is never read as either side: the search steps around it and, when it " +
			"cannot, says which releases remain. Exit 0 with an answer (or when bad did not move), 4 when inconclusive.",
		Example: `  regress bisect --good 2.5.10 --bad 2.6.4 --workload workloadc --metric READ/p95 --suite quick
  regress bisect --good 2.6.0 --bad 2.6.4 --versions 2.6.0,2.6.1,2.6.2,2.6.3,2.6.4 --workload workloada --metric cpu_per_op`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&j.Good, "good", "", "a release where the metric was fine: every step is compared with it")
	f.StringVar(&j.Bad, "bad", "", "a later release where the metric had moved")
	f.StringVar(&j.Versions, "versions", "", "the releases to search, good and bad among them (default: the range good..bad of the versions regress cluster versions lists)")
	f.StringVar(&j.Workload, "workload", "", "the suite's workload the metric belongs to, e.g. workloadc")
	f.StringVar(&j.Metric, "metric", "", "OP/p50|p95|p99|p99.9|mean (e.g. READ/p95), throughput, cpu_per_op or alloc_per_op (the servers' CPU or bytes allocated per operation)")
	f.BoolVar(&j.Fresh, "fresh", false, "measure every step again even when stored trials against the good release exist")
	addCommon(f, &j.Options, job.SweepSuite)
	return cmd
}
