package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

func newRunCmd() *cobra.Command {
	var j job.Run
	cmd := &cobra.Command{
		Use:   "run (--version V | --zk HOST:PORT --label NAME)",
		Short: "Run a suite on one target and store its trials (a reusable baseline)",
		Long: `run measures one target with a suite and stores every trial under the store
(` + results.DefaultRoot + `/ by default), so later comparisons can reuse it with
--reuse-baseline or 'regress compare'. With --version the provider starts
that HBase release; with --zk it runs against a cluster someone else runs,
provisions nothing, and touches only tables and snapshots named regress_*.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return j.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addCommon(f, &j.Options, job.DefaultSuite)
	addOverrides(f, &j.Overrides)
	addSide(f, &j.Side, "", true)
	return cmd
}
