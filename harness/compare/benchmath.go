package compare

// This file is compare's statistics on plain samples for any caller
// (golang.org/x/perf's benchmath is the model): the paired interval of log
// ratios, the status rule read off an interval, and the tolerance band.
// Extraction and pairing are the caller's; history and the reports call
// these rather than writing the rules again.

// PairedInterval is the paired t analysis of per-pair log ratios d (each
// log(candidate/baseline) of one pair): their mean, its standard error and
// the interval mean ± t(1-alpha, n-1)·se, each bound one-sided at alpha (a
// 1-2·alpha two-sided interval). When every pair agrees se is 0 and the
// interval is the mean. It needs len(d) >= 2.
func PairedInterval(d []float64, alpha float64) (mean, se, lo, hi float64) {
	e := pairedEstimate(d)
	lo, hi = e.interval(alpha)
	return e.Mean, e.SE, lo, hi
}

// StatusOf is the status rule: a status read off the interval [lo, hi] of a
// log ratio at the look's level, c = log(1+tolerance), worse = +1 when a
// larger value is worse (latency) and -1 when a smaller one is (throughput).
// regressed is the test's decision (Holm's for compare's gated metrics;
// BeyondTolerance of the interval for a caller that shows, not gates). The
// worse-direction bound within c is non-inferiority (NOT WORSE); UNCHANGED
// adds the better-direction bound within -c (equivalence); IMPROVED needs the
// worse-direction bound below -c.
func StatusOf(lo, hi, c, worse float64, regressed bool) Status {
	if worse < 0 {
		lo, hi = -hi, -lo
	}
	switch {
	case regressed:
		return Regressed
	case hi < -c:
		return Improved
	case lo >= -c && hi <= c:
		return Unchanged
	case hi <= c:
		return NotWorse
	default:
		return Inconclusive
	}
}

// BeyondTolerance reports whether the whole interval [lo, hi] of a log ratio
// lies beyond c = log(1+tolerance) on the worse side (worse as in StatusOf):
// the regression decision of one metric read at the interval's own level.
func BeyondTolerance(lo, hi, c, worse float64) bool {
	if worse < 0 {
		return -hi > c
	}
	return lo > c
}

// ToleranceBand is the band of ratios within tolerance, [1/(1+tolerance),
// 1+tolerance]: the interval [-c, c] of StatusOf on the ratio scale, as the
// reports draw it.
func ToleranceBand(tolerance float64) (lo, hi float64) {
	return 1 / (1 + tolerance), 1 + tolerance
}
