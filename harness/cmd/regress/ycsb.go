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
	cmd.AddCommand(newYCSBPhaseCmd(ycsbmode.Create), newYCSBPhaseCmd(ycsbmode.Load), newYCSBPhaseCmd(ycsbmode.Run))
	return cmd
}

func newYCSBPhaseCmd(phase string) *cobra.Command {
	use, short, long := ycsbmode.PhaseHelp(phase)
	return &cobra.Command{Use: use, Short: short, Long: long, DisableFlagParsing: true, RunE: runYCSB(phase)}
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
