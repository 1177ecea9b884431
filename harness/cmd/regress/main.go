// Command regress compares the performance of two HBase releases and exits
// non-zero when the candidate regressed beyond tolerance.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/ycsbmode"
)

// Exit codes, following diff(1): 0 no regression, 1 regression, 2 trouble with
// the input, 3 the run failed, 4 inconclusive when --fail-on-inconclusive.
const (
	exitOK           = 0
	exitRegression   = 1
	exitUsage        = 2
	exitRunFailed    = 3
	exitInconclusive = 4
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "regress",
		Short:         "Release-regression harness for Apache HBase",
		Long:          "regress answers one question with evidence: is the candidate HBase slower than the baseline, beyond tolerance?",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		return job.FlagError(c.CommandPath(), err, names)
	})
	setupMainJob(root)
	root.AddCommand(newRunCmd(), newCompareCmd(), newCapacityCmd(), newPlanCmd(), newHistoryCmd(), newBisectCmd(), newResultsCmd(),
		newImportYCSBCmd(), newYCSBCmd(), newClusterCmd(), newDoctorCmd(), newWorkerCmd(), newVersionCmd(root))
	refuseUnknownSubcommands(root)
	logFormat := root.PersistentFlags().String("log-format", "text", "log lines on stderr as "+strings.Join(job.LogFormats, " or ")+" (one JSON object a line, for CI)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		running.Store(cmd)
		format := *logFormat
		if f := ycsbmode.LogFormatArg(args); cmd.DisableFlagParsing && f != "" {
			format = f // regress ycsb parses its own flags
		}
		h, err := job.NewLogHandler(cmd.ErrOrStderr(), format)
		if err != nil {
			return err
		}
		slog.SetDefault(slog.New(h))
		cmd.SetContext(job.WithLogFormat(cmd.Context(), format))
		return nil
	}
	return root
}

// newVersionCmd is `regress version`; it makes `regress --version` say the same.
func newVersionCmd(root *cobra.Command) *cobra.Command {
	v := job.ReadVersion()
	root.Version = v.Module
	cobra.AddTemplateFunc("regressVersion", func() string { var b strings.Builder; _ = v.Write(&b); return b.String() })
	root.SetVersionTemplate("{{regressVersion}}")
	return markStopsAtOnce(&cobra.Command{Use: "version", Short: "Print regress's version, commit, Go toolchain and load-host protocol", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return v.Write(cmd.OutOrStdout()) }})
}

// refuseUnknownSubcommands makes a word no command knows a usage error
// (exit 2) that names the nearest command: at the root (whose own job takes
// no words), and in every command that only groups others (results,
// cluster, ycsb), where cobra would print the help and exit 0. A group
// parses no flags of its own, so `ycsb runn --zk X` is about runn, not --zk.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	unknown := func(cmd *cobra.Command, args []string) error {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		return job.UnknownCommand(cmd.CommandPath(), args, names)
	}
	switch {
	case !c.HasParent():
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			return unknown(cmd, args)
		}
	case c.HasSubCommands() && c.Run == nil && c.RunE == nil:
		c.DisableFlagParsing = true
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
				return cmd.Help()
			}
			return unknown(cmd, args)
		}
	}
}

// stopsAtOnce marks commands that hold no cluster and write nothing after an
// interrupt: if one has not returned stopGrace after SIGINT or SIGTERM (a
// read stuck in the kernel, say), the process exits anyway. Commands that
// started clusters get the time their teardown takes; a second signal ends
// any command at once.
const stopsAtOnce = "regress/stops-at-once"

// stopGrace is how long an interrupted stopsAtOnce command may take to return.
const stopGrace = 1500 * time.Millisecond

// running is the command being run (set before its RunE).
var running atomic.Pointer[cobra.Command]

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	// SIGQUIT stops a command as SIGTERM does (exit 3, a stopped run), not
	// with Go's goroutine dump and exit 2, the code of bad input.
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)
	go watchSignals(sigs, cancel)
	err := newRootCmd().ExecuteContext(ctx)
	os.Exit(exitCode(err))
}

// watchSignals cancels the command's context on the first signal and makes
// sure the process ends: at once on a second signal, after stopGrace for a
// command marked stopsAtOnce.
func watchSignals(sigs <-chan os.Signal, cancel context.CancelFunc) {
	s := <-sigs
	cancel()
	var deadline <-chan time.Time
	if c := running.Load(); c == nil || c.Annotations[stopsAtOnce] != "" {
		deadline = time.After(stopGrace)
	}
	select {
	case <-deadline:
		fmt.Fprintf(os.Stderr, "regress: %v: stopped before the command finished; nothing more was written\n", s)
	case s = <-sigs:
		fmt.Fprintf(os.Stderr, "regress: second %v: exiting now without cleaning up: the JVMs of clusters this run started die with it (the kernel kills them with their parent), their work dirs (regress-hbase-* in the temp dir) may be left\n", s)
	}
	os.Exit(exitRunFailed)
}

// markStopsAtOnce marks cmd (and its subcommands) as stopsAtOnce.
func markStopsAtOnce(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[stopsAtOnce] = "yes"
	for _, sub := range cmd.Commands() {
		markStopsAtOnce(sub)
	}
	return cmd
}

// exitCode prints err (if any) to stderr and maps it to the process exit code.
func exitCode(err error) int {
	if err != nil && err.Error() != "" {
		fmt.Fprintln(os.Stderr, "regress:", err)
	}
	return codeOf(err)
}

// codeOf maps an error's kind (package fault) to the exit code.
func codeOf(err error) int {
	var ve *fault.VerdictError
	var re *fault.RunError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ve) && ve.Verdict == fault.Regression:
		return exitRegression
	case ve != nil:
		return exitInconclusive
	case errors.As(err, &re):
		return exitRunFailed
	}
	// fault.UsageError, and cobra's unknown commands and flags (plain errors).
	return exitUsage
}
