package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
)

func newPlanCmd() *cobra.Command {
	var j job.Plan
	cmd := &cobra.Command{
		Use:   "plan --baseline V1|DIR [--candidate V2|DIR] [--suite NAME]",
		Short: "From stored trials, the trial-to-trial spread of every gated metric and the pairs a run needs to decide it",
		Long: `plan reads stored trials and prints, for every metric the suite gates, how much it moves
from trial to trial and how many interleaved pairs a run needs: to PASS an unchanged candidate
with probability 0.8, and to find a regression of twice the tolerance with probability 0.8.
With --candidate it uses the pairs of both sides; with --baseline alone it takes the spread of
a pair as that of two of the baseline's trials (e.g. after ` + "`regress run --version V`" + `).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return j.Run(cmd.OutOrStdout()) },
	}
	f := cmd.Flags()
	f.StringVar(&j.Baseline, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&j.Candidate, "candidate", "", "stored candidate (optional): plan from the pairs of both sides")
	addStore(f, &j.Store)
	f.StringVar(&j.Suite, "suite", job.DefaultSuite, "suite whose gate, tolerances and pairs are planned (NAME@FINGERPRINT: its stored results of that fingerprint)")
	addScenarios(f, &j.Scenarios, "folder holding suites/ and the workload files")
	return markStopsAtOnce(cmd)
}
