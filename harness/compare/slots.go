package compare

import (
	"fmt"
	"math"
	"strings"
)

// A duet pair's two trials hold two places, slot 1 and slot 2 (the clone
// made first, the probes read first, the load started first:
// results.Trial.Slot). Whatever a slot is worth on this machine lands on
// the side that holds it, so the runner alternates the slots between the
// sides pair by pair. The paired ratio d_i = log(candidate_i/baseline_i)
// is then the sides' difference a plus the slot's worth b, signed by
// which side held slot 1: d_i = a + b·s_i, s_i = +1 when the candidate
// held slot 1, -1 when the baseline did. Least squares with s_i = ±1 give
// a = (mean of d where s=+1 + mean where s=-1)/2 and b = half their
// difference, and a's standard error from the two groups' pooled residual
// variance on n-2 degrees of freedom: the slot's worth estimated and taken
// out, not left in the ratio (issue 43: 2.4's candidate place was worth
// -3.5% whichever release held it). With the slots balanced and no slot
// effect it is the plain paired estimate on one degree of freedom less.

// minSlotPairs is the fewest pairs with both slot orders (and at least
// two of each) for which the slot is fitted; fewer keep the plain estimate.
const minSlotPairs = 2

// slotEstimate fits d_i = a + b·s_i (s_i ±1) and returns a's estimate and
// b, what slot 1 is worth against slot 2 on the log scale (a trial in slot
// 1 reads exp(b) times what it would in slot 2: the candidate in slot 1
// reads a+b, in slot 2 a-b), or ok false when the slots are not known
// for every pair or either order has fewer than minSlotPairs pairs.
func slotEstimate(d []float64, s []int) (e estimate, b float64, ok bool) {
	e, b, _, ok = slotFit(d, s)
	return e, b, ok
}

// slotFit is slotEstimate with b's standard error, which in this design
// equals a's (both are half the difference or the sum of two group means).
func slotFit(d []float64, s []int) (e estimate, b, bSE float64, ok bool) {
	if len(s) != len(d) {
		return e, 0, 0, false
	}
	var plus, minus []float64
	for i, x := range d {
		switch s[i] {
		case 1:
			plus = append(plus, x)
		case -1:
			minus = append(minus, x)
		default:
			return e, 0, 0, false
		}
	}
	if len(plus) < minSlotPairs || len(minus) < minSlotPairs {
		return e, 0, 0, false
	}
	mp, vp := meanVar(plus)
	mm, vm := meanVar(minus)
	np, nm := float64(len(plus)), float64(len(minus))
	df := np + nm - 2
	pooled := ((np-1)*vp + (nm-1)*vm) / df
	se := math.Sqrt(pooled / 4 * (1/np + 1/nm))
	return estimate{Mean: (mp + mm) / 2, SE: se, DF: df, N: len(d)}, (mp - mm) / 2, se, true
}

// SlotNotePrefix begins a row's note on what slot 1 was worth.
const SlotNotePrefix = "slot 1 read"

// slotNote says what slot 1 was worth when the pairs tell it apart from
// noise, given that rows rows were fitted (b beyond the reach of its
// two-sided 95% interval, Bonferroni over the rows: a run fits some
// ninety, and at 95% each about four would read a slot by chance): "slot 1 read -3.5% [-5.0%,
// -2.0%] against slot 2 (taken out of the ratio)"; "" otherwise. The
// interval printed is the same adjusted one.
func slotNote(b, se, df float64, rows int) string {
	if se <= 0 || df < 1 || rows < 1 {
		return ""
	}
	h := tQuantile(1-0.025/float64(rows), df) * se
	if math.Abs(b) <= h {
		return ""
	}
	pct := func(x float64) string { return fmt.Sprintf("%+.1f%%", (math.Exp(x)-1)*100) }
	return fmt.Sprintf("%s %s [%s, %s] against slot 2 in its pairs (taken out of the ratio)", SlotNotePrefix, pct(b), pct(b-h), pct(b+h))
}

// noteSlots adds to each row whose slots were fitted (details[i].slot set,
// rows[i] its result) the note slotNote gives over all the fitted rows.
func noteSlots(details []detail, rows []MetricResult) {
	fitted := 0
	for _, d := range details {
		if d.slot != 0 {
			fitted++
		}
	}
	for i, d := range details {
		if d.slot == 0 {
			continue
		}
		if n := slotNote(d.slot, d.slotSE, d.slotDF, fitted); n != "" {
			rows[i].Note = strings.TrimPrefix(rows[i].Note+"; "+n, "; ")
		}
	}
}
