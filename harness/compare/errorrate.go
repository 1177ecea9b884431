package compare

import (
	"fmt"

	"github.com/regress-hbase/regress/harness/results"
)

// DefaultMaxErrorRate is the share of a trial's operations that may fail
// when Config.MaxErrorRate is 0: the suites' run.max_error_rate default.
const DefaultMaxErrorRate = 0.01

// maxErrorRate is the resolved share of operations a trial may fail.
func (r resolved) maxErrorRate() float64 {
	switch {
	case r.MaxErrorRate == 0:
		return DefaultMaxErrorRate
	case r.MaxErrorRate < 0:
		return 0
	}
	return r.MaxErrorRate
}

// failedTrial is a trial whose failed operations exceed the rate.
type failedTrial struct {
	side       string // baseline or candidate
	t          *results.Trial
	errors, of int64
}

// failedTrials lists the trials of both sides whose failed operations
// (Errors over Count, summed over the trial's operations, as the runner
// counts them) exceed limit. The runner fails a run at such a trial and
// stores none, so a stored one is a manifest edited and re-signed, or
// written by an older regress: its latencies are those of failures (or of
// the few operations that did not fail) and compare nothing.
func failedTrials(bt, ct []results.Trial, limit float64) []failedTrial {
	var out []failedTrial
	for si, side := range [][]results.Trial{bt, ct} {
		for i := range side {
			var n, failed int64
			for _, o := range side[i].Ops {
				n += o.Count
				failed += o.Errors
			}
			if n > 0 && float64(failed)/float64(n) > limit || n == 0 && failed > 0 {
				out = append(out, failedTrial{side: [2]string{"baseline", "candidate"}[si], t: &side[i], errors: failed, of: n})
			}
		}
	}
	return out
}

// failedWhy says which trials failed too many operations and what to do.
func failedWhy(failed []failedTrial, limit float64) string {
	names := make([]string, len(failed))
	for i, f := range failed {
		share := 1.0
		if f.of > 0 {
			share = float64(f.errors) / float64(f.of)
		}
		names[i] = fmt.Sprintf("%s %s pair %d (trial %s: %d of %d operations failed, %.1f%%)", f.t.Workload, f.side, f.t.Pair, f.t.ID, f.errors, f.of, 100*share)
	}
	return fmt.Sprintf("%d trial(s) failed more operations than run.max_error_rate allows (%.1f%%), so they measured failures, not the release, and are not comparable: %s; "+
		"find why the operations failed (the run's log names the first error of each kind) and run again", len(failed), 100*limit, firstFew(names))
}

// markFailed makes a comparison holding trials above the error rate
// INVALID, saying which in its warnings and Invalid: its statuses stand as
// computed, but no verdict may rest on them.
func markFailed(out *Comparison, failed []failedTrial, limit float64) {
	if len(failed) == 0 {
		return
	}
	why := failedWhy(failed, limit)
	out.Warnings = append(out.Warnings, why)
	if out.Invalid == "" {
		out.Invalid = why
	}
	out.Verdict = VerdictInvalid
}
