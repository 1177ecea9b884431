package main

import (
	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

func newImportYCSBCmd() *cobra.Command {
	var to ycsbfmt.ImportSpec
	cmd := &cobra.Command{
		Use:   "import-ycsb FILE... --version V --workload NAME",
		Short: "Store YCSB's own output (text or .hdr logs) as summaries for descriptive comparison",
		Long: `import-ycsb reads what YCSB printed at the end of a run — any format from 0.1.0
to 0.17, mail-quoted or not — and YCSB's HdrHistogram interval logs (.hdr, written
with hdrhistogram.fileoutput=true), and stores them as summaries of the given HBase
version. One run, one summary: each run phase in a text file becomes one summary, and
the .hdr files given with a text output (READ.hdr, UPDATE.hdr, ...) join its run; .hdr
files alone become one summary; a load phase before a run phase in one file is stored
as workload WORKLOAD-load. Summaries have no trial-level
spread, so comparisons with them are descriptive: no significance, no gate.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			to.Log = job.NewLogger(cmd.Context(), cmd.ErrOrStderr(), false)
			return ycsbfmt.Import(cmd.Context(), cmd.OutOrStdout(), args, to)
		},
	}
	f := cmd.Flags()
	f.StringVar(&to.Version, "version", "", "HBase version the YCSB output measured (required)")
	f.StringVar(&to.Label, "label", "", "store under this label instead of the version")
	f.StringVar(&to.Workload, "workload", "", "YCSB workload the output ran, e.g. workloada (required)")
	f.StringVar(&to.Suite, "suite", ycsbfmt.DefaultImportSuite, "suite name to store the summaries under")
	addStore(f, &to.Dir)
	return markStopsAtOnce(cmd)
}
