package capacity

// The sweep's own part of every report format (report.Section): the
// searches under the text and Markdown tables, and in HTML a
// latency-throughput curve per workload; JSON carries the Sweep itself.

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/report"
)

// capacityRule says what a good step is, for every format.
func capacityRule(sw *Sweep) string {
	var bounds []string
	if sw.SLOP50Micros > 0 {
		bounds = append(bounds, "median is within "+report.Value(sw.SLOP50Micros, "us"))
	}
	if sw.SLOP99Micros > 0 {
		bounds = append(bounds, "p99 is within "+report.Value(sw.SLOP99Micros, "us"))
	}
	return fmt.Sprintf("a step is good when the intended %s for every operation type, it achieved at least %.0f%% of its target rate and at most the allowed share of operations failed; "+
		"the capacity is the highest good rate, bisected to within %.0f%% of the first bad one; ceiling %s",
		strings.Join(bounds, " and "), 100*sw.Hold, 100*sw.Resolution, report.Value(sw.MaxOpsPerSec, "ops/s"))
}

// capacityElapsed says how long the sweep took and whether the budget ended it.
func capacityElapsed(sw *Sweep) string {
	s := fmt.Sprintf("sweep took %s of a %s budget", sw.Elapsed.Round(time.Second), sw.Budget.Round(time.Second))
	if sw.BudgetHit {
		pairs := 0
		for _, x := range sw.Searches {
			pairs = max(pairs, x.Pair+1)
		}
		s += fmt.Sprintf("; the budget ran out after %d of %d planned pairs (raise capacity.budget for more)", pairs, sw.PairsPlanned)
	}
	return s
}

// stepMark is a step in a few characters: "2000✓" or "4000✗"; confirmations are marked.
func stepMark(st Step) string {
	m := "✗"
	if st.Good {
		m = "✓"
	}
	s := fmt.Sprintf("%.0f%s", st.TargetOpsPerSec, m)
	if st.Phase == "confirm" {
		s += "(again)"
	}
	return s
}

