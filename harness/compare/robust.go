package compare

import (
	"fmt"
	"math"
	"slices"
)

// Robust pairs for a server cost. Now and then one pair's cost ratio jumps
// for a reason neither version owns: in a release A/A here (2026-12-03) one
// of workload B's ten pairs had the baseline's request threads spend 65%
// more CPU per operation for one 10 s window while every other pair lay
// within 3% (a JIT deoptimisation or a stall on one side: its JVM alone).
// The paired t carries such a pair whole: B's interval grew from about
// +-1.5% to [-15%, +7%] and the A/A ended INCONCLUSIVE. In six stored
// release runs of this VM, five had one pair of some workload's cost
// beyond six robust sds of its median (8% to 50%). So a server cost's pair
// further than outlierK robust standard deviations from the workload's
// median is left out of its row, and the row's note says which. Pulling it
// in to that bound instead (winsorizing) still doubled the interval in
// simulation: a pair five sds out weighs as much as four clean ones. A
// real change moves every pair, and the median with them: nothing of it
// is left out; and when more than maxOutlierShare of the pairs lie out,
// that is how the cost behaves, not a hiccup, and none is left out.

// outlierK is how many robust standard deviations from the median a pair's
// cost ratio may lie and still count. Five: normal pairs lie beyond it
// about once in two million, so on clean data the t is the plain one.
const outlierK = 5

// maxOutlierShare is the largest share of a row's pairs left out.
const maxOutlierShare = 0.2

// minRobustSD floors the robust standard deviation (a log ratio): the MAD of
// eight pairs can come out far below their spread by chance (seven of B's
// pairs above agreed within 0.5% but one lay 3.3% off), and allocation's
// pairs agree to 0.1% in a read-only workload, where a cut at five times
// that would cut honest variation. With it no pair within 5% of the median
// is ever left out; the hiccups seen here lay 8% to 50% off.
const minRobustSD = 0.01

// minOutlierPairs is the fewest pairs a median and a MAD are taken of.
const minOutlierPairs = 5

// dropOutliers returns the pair ratios d (and their instance blocks, when
// given) without those further than outlierK·sd from the median, sd the
// larger of 1.4826·MAD and minRobustSD, and the indices of the pairs it
// left out. It leaves out none when fewer than minOutlierPairs pairs, or
// more than maxOutlierShare of them, would be left out. d and blocks are
// not changed.
func dropOutliers(d []float64, blocks []int) (kept []float64, keptBlocks []int, out []int) {
	if len(d) < minOutlierPairs {
		return d, blocks, nil
	}
	med := median(d)
	dev := make([]float64, len(d))
	for i, x := range d {
		dev[i] = math.Abs(x - med)
	}
	lim := outlierK * max(1.4826*median(dev), minRobustSD)
	for i, x := range d {
		if dev[i] > lim {
			out = append(out, i)
			continue
		}
		kept = append(kept, x)
		if blocks != nil {
			keptBlocks = append(keptBlocks, blocks[i])
		}
	}
	if out == nil || float64(len(out)) > maxOutlierShare*float64(len(d)) {
		return d, blocks, nil
	}
	return kept, keptBlocks, out
}

// median is the median of xs (the mean of the middle two of an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// outlierNote says which pairs' ratios (log ratios, as left out) a row
// of the named metric left out.
func outlierNote(name string, pulled []float64) string {
	var s string
	for i, x := range pulled {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%+.1f%%", 100*math.Expm1(x))
	}
	pairs := "1 pair"
	if len(pulled) > 1 {
		pairs = fmt.Sprintf("%d pairs", len(pulled))
	}
	return fmt.Sprintf("%s: %s left out (ratio %s), beyond %d robust sds of the workload's median: a hiccup of one side's JVM, not a change of every pair", name, pairs, s, outlierK)
}
