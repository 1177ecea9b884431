package report

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// badge is the HTML page's verdict badge, naming the worst change a reader
// should take in at a glance ("REGRESSION: all workloads reads p50 +9.6%
// [+5.1%, +14.2%]"), and the line under it (the largest change when
// nothing regressed; "" when there is none).
func badge(c *compare.Comparison) (line, more string) {
	if c.Verdict == compare.Regression {
		var bad []compare.MetricResult
		for _, m := range c.Metrics {
			if m.Status == compare.Regressed && finite(m.Ratio) && m.Ratio > 0 {
				bad = append(bad, m)
			}
		}
		// Latency first (what users feel), then the largest.
		slices.SortStableFunc(bad, func(a, b compare.MetricResult) int {
			return cmp.Or(cmp.Compare(costRank(a), costRank(b)), cmp.Compare(math.Abs(math.Log(b.Ratio)), math.Abs(math.Log(a.Ratio))))
		})
		if len(bad) > 0 {
			line = "REGRESSION: " + change(bad[0])
			if n := len(bad) - 1; n > 0 {
				line += fmt.Sprintf(" (and %d more regressed)", n)
			}
			return line, ""
		}
		for _, h := range c.HeldRate {
			if h.Status == compare.Regressed {
				return fmt.Sprintf("REGRESSION: %s did not hold %.0f ops/s (missed in %d of %d candidate trials)", h.Workload, h.TargetOpsPerSec, h.CandidateMissed, h.CandidateTrials), ""
			}
		}
		return verdictLine(c), ""
	}
	line = verdictLine(c)
	if c.Verdict == compare.VerdictInvalid {
		return line, ""
	}
	ms := c.Metrics
	if slices.ContainsFunc(ms, func(m compare.MetricResult) bool { return m.Gated }) {
		ms = slices.DeleteFunc(slices.Clone(ms), func(m compare.MetricResult) bool { return !m.Gated })
	}
	var largest *compare.MetricResult
	for i, m := range ms {
		if finite(m.Ratio) && m.Ratio > 0 && (largest == nil || math.Abs(math.Log(m.Ratio)) > math.Abs(math.Log(largest.Ratio))) {
			largest = &ms[i]
		}
	}
	if largest != nil {
		what := "Largest change"
		if largest.Gated {
			what = "Largest change in a gated metric"
		}
		more = what + ": " + change(*largest) + ", " + status(*largest)
	}
	return line, more
}

// costRank orders latency (0) before the servers' cost and throughput (1).
func costRank(m compare.MetricResult) int {
	if metric.Of(m.Metric).Scope == metric.PerOp {
		return 0
	}
	return 1
}

// change names one metric's change: "workloada READ p99 +7.0% [+3.0%, +11.0%]".
func change(m compare.MetricResult) string {
	s := strings.Join(strings.Fields(m.Workload+" "+strings.TrimPrefix(m.Op, compare.OpAll)+" "+m.Metric), " ") + " " + voteRatio(m.Ratio)
	if hasCI(m) {
		s += fmt.Sprintf(" [%s, %s]", voteRatio(m.CILow), voteRatio(m.CIHigh))
	}
	return s
}

// maxTicks is the most ticks an axis carries: more read as a ruler.
const maxTicks = 8

// minTickGap is the least distance in px between two tick labels (11 px text).
const minTickGap = 16.0

// roundTicks are round values inside [lo, hi] on a log axis px long, no two
// closer than gap px nor more than maxTicks, with labels label tells apart: 1, 2 and 5 times a
// power of ten when at least two of them fit, else the multiples of the
// smallest 1-2-5 step (0.1 ms, 0.2 ms, 0.5 ms...) that leaves the gap.
func roundTicks(lo, hi, px, gap float64, label func(float64) string) []float64 {
	if !(lo > 0) || !(hi > lo) || !finite(hi) {
		return nil
	}
	at := func(v float64) float64 { return math.Log(v/lo) / math.Log(hi/lo) * px }
	apart := func(ts []float64) bool {
		if len(ts) > maxTicks {
			return false
		}
		for i := 1; i < len(ts); i++ {
			if at(ts[i])-at(ts[i-1]) < gap || label(ts[i]) == label(ts[i-1]) {
				return false
			}
		}
		return true
	}
	// 1-2-5 per decade, thinned to 1-5, then to the powers of ten.
	for _, mult := range [][]float64{{1, 2, 5}, {1, 5}, {1}} {
		var ts []float64
		for d := math.Pow(10, math.Floor(math.Log10(lo))); d <= hi; d *= 10 {
			for _, m := range mult {
				if v := d * m; v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
					ts = append(ts, v)
				}
			}
		}
		if len(ts) >= 2 && apart(ts) {
			return ts
		}
	}
	// A narrow range: multiples of a 1-2-5 step.
	for e := math.Floor(math.Log10(hi-lo)) - 1; e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			step := m * math.Pow(10, e)
			var ts []float64
			for k := math.Ceil(lo / step); k*step <= hi*(1+1e-9); k++ {
				ts = append(ts, k*step)
			}
			if len(ts) >= 2 && apart(ts) {
				return ts
			}
		}
	}
	return []float64{math.Sqrt(lo * hi)} // labels cannot tell two values apart: one, mid-axis
}

// legendItem is one entry of a figure's legend: its swatch (an SVG
// fragment drawn at x, y) and its text.
type legendItem struct {
	swatch func(x, y float64) string
	text   string
}

// dotSwatch, rectSwatch and lineSwatch draw a legend's swatches.
func dotSwatch(colour string) func(x, y float64) string {
	return func(x, y float64) string {
		return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>`, x+5, y-4, colour)
	}
}

// ringSwatch is the interval's estimate: a white dot ringed in colour.
func ringSwatch(colour string) func(x, y float64) string {
	return func(x, y float64) string {
		return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="4" fill="#fff" stroke="%s" stroke-width="2"/>`, x+5, y-4, colour)
	}
}

func rectSwatch(colour string) func(x, y float64) string {
	return func(x, y float64) string {
		return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="12" height="9" fill="%s"/>`, x, y-9, colour)
	}
}

func lineSwatch(colour, dash string, width float64) func(x, y float64) string {
	return func(x, y float64) string {
		d := ""
		if dash != "" {
			d = ` stroke-dasharray="` + dash + `"`
		}
		return fmt.Sprintf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"%s/>`, x, y-4, x+12, y-4, colour, width, d)
	}
}

// legend draws items in a row from x at baseline y, each text ~6 px a character.
func legend(x, y float64, items ...legendItem) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.swatch(x, y))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`, x+16, y, html.EscapeString(it.text))
		x += 16 + 6*float64(len([]rune(it.text))) + 10
	}
	return b.String()
}

// ratioLabel prints a ratio tick: "0.5", "1", "1.1", "2".
func ratioLabel(r float64) string { return fmt.Sprintf("%.3g", r) }
