// Package fault says whose fault an error is: the user's input (Usage) or a
// run that started and failed (Run), or what a finished comparison decided
// (Verdict). Packages wrap their errors with it where they know which it is;
// ExitCode is the one mapping of the kinds to exit codes, which the CLI's
// main alone calls.
package fault

import (
	"errors"
	"fmt"
)

// UsageError is bad input: flags, files, versions, a cluster that is not
// there as given. The user can fix it and try again.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// RunError is a run that started and failed: HBase, the machine or the
// harness, not the input.
type RunError struct{ Err error }

func (e *RunError) Error() string { return e.Err.Error() }
func (e *RunError) Unwrap() error { return e.Err }

// Verdict is the outcome of a finished comparison that a caller gates on.
type Verdict int

// The verdicts that fail a job.
const (
	// Regression: the candidate is slower beyond tolerance.
	Regression Verdict = iota + 1
	// Inconclusive: undecided, and the user asked to fail on that.
	Inconclusive
)

// VerdictError is a finished comparison whose verdict fails the job.
type VerdictError struct {
	Verdict Verdict
	Err     error
}

func (e *VerdictError) Error() string { return e.Err.Error() }
func (e *VerdictError) Unwrap() error { return e.Err }

// Usage marks err as bad input; nil stays nil, and an error already
// classified keeps its kind.
func Usage(err error) error {
	if err == nil || Classified(err) {
		return err
	}
	return &UsageError{Err: err}
}

// Run marks err as a failed run; nil stays nil, and an error already
// classified keeps its kind.
func Run(err error) error {
	if err == nil || Classified(err) {
		return err
	}
	return &RunError{Err: err}
}

// Usagef is Usage(fmt.Errorf(format, args...)).
func Usagef(format string, args ...any) error { return Usage(fmt.Errorf(format, args...)) }

// Classified says whether err (or an error it wraps) already says its kind.
func Classified(err error) bool {
	var ue *UsageError
	var re *RunError
	var ve *VerdictError
	return errors.As(err, &ue) || errors.As(err, &re) || errors.As(err, &ve)
}

// Exit codes, following diff(1): 0 no regression, 1 regression, 2 trouble
// with the input, 3 the run failed, 4 inconclusive when asked to fail on it.
const (
	ExitOK           = 0
	ExitRegression   = 1
	ExitUsage        = 2
	ExitRunFailed    = 3
	ExitInconclusive = 4
)

// ExitCode is the process exit code of err's kind; an unclassified error
// (cobra's unknown commands and flags) is the input's fault.
func ExitCode(err error) int {
	var ve *VerdictError
	var re *RunError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ve) && ve.Verdict == Regression:
		return ExitRegression
	case ve != nil:
		return ExitInconclusive
	case errors.As(err, &re):
		return ExitRunFailed
	}
	return ExitUsage
}
