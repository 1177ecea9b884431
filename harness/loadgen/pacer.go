package loadgen

import (
	"math"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

// Pacer decides when each operation is due. Both methods are pure, so pacing
// is testable without a clock.
type Pacer interface {
	// Pace returns how long to wait, at elapsed since the start, before starting
	// operation number hits (0-based), and true when no more operations are due.
	// Run asks it at each operation's due time whether to stop.
	Pace(elapsed time.Duration, hits uint64) (wait time.Duration, stop bool)
	// Due returns the intended start of operation number hits, as an offset from the start.
	Due(hits uint64) time.Duration
}

// ConstantPacer schedules Rate operations per second at fixed intervals:
// operation k is due at k/Rate. A Rate of zero or less means unthrottled:
// every operation is due at once.
type ConstantPacer struct {
	Rate float64 // operations per second
}

// Due returns k/Rate; the schedule is absolute, so lateness never accumulates
// into drift and a late worker catches up back to back.
func (p ConstantPacer) Due(hits uint64) time.Duration {
	if !(p.Rate > 0) {
		return 0
	}
	d := float64(hits) * 1e9 / p.Rate
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}

// Pace returns the time left until operation hits is due, or zero when it is
// already due (or overdue: the caller then runs back to back). It never stops;
// the run's duration and operation count stop it.
func (p ConstantPacer) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	wait := p.Due(hits) - elapsed
	if wait < 0 {
		wait = 0
	}
	return wait, false
}

// sharePacer is one load host's part of a schedule: its slot k is the
// schedule's slot k*of+index.
type sharePacer struct {
	Pacer
	index, of uint64
}

func (p sharePacer) Due(k uint64) time.Duration { return p.Pacer.Due(k*p.of + p.index) }

func (p sharePacer) Pace(elapsed time.Duration, k uint64) (time.Duration, bool) {
	return p.Pacer.Pace(elapsed, k*p.of+p.index)
}

// shareOf returns host s's part of n slots: those numbered index, index+of, ...
// below n (0 stays 0, no limit).
func shareOf(n int64, s workload.Share) int64 {
	if n <= 0 || s.Of <= 1 {
		return n
	}
	return (n - int64(s.Index) + int64(s.Of) - 1) / int64(s.Of)
}
