package job

import (
	"fmt"
	"maps"
	"math"
	"slices"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/pairing"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// shiftQuantiles are where the shift by percentile is read: the deciles,
// then p95 and p99, each only where every trial holds the samples for it
// (compare.SamplesNeeded).
var shiftQuantiles = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99}

// unpairedShiftNote is what the reports say in place of the shift by
// percentile of an unpaired comparison.
const unpairedShiftNote = "shift by percentile not drawn: it needs paired trials, and this comparison is unpaired"

// LatencyShifts is, for the paired comparison c of bm and cm, each
// workload's operation's latency shift at every decile (and p95 and p99
// where the trials have the samples): per pair, the log ratio of the two
// trials' intended latency at the quantile, read off their interval logs,
// and compare's paired interval of their mean at c's per-look level. The
// notes say what is left out and why: an unpaired comparison has none (one
// note), a workload with fewer than two pairs or an unreadable log loses
// its plots. A descriptive comparison (imported summaries) has neither.
func LatencyShifts(store *results.Store, bm, cm *results.Manifest, c *compare.Comparison) ([]report.LatencyShift, []string) {
	if c == nil || c.Descriptive || store == nil || bm == nil || cm == nil {
		return nil, nil
	}
	if !c.Paired {
		return nil, []string{unpairedShiftNote}
	}
	if !(c.LookAlpha > 0 && c.LookAlpha < 0.5) {
		return nil, []string{fmt.Sprintf("shift by percentile not drawn: the comparison's level per look is %g, not in (0, 0.5)", c.LookAlpha)}
	}
	pairs := pairing.Match(bm.Trials, cm.Trials)
	var out []report.LatencyShift
	var notes []string
	for _, w := range slices.Sorted(maps.Keys(pairs)) {
		ps := pairs[w]
		if len(ps) < 2 {
			notes = append(notes, fmt.Sprintf("%s: shift by percentile not drawn: %d pair, and an interval needs 2 or more", w, len(ps)))
			continue
		}
		var values [][2]map[string]*hdr.Histogram
		var err error
		for _, p := range ps {
			var v [2]map[string]*hdr.Histogram
			for side, m := range []*results.Manifest{bm, cm} {
				if v[side], err = store.TrialIntended(m, *p[side]); err != nil {
					break
				}
			}
			if err != nil {
				break
			}
			values = append(values, v)
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: shift by percentile not drawn: %v", w, err))
			continue
		}
		out = append(out, shiftsOf(w, values, c.LookAlpha)...)
	}
	return out, notes
}

// shiftsOf is one workload's shifts from its pairs' histograms by
// operation ([0] baseline, [1] candidate): an operation every trial
// recorded, at each quantile every trial has the samples for.
func shiftsOf(workload string, pairs [][2]map[string]*hdr.Histogram, alpha float64) []report.LatencyShift {
	ops := map[string]bool{}
	for op := range pairs[0][0] {
		ops[op] = true
	}
	var out []report.LatencyShift
	for _, op := range slices.Sorted(maps.Keys(ops)) {
		least := int64(math.MaxInt64)
		for _, p := range pairs {
			for _, hs := range p {
				if h := hs[op]; h != nil {
					least = min(least, h.TotalCount())
				} else {
					least = 0
				}
			}
		}
		s := report.LatencyShift{Workload: workload, Op: op, Pairs: len(pairs), Alpha: alpha}
		for _, q := range shiftQuantiles {
			if least < compare.SamplesNeeded(q) {
				continue
			}
			d := make([]float64, len(pairs))
			var logBase, logCand float64
			for i, p := range pairs {
				b := float64(p[0][op].ValueAtQuantile(q * 100))
				c := float64(p[1][op].ValueAtQuantile(q * 100))
				b, c = max(b, 1), max(c, 1) // a 0 µs bucket reads as 1 µs, the histograms' lowest
				d[i] = math.Log(c / b)
				logBase += math.Log(b)
				logCand += math.Log(c)
			}
			mean, _, lo, hi := compare.PairedInterval(d, alpha)
			n := float64(len(pairs))
			s.Quantiles = append(s.Quantiles, report.QuantileShift{Quantile: q,
				BaselineMicros: math.Exp(logBase / n), CandidateMicros: math.Exp(logCand / n),
				Ratio: math.Exp(mean), Low: math.Exp(lo), High: math.Exp(hi)})
		}
		if len(s.Quantiles) > 0 {
			out = append(out, s)
		}
	}
	return out
}
