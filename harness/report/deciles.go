package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// LatencyShift is one workload's operation's latency shift at each
// percentile, candidate against baseline, over paired trials: the HTML
// draws it, JSON carries it and Markdown lists it in a line. job computes
// it (compare's paired interval on the pairs' log ratios); the renderers
// show what they are given.
type LatencyShift struct {
	Workload, Op string
	// Pairs is how many pairs every quantile's figure is over.
	Pairs int
	// Alpha is the level each end of an interval is a one-sided bound at.
	Alpha float64
	// Quantiles are the deciles, then p95 and p99 where every trial holds
	// the samples for them, in increasing order.
	Quantiles []QuantileShift
}

// QuantileShift is the shift at one quantile.
type QuantileShift struct {
	// Quantile is in (0, 1): 0.1 for p10, 0.99 for p99.
	Quantile float64
	// BaselineMicros and CandidateMicros are the geometric means of each
	// side's trials' latency at the quantile.
	BaselineMicros, CandidateMicros float64
	// Ratio is exp of the mean of the pairs' log(candidate/baseline); Low
	// and High are its paired interval's ends.
	Ratio, Low, High float64
}

// quantileName is "p10", "p95", "p99.9".
func quantileName(q float64) string {
	return "p" + strconv.FormatFloat(math.Round(q*1e6)/1e4, 'f', -1, 64)
}

// shiftText is a ratio as a change: "+4.1%", "-12%", and as a factor
// from 2 up ("x4.0"), as the vote writes it.
func shiftText(r float64) string {
	switch {
	case !finite(r) || r <= 0:
		return "n/a"
	case r >= 2:
		return fmt.Sprintf("x%.1f", r)
	}
	return pctText((r-1)*100, 0)
}

// pctText is a percent change with a sign: one decimal below 10%, none
// above; step > 0 sets the decimals an axis tick of that step needs.
func pctText(v, step float64) string {
	decimals := 0
	switch {
	case step > 0:
		decimals = max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	case math.Abs(v) < 9.95:
		decimals = 1
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		return "0%"
	}
	if v > 0 {
		s = "+" + s
	}
	return s + "%"
}

// shiftHeading heads the shifts in Markdown and HTML.
const shiftHeading = "Latency shift by percentile"

// shiftLines are the Markdown's lines, one per workload and operation:
// "workloada READ shift by percentile (5 pairs): p10 +1.0%, ..., p99 +12%".
func shiftLines(shifts []LatencyShift) []string {
	var out []string
	for _, s := range shifts {
		parts := make([]string, len(s.Quantiles))
		for i, q := range s.Quantiles {
			parts[i] = quantileName(q.Quantile) + " " + shiftText(q.Ratio)
		}
		out = append(out, fmt.Sprintf("%s %s shift by percentile (%d pairs): %s", s.Workload, s.Op, s.Pairs, strings.Join(parts, ", ")))
	}
	return out
}