// Text lists every search under the text table: its capacity in words and its steps.
func (sw *Sweep) Text(w io.Writer) error {
	if sw == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ncapacity searches (%s):\n", capacityElapsed(sw))
	for _, s := range sw.Searches {
		var marks []string
		for _, st := range s.Steps {
			marks = append(marks, stepMark(st))
		}
		// The workload and side are read from a stored sweep: printed as
		// the comparison's text report prints names (report.Inert).
		fmt.Fprintf(&b, "  %s pair %d %-9s %s; steps (ops/s): %s\n", report.Inert(s.Workload), s.Pair+1, report.Inert(s.Side), s.Describe(), strings.Join(marks, " "))
	}
	if len(sw.Primes) > 0 {
		var marks []string
		for _, st := range sw.Primes {
			marks = append(marks, stepMark(st))
		}
		fmt.Fprintf(&b, "  priming steps (one a side and workload, discarded): %s\n", strings.Join(marks, " "))
	}
	fmt.Fprintf(&b, "%s.\n", capacityRule(sw))
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown adds one table of searches per workload.
func (sw *Sweep) Markdown(w io.Writer) error {
	if sw == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Capacity searches\n\n%s; %s.\n\n", report.MarkdownEscape(capacityElapsed(sw)), report.MarkdownEscape(capacityRule(sw)))
	b.WriteString("| workload | pair | baseline | candidate | steps (baseline / candidate) |\n|---|---|---|---|---|\n")
	for _, w := range sw.Workloads() {
		for _, p := range sw.Capacities(w) {
			steps := func(s *Search) string {
				var marks []string
				for _, st := range s.Steps {
					marks = append(marks, stepMark(st))
				}
				return strings.Join(marks, " ")
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s / %s |\n", report.MarkdownEscape(report.Inert(w)), p[0].Pair+1, report.MarkdownEscape(p[0].Describe()), report.MarkdownEscape(p[1].Describe()),
				report.MarkdownEscape(steps(p[0])), report.MarkdownEscape(steps(p[1])))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// curvePoint is one target rate's step of one side, averaged over its searches.
type curvePoint struct {
	target, achieved, p50, p99 float64
	good                       bool
}

// curve groups a side's steps of workload w by target rate: geometric means
// of achieved rate and intended latency over the searches that ran it.
func curve(sw *Sweep, w, side string) []curvePoint {
	type acc struct {
		n, good      int
		la, l50, l99 float64
	}
	by := map[float64]*acc{}
	for _, s := range sw.Searches {
		if s.Workload != w || s.Side != side {
			continue
		}
		for _, st := range s.Steps {
			if st.AchievedOpsPerSec <= 0 || st.P50Micros <= 0 || st.P99Micros <= 0 {
				continue
			}
			a := by[st.TargetOpsPerSec]
			if a == nil {
				a = &acc{}
				by[st.TargetOpsPerSec] = a
			}
			a.n++
			if st.Good {
				a.good++
			}
			a.la += math.Log(st.AchievedOpsPerSec)
			a.l50 += math.Log(st.P50Micros)
			a.l99 += math.Log(st.P99Micros)
		}
	}
	var out []curvePoint
	for r, a := range by {
		n := float64(a.n)
		out = append(out, curvePoint{target: r, achieved: math.Exp(a.la / n), p50: math.Exp(a.l50 / n), p99: math.Exp(a.l99 / n), good: 2*a.good >= a.n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].target < out[j].target })
	return out
}

// kneeOf is a side's capacity for w: the geometric mean over searches that
// found the knee, or the lowest "at least" figure when none did.
func kneeOf(sw *Sweep, w, side string) (v float64, found bool) {
	var l float64
	var n int
	atLeast := math.Inf(1)
	for _, s := range sw.Searches {
		if s.Workload != w || s.Side != side || s.CapacityOpsPerSec <= 0 {
			continue
		}
		if s.Found {
			l += math.Log(s.CapacityOpsPerSec)
			n++
		} else {
			atLeast = math.Min(atLeast, s.CapacityOpsPerSec)
		}
	}
	if n > 0 {
		return math.Exp(l / float64(n)), true
	}
	if math.IsInf(atLeast, 1) {
		return 0, false
	}
	return atLeast, false
}

// HTML is the page's capacity section: one latency-throughput curve per
// workload and the searches' table.
func (sw *Sweep) HTML() template.HTML {
	if sw == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<h2>Capacity: latency against achieved rate</h2>`)
	fmt.Fprintf(&b, `<p class="note">x: achieved rate (ops/s, log scale); y: intended latency (log scale), p99 solid, p50 dashed; each point a target rate's steps averaged over the searches (hollow: the step failed). Vertical lines: each side's capacity (the knee); dotted when only a lower bound. The horizontal line is the SLO. %s; %s.</p>`,
		html.EscapeString(capacityRule(sw)), html.EscapeString(capacityElapsed(sw)))
	b.WriteString(`<div class="plots">`)
	for _, w := range sw.Workloads() {
		fmt.Fprintf(&b, `<figure><figcaption>%s · capacity</figcaption>%s</figure>`, html.EscapeString(w), curveSVG(sw, w))
	}
	b.WriteString(`</div><table><thead><tr><th>workload</th><th>pair</th><th>side</th><th>capacity</th><th>steps (ops/s, ✓ good, ✗ failed)</th></tr></thead><tbody>`)
	for _, s := range sw.Searches {
		var marks []string
		for _, st := range s.Steps {
			m := stepMark(st)
			if !st.Good {
				m += " (" + st.Why + ")"
			}
			marks = append(marks, m)
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="n">%d</td><td>%s</td><td>%s</td><td style="white-space:normal">%s</td></tr>`,
			html.EscapeString(s.Workload), s.Pair+1, html.EscapeString(s.Side), html.EscapeString(s.Describe()), html.EscapeString(strings.Join(marks, " · ")))
	}
	b.WriteString(`</tbody></table>`)
	// Every text node above is escaped.
	return template.HTML(b.String())
}

// curveSVG draws both sides' p50 and p99 against the achieved rate, the knees marked.
func curveSVG(sw *Sweep, w string) string {
	const W, H, left, right, top, bottom = 580.0, 320.0, 70.0, 36.0, 28.0, 44.0
	sides := [2][]curvePoint{curve(sw, w, Sides[0]), curve(sw, w, Sides[1])}
	xmin, xmax, ymin, ymax := math.Inf(1), 0.0, math.Inf(1), math.Max(sw.SLOP99Micros, sw.SLOP50Micros)
	for _, c := range sides {
		for _, p := range c {
			xmin, xmax = math.Min(xmin, p.achieved), math.Max(xmax, p.achieved)
			ymin, ymax = math.Min(ymin, p.p50), math.Max(ymax, p.p99)
		}
	}
	for _, side := range Sides {
		if k, _ := kneeOf(sw, w, side); k > 0 {
			xmin, xmax = math.Min(xmin, k), math.Max(xmax, k)
		}
	}
	if xmax <= 0 {
		return `<p class="note">no step measured</p>`
	}
	xlo, xhi := report.Decades(xmin, xmax)
	ylo, yhi := report.Decades(ymin, ymax)
	pw, ph := W-left-right, H-top-bottom
	sx := func(x float64) float64 {
		return left + (math.Log10(math.Max(x, xlo))-math.Log10(xlo))/(math.Log10(xhi)-math.Log10(xlo))*pw
	}
	sy := func(y float64) float64 {
		return top + ph - (math.Log10(math.Max(y, ylo))-math.Log10(ylo))/(math.Log10(yhi)-math.Log10(ylo))*ph
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(w+" latency against achieved rate"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, ph)
	for _, y := range report.LogTicks(ylo, yhi) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(y), left+pw, sy(y))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, sy(y)+4, html.EscapeString(report.Value(y, "us")))
	}
	for _, x := range report.LogTicks(xlo, xhi) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, sx(x), top, sx(x), top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%.0f</text>`, sx(x), top+ph+16, x)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">achieved ops/s</text>`, left+pw/2, H-8)
	fmt.Fprintf(&b, `<text x="14" y="%.1f" text-anchor="middle" transform="rotate(-90 14 %.1f)">intended latency</text>`, top+ph/2, top+ph/2)
	// The SLO.
	for _, slo := range []struct {
		name   string
		micros float64
	}{{"p99", sw.SLOP99Micros}, {"median", sw.SLOP50Micros}} {
		if slo.micros <= 0 {
			continue
		}
		fmt.Fprintf(&b, `<line class="slo" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#cf222e" stroke-dasharray="2 3"/>`, left, sy(slo.micros), left+pw, sy(slo.micros))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#cf222e">SLO %s %s</text>`, left+pw-4, sy(slo.micros)-4, slo.name, html.EscapeString(report.Value(slo.micros, "us")))
	}
	colours := [2]string{report.ColourBaseline, report.ColourCandidate}
	for i, c := range sides {
		for _, pct := range []struct {
			dash string
			y    func(curvePoint) float64
		}{{"", func(p curvePoint) float64 { return p.p99 }}, {` stroke-dasharray="5 4"`, func(p curvePoint) float64 { return p.p50 }}} {
			if len(c) == 0 {
				continue
			}
			fmt.Fprintf(&b, `<polyline class="curve" fill="none" stroke-width="2" stroke="%s"%s points="`, colours[i], pct.dash)
			for j, p := range c {
				if j > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%.1f,%.1f", sx(p.achieved), sy(pct.y(p)))
			}
			b.WriteString(`"/>`)
			for _, p := range c {
				fill := colours[i]
				if !p.good {
					fill = "#fff"
				}
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" stroke="%s"><title>%s</title></circle>`, sx(p.achieved), sy(pct.y(p)), fill, colours[i],
					html.EscapeString(fmt.Sprintf("target %.0f ops/s: achieved %.0f, p50 %s, p99 %s", p.target, p.achieved, report.Value(p.p50, "us"), report.Value(p.p99, "us"))))
			}
		}
		if k, found := kneeOf(sw, w, Sides[i]); k > 0 {
			dash := ` stroke-dasharray="6 3"`
			label := fmt.Sprintf("knee %.0f", k)
			if !found {
				dash, label = ` stroke-dasharray="1 3"`, fmt.Sprintf("≥ %.0f", k)
			}
			fmt.Fprintf(&b, `<line class="knee" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`, sx(k), top, sx(k), top+ph, colours[i], dash)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="%s">%s</text>`, sx(k)-4, top+14+14*float64(i), colours[i], html.EscapeString(label))
		}
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="8" width="14" height="4" fill="%s"/><text x="%.1f" y="14">baseline %s</text>`, left, report.ColourBaseline, left+18, html.EscapeString(sw.Baseline))
	fmt.Fprintf(&b, `<rect x="%.1f" y="8" width="14" height="4" fill="%s"/><text x="%.1f" y="14">candidate %s</text>`, left+pw/2, report.ColourCandidate, left+pw/2+18, html.EscapeString(sw.Candidate))
	b.WriteString(`</svg>`)
	return b.String()
}
