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
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := ycsbmode.ParseArgs(ycsbmode.Create, args)
			if errors.Is(err, ycsbmode.ErrHelp) {
				return cmd.Help()
			}
			if err != nil {
				return err
			}
			return ycsbmode.CreateTable(cmd.Context(), cmd.OutOrStdout(), a)
		},
	}
}

func newYCSBPhaseCmd(phase string) *cobra.Command {
	short := map[string]string{
		ycsbmode.Load: "YCSB's load phase: insert insertcount rows from insertstart with -threads workers",
		ycsbmode.Run:  "YCSB's run phase: operationcount operations of the workload's mix at -target ops/s",
	}[phase]
	long := map[string]string{
		ycsbmode.Load: "load inserts the rows insertstart .. insertstart+insertcount-1 (insertcount defaults to " +
			"recordcount-insertstart), one INSERT with all fields per row, as YCSB's load phase does; -target " +
			"paces it. It fails (exit 3) when any insert failed, since the data set is then incomplete.",
		ycsbmode.Run: "run performs operationcount operations of the workload's mix (stopping earlier at " +
			"maxexecutiontime seconds when set), paced open-loop to -target ops/s over all threads. " +
			"Operation errors are counted in Return=ERROR lines and warned about, as YCSB does, without failing the run.",
	}[phase]
	return &cobra.Command{
		Use:                phase + " --zk HOST:PORT -P FILE [-P FILE]... [-p KEY=VALUE]... [-threads N] [-target R] [-s]",
		Short:              short,
		Long:               long + "\n\n" + ycsbmode.FlagsHelp,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := ycsbmode.ParseArgs(phase, args)
			if errors.Is(err, ycsbmode.ErrHelp) {
				return cmd.Help()
			}
			if err != nil {
				return err
			}
			return ycsbmode.RunPhase(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), phase, a)
		},
	}
}
