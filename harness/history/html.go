package history

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
)

// Chart geometry, in SVG user units.
const (
	chartW, chartH                    = 760, 260
	padLeft, padRight, padTop, padBot = 60, 20, 24, 70
)

// WriteHTML writes a self-contained page: the shifts found, then one chart
// per workload and metric across the releases (the ratio to the reference
// and its interval per release on a log axis, the tolerance band shaded,
// shifts marked). Inline SVG only: no scripts, nothing fetched.
func WriteHTML(w io.Writer, h *History) error {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>regress history: %s</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h2{margin-top:1.6em;font-size:1.15em}
.chart{margin:0.4em 0 1.2em 0}
svg text{font-size:11px;font-family:system-ui,sans-serif}
.note{color:#666;font-size:0.9em}
</style></head><body>
<h1>History of suite %s</h1>
<p>%d releases against reference <b>%s</b>. Each point is the geometric mean of release/reference over its pairs, with its interval (each bound one-sided at alpha %.2f); the grey band is the metric's tolerance. Shifts: E-divisive means with a permutation test at alpha %.2f (%d permutations, at least %d releases a segment), marked by a dashed red line before the first release of the new level. Generated %s.</p>
`, e(h.Suite), e(h.Suite), len(h.Releases), e(h.Reference), h.Alpha, h.Alpha, h.Permutations, h.MinSize, h.Generated.UTC().Format("2006-01-02 15:04 UTC"))
	b.WriteString("<h2>Shifts</h2>\n<ul>\n")
	n := 0
	for _, s := range h.Series {
		for _, sh := range s.Shifts {
			fmt.Fprintf(&b, "<li>%s</li>\n", e(ShiftLine(s, sh)))
			n++
		}
	}
	if n == 0 {
		b.WriteString("<li>none found</li>\n")
	}
	b.WriteString("</ul>\n")
	for _, wl := range workloadsOf(h) {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", e(wl))
		for _, s := range seriesOf(h, wl) {
			b.WriteString(`<div class="chart">`)
			chartSVG(&b, h.Reference, s)
			if s.Note != "" {
				fmt.Fprintf(&b, `<div class="note">no change-point search: %s</div>`, e(s.Note))
			}
			b.WriteString("</div>\n")
		}
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ChartSVG is one series' chart as a document of its own (an .svg file a
// page or a doc links to): each point a ratio to reference with its interval.
func ChartSVG(reference string, s Series) string {
	var b strings.Builder
	chartSVG(&b, reference, s)
	return b.String()
}

// chartSVG draws one series. Its text style is its own, so the chart reads
// the same inside a page and alone.
func chartSVG(b *strings.Builder, reference string, s Series) {
	e := html.EscapeString
	// The y domain: every interval, the tolerance band and 1, on a log scale.
	bandLo, bandHi := compare.ToleranceBand(s.Tolerance)
	lo, hi := bandLo, bandHi
	for _, p := range s.Points {
		if p.HasRatio() {
			lo, hi = math.Min(lo, p.Low), math.Max(hi, p.High)
		}
	}
	llo, lhi := math.Log(lo), math.Log(hi)
	pad := 0.08 * (lhi - llo)
	llo, lhi = llo-pad, lhi+pad
	plotW, plotH := float64(chartW-padLeft-padRight), float64(chartH-padTop-padBot)
	y := func(r float64) float64 { return padTop + plotH*(lhi-math.Log(r))/(lhi-llo) }
	n := len(s.Points)
	x := func(i int) float64 { return padLeft + plotW*(float64(i)+0.5)/float64(n) }

	worse := "higher is worse"
	if !s.HigherIsWorse {
		worse = "lower is worse"
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s %s">`,
		chartW, chartH, chartW, chartH, e(s.Workload), e(s.Metric))
	b.WriteString(`<style>text{font-size:11px;font-family:system-ui,sans-serif}</style>`)
	fmt.Fprintf(b, `<text x="%d" y="14" font-weight="bold">%s %s</text><text x="%d" y="14" fill="#666">  ratio to %s (%s, %s; tolerance %.0f%%)</text>`,
		padLeft, e(s.Workload), e(s.Metric), padLeft+8*len(s.Workload+s.Metric)+16, e(reference), e(s.Unit), worse, 100*s.Tolerance)
	// Tolerance band and the line at 1.
	fmt.Fprintf(b, `<rect x="%d" y="%.1f" width="%.0f" height="%.1f" fill="#eee"/>`, padLeft, y(bandHi), plotW, y(bandLo)-y(bandHi))
	fmt.Fprintf(b, `<line x1="%d" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#999"/>`, padLeft, padLeft+plotW, y(1), y(1))
	// Axis with ticks at round ratios inside the domain.
	fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%.0f" stroke="#333"/>`, padLeft, padLeft, padTop, padTop+plotH)
	for _, t := range spaced(ticks(math.Exp(llo), math.Exp(lhi)), y, tickGap) {
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#333"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`,
			padLeft-4, padLeft, y(t), y(t), padLeft-6, y(t)+4, tickLabel(t))
	}
	// Shifts: a dashed line between the last release of the old level and the first of the new.
	for _, sh := range s.Shifts {
		xs := x(sh.Index) - plotW/float64(n)/2
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%.0f" stroke="#c00" stroke-dasharray="4 3"/><text x="%.1f" y="%d" fill="#c00">%s</text>`,
			xs, xs, padTop, padTop+plotH, xs+3, padTop+10, e(pctChange(sh.Ratio)))
	}
	for i, p := range s.Points {
		cx := x(i)
		fmt.Fprintf(b, `<text transform="translate(%.1f,%.0f) rotate(-40)" text-anchor="end">%s</text>`, cx+3, padTop+plotH+14, e(p.Release))
		if !p.HasRatio() {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#999">n/a</text>`, cx, y(1)-6)
			continue
		}
		col := report.StatusColour(p.Status)
		fmt.Fprintf(b, `<g><title>%s: %s, %s</title>`, e(p.Release), e(ratioText(p)), e(string(p.Status)))
		if p.High > p.Low {
			fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, cx, cx, y(p.Low), y(p.High), col)
		}
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/></g>`, cx, y(p.Ratio), col)
	}
	b.WriteString("</svg>")
}

// ticks are the round ratios within [lo, hi].
func ticks(lo, hi float64) []float64 {
	var out []float64
	for _, t := range []float64{0.1, 0.2, 0.25, 0.5, 0.67, 0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.25, 1.5, 2, 3, 4, 5, 10} {
		if t >= lo && t <= hi {
			out = append(out, t)
		}
	}
	return out
}

// tickGap is the fewest pixels between two tick labels.
const tickGap = 13

// spaced keeps the ticks whose labels do not overlap: 1 first, then the
// others nearest 1 first, each only gap pixels or more (by y) from those kept.
func spaced(ts []float64, y func(float64) float64, gap float64) []float64 {
	order := slices.Clone(ts)
	slices.SortStableFunc(order, func(a, b float64) int {
		return cmp.Compare(math.Abs(math.Log(a)), math.Abs(math.Log(b)))
	})
	var kept []float64
	for _, t := range order {
		if !slices.ContainsFunc(kept, func(k float64) bool { return math.Abs(y(k)-y(t)) < gap }) {
			kept = append(kept, t)
		}
	}
	slices.Sort(kept)
	return kept
}

func tickLabel(t float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", t), "0"), ".") + "x"
}
