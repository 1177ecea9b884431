// Command regress compares the performance of two HBase releases and exits
// non-zero when the candidate regressed beyond tolerance.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/ycsbmode"
)

// The exit codes (fault.ExitCode maps an error's kind to them).
const (
	exitOK           = fault.ExitOK
	exitRegression   = fault.ExitRegression
	exitUsage        = fault.ExitUsage
	exitRunFailed    = fault.ExitRunFailed
	exitInconclusive = fault.ExitInconclusive
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
	// cobra adds help and completion as it executes: added here, they
	// refuse what names no command as every other command does
	// (`completion bogus` and `help bogus` printed help and exited 0).
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	refuseUnknownSubcommands(root)
	logFormat := root.PersistentFlags().String("log-format", job.DefaultLogFormat, "log lines on stderr as "+strings.Join(job.LogFormats, " or ")+" (one JSON object a line, for CI)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		running.Store(cmd)
		// Every writer of the command's stderr (three loggers, the
		// progress, the clusters' goroutines) through one lock.
		cmd.SetErr(job.OneWriter(cmd.ErrOrStderr()))
		format := *logFormat
		if f := ycsbmode.LogFormatArg(args); cmd.DisableFlagParsing && f != "" {
			format = f // regress ycsb parses its own flags
		}
		ctx, err := job.StartLog(cmd.Context(), cmd.ErrOrStderr(), format)
		cmd.SetContext(ctx)
		return err
	}
	return root
}

// newVersionCmd is `regress version`; it makes `regress --version` say the same.
func newVersionCmd(root *cobra.Command) *cobra.Command {
	v := job.ReadVersion()
	root.Version = v.Module
	// The text itself as the template (cobra's template functions are one
	// global map: a function added per root races when roots are built side
	// by side, as tests do); it holds no "{{".
	var b strings.Builder
	_ = v.Write(&b)
	root.SetVersionTemplate(strings.ReplaceAll(b.String(), "{{", "{{`{{`}}"))
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
	case c.Name() == "help": // `help X` for an X that names no command
		c.Args = func(cmd *cobra.Command, args []string) error {
			at, rest, err := cmd.Root().Find(args)
			if err != nil || at == nil {
				at, rest = cmd.Root(), args
			}
			if len(rest) == 0 {
				return nil
			}
			return unknown(at, rest)
		}
	case c.HasSubCommands() && c.Run == nil && c.RunE == nil:
		c.DisableFlagParsing = true
		c.Args = cobra.ArbitraryArgs // RunE says what is wrong with them
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
				return cmd.Help()
			}
			return unknown(cmd, args)
		}
	}
}

// stopsAtOnce marks commands that hold no cluster and write nothing after an
// interrupt: job.WatchSignals ends them job.StopGrace after the first signal.
const stopsAtOnce = "regress/stops-at-once"

// running is the command being run (set before its RunE).
var running atomic.Pointer[cobra.Command]

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	// SIGQUIT stops a command as SIGTERM does (exit 3, a stopped run), not
	// with Go's goroutine dump and exit 2, the code of bad input; SIGHUP (a
	// closed terminal or ssh session) too, not by the kernel at once, which
	// left an interrupted import's folder behind.
	signal.Notify(sigs, job.StopSignals...)
	quick := func() bool { c := running.Load(); return c == nil || c.Annotations[stopsAtOnce] != "" }
	go job.WatchSignals(sigs, cancel, quick, os.Stderr, ycsbmode.LogFormatArg(os.Args[1:]), os.Exit)
	os.Exit(execute(ctx, newRootCmd(), os.Args[1:], os.Stderr))
}

// execute runs root (its arguments args, as cobra reads them) and says
// its last words on stderr: the error, then what CI reads of a verdict
// (job.Finish: the VERDICT line last). It returns the exit code.
func execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	out := &job.Outcome{}
	err := root.ExecuteContext(job.WithOutcome(ctx, out))
	code := codeOf(err)
	format := ycsbmode.LogFormatArg(args)
	job.PrintError(stderr, format, code, err)
	job.Finish(stderr, format, code, err, out)
	return code
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

// exitCode prints err (if any) to stderr in the --log-format of the
// command line and maps it to the process exit code.
func exitCode(err error) int {
	code := codeOf(err)
	job.PrintError(os.Stderr, ycsbmode.LogFormatArg(os.Args[1:]), code, err)
	return code
}

// codeOf maps an error's kind (package fault) to the exit code.
var codeOf = fault.ExitCode
