package fault

import (
	"errors"
	"fmt"
	"testing"
)

func TestAnErrorKeepsTheKindItWasFirstGiven(t *testing.T) {
	base := errors.New("boom")
	var ue *UsageError
	var re *RunError
	if err := Run(fmt.Errorf("wrapped: %w", Usage(base))); !errors.As(err, &ue) || errors.As(err, &re) {
		t.Errorf("Run(Usage(e)) = %#v, want a usage error only", err)
	}
	if err := Usage(Run(base)); !errors.As(err, &re) || errors.As(err, &ue) {
		t.Errorf("Usage(Run(e)) = %#v, want a run error only", err)
	}
	if err := Usage(&VerdictError{Verdict: Regression, Err: base}); Classified(err) && errors.As(err, &ue) {
		t.Errorf("a verdict became a usage error: %#v", err)
	}
	if Usage(nil) != nil || Run(nil) != nil {
		t.Error("nil became an error")
	}
	if !errors.Is(Usagef("x: %w", base), base) || Classified(base) {
		t.Error("Usagef does not wrap, or a plain error counts as classified")
	}
}

func TestExitCode(t *testing.T) {
	base := errors.New("boom")
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{&VerdictError{Verdict: Regression, Err: base}, ExitRegression},
		{fmt.Errorf("wrapped: %w", &VerdictError{Verdict: Inconclusive, Err: base}), ExitInconclusive},
		{Usage(base), ExitUsage},
		{Run(base), ExitRunFailed},
		{base, ExitUsage},
	} {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
