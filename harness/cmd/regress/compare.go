package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

func init() { register(newCompareCmd); register(newResultsCmd) }

func newCompareCmd() *cobra.Command {
	var j job.Stored
	cmd := &cobra.Command{
		Use:   "compare --baseline V1|DIR --candidate V2|DIR",
		Short: "Compare stored results (versions or labels in the store, or manifest directories)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&j.Baseline, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&j.Candidate, "candidate", "", "stored version or label, or a directory with manifest.json")
	addStore(f, &j.Store)
	f.StringVar(&j.Suite, "suite", "", "suite to compare when a target has results of several suites")
	addScenarios(f, &j.Scenarios, "directory holding suites/ (for tolerances and gates)")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE")
	return cmd
}

func newResultsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "results", Short: "Inspect the results store"}
	var store string
	list := &cobra.Command{
		Use:   "list",
		Short: "List stored results: target, suite, fingerprint, trials, last update",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := results.Open(store)
			if err != nil {
				return fault.Usage(err)
			}
			entries, err := st.List()
			if err != nil {
				return fault.Usage(err)
			}
			w := cmd.OutOrStdout()
			if len(entries) == 0 {
				fmt.Fprintf(w, "no results stored in %s\n", st.Root())
				return nil
			}
			fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6s %9s  %s\n", "TARGET", "SUITE", "FINGERPRINT", "SOURCE", "TRIALS", "SUMMARIES", "UPDATED")
			for _, e := range entries {
				fmt.Fprintf(w, "%-28s %-12s %-14s %-11s %6d %9d  %s\n", e.Target, e.Suite, shortFingerprint(e.Fingerprint), e.Source, e.Trials, e.Summaries, e.Updated.UTC().Format("2006-01-02 15:04"))
			}
			return nil
		},
	}
	addStore(list.Flags(), &store)
	cmd.AddCommand(list)
	return cmd
}

func shortFingerprint(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}
