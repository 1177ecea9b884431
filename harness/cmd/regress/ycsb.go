package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/ycsbmode"
)

func newYCSBCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ycsb",
		Short: "YCSB-compatible mode: create-table, load and run with YCSB's flags, properties and text output",
		Long: "ycsb runs YCSB's core workloads against HBase the way YCSB's hbase2 binding does, taking YCSB's " +
			"command-line flags and property names and printing YCSB's text output, so existing YCSB scripts " +
			"and result readers work unchanged. Results go to stdout; logs, warnings and -s status lines to stderr.",
	}
	cmd.AddCommand(newYCSBCreateTableCmd(), newYCSBPhaseCmd(ycsbmode.Load), newYCSBPhaseCmd(ycsbmode.Run))
	return cmd
}

func newYCSBCreateTableCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "create-table --zk HOST:PORT -p columnfamily=F [-p table=T] [-p regions=N] [-P FILE]...",
		Short: "Create YCSB's table with one column family, pre-split into equal shares of the keys",
		Long: "create-table creates the table YCSB's hbase2 binding expects (table, default usertable) with one " +
			"column family (columnfamily, required). With -p regions=N (N > 1) the table is pre-split at the N-1 " +
			"row keys that cut the recordcount rows the load phase writes into equal shares, so recordcount must " +
			"be set too (in a -P file or with -p); insertorder and zeropadding are honoured. -p compression=SNAPPY " +
			"(NONE, GZ, LZ4, ZSTD...) sets the family's compression. A table that exists already is an error.",
		DisableFlagParsing: true,
		RunE:               runYCSB(ycsbmode.Create),
	}
}

func newYCSBPhaseCmd(phase string) *cobra.Command {
	short, long := ycsbmode.PhaseHelp(phase)
	return &cobra.Command{
		Use:                phase + " --zk HOST:PORT -P FILE [-P FILE]... [-p KEY=VALUE]... [-threads N] [-target R] [-s]",
		Short:              short,
		Long:               long,
		DisableFlagParsing: true,
		RunE:               runYCSB(phase),
	}
}

// runYCSB runs a ycsb command on its raw args (ycsbmode parses YCSB's flags).
func runYCSB(phase string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := ycsbmode.Main(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), phase, args)
		if errors.Is(err, ycsbmode.ErrHelp) {
			return cmd.Help()
		}
		return err
	}
}
