// Command regress compares the performance of two HBase releases and exits
// non-zero when the candidate regressed beyond tolerance.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/regress-hbase/regress/harness/fault"
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

// subcommands holds the constructors each command file registers in init.
var subcommands []func() *cobra.Command

// register adds a subcommand constructor; each command file calls it from init.
func register(f func() *cobra.Command) { subcommands = append(subcommands, f) }

// rootSetup lets the root command's own flags and RunE be installed by the
// file that implements the whole comparison job.
var rootSetup func(*cobra.Command)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "regress",
		Short:         "Release-regression harness for Apache HBase",
		Long:          "regress answers one question with evidence: is the candidate HBase slower than the baseline, beyond tolerance?",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return fault.Usage(err) })
	if rootSetup != nil {
		rootSetup(root)
	}
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	return root
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCmd().ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err))
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