// shiftMarkdown is the Markdown's part: the lines, then the notes.
func shiftMarkdown(r Report) string {
	lines := shiftLines(r.Shifts)
	if len(lines) == 0 && len(r.ShiftNotes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s (candidate vs baseline, the mean of the pairs' log ratios; intervals in report.html and report.json):\n\n", shiftHeading)
	for _, l := range append(lines, r.ShiftNotes...) {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	return b.String()
}

// jsonShift is one workload's operation's shift by percentile in report.json.
type jsonShift struct {
	Workload  string          `json:"workload"`
	Op        string          `json:"op"`
	Pairs     int             `json:"pairs"`
	Alpha     jsonNumber      `json:"alpha"`
	Quantiles []jsonQuantiles `json:"quantiles"`
}

// jsonQuantiles is the shift at one quantile.
type jsonQuantiles struct {
	Quantile  float64    `json:"quantile"`
	Name      string     `json:"name"`
	Baseline  jsonNumber `json:"baseline_us"`
	Candidate jsonNumber `json:"candidate_us"`
	Ratio     jsonNumber `json:"ratio"`
	CILow     jsonNumber `json:"ci_low"`
	CIHigh    jsonNumber `json:"ci_high"`
}

// jsonShifts turns the report's shifts into their JSON form.
func jsonShifts(shifts []LatencyShift) []jsonShift {
	var out []jsonShift
	for _, s := range shifts {
		js := jsonShift{Workload: s.Workload, Op: s.Op, Pairs: s.Pairs, Alpha: num(s.Alpha), Quantiles: []jsonQuantiles{}}
		for _, q := range s.Quantiles {
			js.Quantiles = append(js.Quantiles, jsonQuantiles{Quantile: q.Quantile, Name: quantileName(q.Quantile),
				Baseline: num(q.BaselineMicros), Candidate: num(q.CandidateMicros), Ratio: num(q.Ratio), CILow: num(q.Low), CIHigh: num(q.High)})
		}
		out = append(out, js)
	}
	return out
}

// shiftsHTML is the HTML's section: a plot per workload and operation,
// then the notes (why there is none); nothing when there is neither.
func shiftsHTML(r Report) template.HTML {
	if len(r.Shifts) == 0 && len(r.ShiftNotes) == 0 {
		return ""
	}
	c := r.Comparison
	var b strings.Builder
	fmt.Fprintf(&b, "<h2 id=\"shifts\">%s</h2>\n", shiftHeading)
	if len(r.Shifts) > 0 {
		b.WriteString(`<p class="note">Per workload and operation, each trial's intended latency at every decile (p95 and p99 where every trial holds ` +
			`enough samples beyond them), candidate against baseline over the pairs: the dot is the mean of the pairs' log ratios as a change, ` +
			`the bar its paired interval (each end a one-sided bound at alpha/looks, as in the table; shown, not gated, and not corrected for the ` +
			`many percentiles). A change of the tail alone lifts the right end; one of the body lifts the whole line.</p>` + "\n")
		b.WriteString(`<div class="plots">` + "\n")
		for _, s := range r.Shifts {
			fmt.Fprintf(&b, "<figure><figcaption>%s</figcaption>%s</figure>\n",
				html.EscapeString(s.Workload+" · "+s.Op), shiftSVG(s, c.Baseline.Name, c.Candidate.Name))
		}
		b.WriteString("</div>\n")
	}
	for _, n := range r.ShiftNotes {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
	}
	// Every text node above and in the SVG is escaped.
	return template.HTML(b.String())
}

// shiftStep is the tick step of a percent axis spanning span: 1, 2 or 5
// times a power of ten that cuts it into 6 steps or fewer.
func shiftStep(span float64) float64 {
	if !(span > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(span/6)))
	for _, m := range []float64{1, 2, 5} {
		if span/(m*p) <= 6 {
			return m * p
		}
	}
	return 10 * p
}

// legendName shortens a side's name for the legend (the page's headline
// and the hover text carry it whole).
func legendName(s string) string {
	const most = 34
	if r := []rune(s); len(r) > most {
		return strings.TrimRight(string(r[:most-1]), " ") + "…"
	}
	return s
}

// shiftSVG draws one workload's operation's shift by percentile: a dot
// and an interval bar per quantile against the zero line (the baseline),
// on a linear percent axis with round ticks. 460 px wide, so two sit side
// by side in a 1024 px window.
func shiftSVG(s LatencyShift, baseName, candName string) string {
	const W, H, left, right, top, bottom = 460.0, 280.0, 58.0, 14.0, 48.0, 42.0
	pw, ph := W-left-right, H-top-bottom
	lo, hi := 0.0, 0.0
	for _, q := range s.Quantiles {
		for _, r := range []float64{q.Ratio, q.Low, q.High} {
			if finite(r) && r > 0 {
				lo, hi = math.Min(lo, (r-1)*100), math.Max(hi, (r-1)*100)
			}
		}
	}
	if hi-lo < 2 {
		mid := (hi + lo) / 2
		lo, hi = math.Min(lo, mid-1), math.Max(hi, mid+1)
	}
	step := shiftStep(hi - lo)
	lo, hi = math.Floor(lo/step-1e-9)*step, math.Ceil(hi/step+1e-9)*step
	n := max(len(s.Quantiles), 1)
	sx := func(i int) float64 { return left + (float64(i)+0.5)/float64(n)*pw }
	sy := func(pct float64) float64 { return top + ph - (pct-lo)/(hi-lo)*ph }

	var b strings.Builder
	// The font is set on the figure too, so it reads the same outside the page.
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(s.Workload+" "+s.Op+" latency shift by percentile"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, ph)
	for t := lo; t <= hi+step/2; t += step {
		if math.Abs(t) < step/2 {
			t = 0
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(t), left+pw, sy(t))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, sy(t)+4, pctText(t, step))
	}
	// The zero line is the baseline: no change.
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, left, sy(0), left+pw, sy(0), colBase)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">percentile of each trial's intended latency</text>`, left+pw/2, H-8)
	fmt.Fprintf(&b, `<text x="14" y="%.1f" text-anchor="middle" transform="rotate(-90 14 %.1f)">candidate vs baseline</text>`, top+ph/2, top+ph/2)
	for i, q := range s.Quantiles {
		x := sx(i)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, top+ph+16, quantileName(q.Quantile))
		if !finite(q.Ratio) || q.Ratio <= 0 {
			continue
		}
		tip := fmt.Sprintf("%s: %s -> %s, %s", quantileName(q.Quantile), value(q.BaselineMicros, metric.Micros), value(q.CandidateMicros, metric.Micros), shiftText(q.Ratio))
		b.WriteString(`<g><title>`)
		if finite(q.Low) && finite(q.High) && q.Low > 0 {
			tip += " [" + shiftText(q.Low) + ", " + shiftText(q.High) + "]"
			b.WriteString(html.EscapeString(tip) + `</title>`)
			y0, y1 := sy((q.Low-1)*100), sy((q.High-1)*100)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`, x, y0, x, y1, colCand)
			for _, y := range []float64{y0, y1} {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, x-6, y, x+6, y, colCand)
			}
		} else {
			b.WriteString(html.EscapeString(tip) + `</title>`)
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s" stroke="#1b1f24" stroke-width="1.2"/></g>`, x, sy((q.Ratio-1)*100), colCand)
	}
	// Legend, inside the figure above the plot: the candidate's dot, the
	// baseline's zero line and the interval's bar.
	fmt.Fprintf(&b, `<circle cx="23" cy="15" r="4.5" fill="%s" stroke="#1b1f24" stroke-width="1.2"/><text x="34" y="19">candidate %s, mean of %d pairs</text>`,
		colCand, html.EscapeString(legendName(candName)), s.Pairs)
	fmt.Fprintf(&b, `<line x1="16" y1="33" x2="30" y2="33" stroke="%s" stroke-width="2"/><text x="34" y="37">0%%: baseline %s</text>`,
		colBase, html.EscapeString(legendName(baseName)))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="26" x2="%.1f" y2="40" stroke="%s" stroke-width="3"/><text x="%.1f" y="37">interval</text>`,
		W-72, W-72, colCand, W-62)
	b.WriteString(`</svg>`)
	return b.String()
}
