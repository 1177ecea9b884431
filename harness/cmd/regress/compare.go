package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
)

func newCompareCmd() *cobra.Command {
	var j job.CompareStored
	cmd := &cobra.Command{
		Use:   "compare --baseline V1|DIR --candidate V2|DIR",
		Short: "Compare stored results (versions or labels in the store, or manifest directories)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.Context(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&j.Baseline, "baseline", "", "stored version or label, or a directory with manifest.json")
	f.StringVar(&j.Candidate, "candidate", "", "stored version or label, or a directory with manifest.json")
	addStore(f, &j.Store)
	f.StringVar(&j.Suite, "suite", "", "suite to compare when a target has results of several: NAME, or NAME@FINGERPRINT when one was edited between runs; or a suite file's path, whose name picks the results and whose tolerances and gate judge them")
	addScenarios(f, &j.Scenarios, "folder holding suites/, for results stored without their suite (their tolerances and gates)")
	addReport(f, &j.Report, "exit 4 when the verdict is INCONCLUSIVE")
	return markStopsAtOnce(cmd)
}

func newResultsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "results", Short: "Inspect, check and prune the results store"}
	var store string
	list := &cobra.Command{
		Use:   "list",
		Short: "List stored results: target, suite, fingerprint, trials, last update; then capacity sweeps",
		Long: "list prints every usable entry of the store, then every stored capacity sweep. A damaged entry does not hide the others: " +
			"it is left out of the table and named on stderr (see `regress results check`).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.ListResults(cmd.Context(), cmd.OutOrStdout(), store)
		},
	}
	check := &cobra.Command{
		Use:   "check",
		Short: "Verify every stored entry (manifest, .hlog files and profiles) and say which are damaged and why",
		Long: "check reads every entry of the store: its manifest's checksum and schema, the directory it lies in, " +
			"every .hlog it names and every profile it holds (folded stacks, and descriptions naming a run of the entry); then every capacity sweep (its checksum); then what lies in the store that is no entry (an empty entry, a directory " +
			"whose manifest.json is gone, an interrupted removal or write, a stray file, directory or symbolic link). It holds the store's lock while " +
			"it reads, so a removal in progress is not seen half done. It prints one line per entry, good, DAMAGED or LEFTOVER with the reason, and exits 2 when " +
			"any is damaged or left over. Remove a damaged entry with `regress results remove NAME`, or restore it from a copy.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return job.CheckResults(cmd.Context(), cmd.OutOrStdout(), store)
		},
	}
	remove := &cobra.Command{
		Use:   "remove TARGET/SUITE-FINGERPRINT",
		Short: "Remove one stored entry (damaged or not), named as list or check prints it",
		Long: "remove deletes one entry of the store and everything in it, under the store's lock. It takes the name " +
			"`regress results check` prints (TARGET/SUITE-FINGERPRINT, or capacity/RUN-ID for a capacity sweep) and " +
			"refuses anything that is not an entry directory or a sweep of this store.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return job.RemoveResult(cmd.Context(), cmd.OutOrStdout(), store, args[0])
		},
	}
	for _, c := range []*cobra.Command{list, check, remove} {
		addStore(c.Flags(), &store)
	}
	cmd.AddCommand(list, check, remove)
	return markStopsAtOnce(cmd)
}
