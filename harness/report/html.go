package report

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/compare"
)

// The page loads nothing: styles are inline and plots are inline SVG, so it
// opens from a CI artifact or a mail attachment without network access.
var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>regress: {{.Title}}</title>
<style>
body{font:14px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:20px;margin:0 0 4px}
.sub{color:#57606a;margin:0 0 16px}
.verdict{display:inline-block;padding:6px 12px;border-radius:6px;font-weight:600;margin-bottom:16px}
.v-PASS{background:#dafbe1;color:#116329}.v-REGRESSION{background:#ffebe9;color:#a40e26}
.v-INCONCLUSIVE{background:#fff8c5;color:#7d4e00}.v-DESCRIPTIVE{background:#ddf4ff;color:#0550ae}
table{border-collapse:collapse;margin:8px 0 16px}
th,td{padding:4px 10px;border-bottom:1px solid #d0d7de;text-align:left;white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.s-REGRESSED td{background:#fff1f0}tr.s-IMPROVED td{background:#f0fff4}
.note{color:#57606a}
.plots{display:flex;flex-wrap:wrap;gap:16px}
figure{margin:0;border:1px solid #d0d7de;border-radius:6px;padding:8px}
figcaption{font-weight:600;margin-bottom:4px}
svg text{font:11px sans-serif;fill:#1b1f24}
</style>
</head>
<body>
<h1>regress: {{.Title}}</h1>
<p class="sub">{{.Headline}}{{if .Generated}} · generated {{.Generated}}{{end}}</p>
<div class="verdict v-{{.Verdict}}">{{.VerdictLine}}</div>
{{if .Descriptive}}<p class="note"><strong>Every figure on this page is {{.DescriptiveNote}}:</strong> imported summaries carry no trials to test.</p>{{end}}
<table>
<thead><tr><th>workload</th><th>op</th><th>metric</th><th>baseline</th><th>candidate</th><th>delta</th><th>ratio [CI]</th><th>status</th><th>p</th><th>pairs</th><th>gate</th></tr></thead>
<tbody>
{{range .Rows}}<tr class="s-{{.Class}}"><td>{{.Workload}}</td><td>{{.Op}}</td><td>{{.Metric}}</td><td class="n">{{.Baseline}}</td><td class="n">{{.Candidate}}</td><td class="n">{{.Delta}}</td><td>{{.Ratio}}</td><td>{{.Status}}</td><td class="n">{{.P}}</td><td class="n">{{.Pairs}}</td><td>{{.Gate}}</td></tr>
{{end}}</tbody>
</table>
<p class="note">ratio = candidate/baseline (geometric means): for latency above 1 is slower, for throughput below 1 is slower.{{if not .Descriptive}} [CI] is the ratio's confidence interval; "~" means no change beyond tolerance; p is one-sided, Holm-adjusted when gated.{{end}}</p>
{{if .Warnings}}<h2>Warnings</h2><ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Plots}}<h2>Latency by percentile</h2>
<p class="note">x: percentile on a log scale of 1/(1-p), as HdrHistogram's plotter draws it; y: latency. Blue baseline {{.BaseName}}, orange candidate {{.CandName}}.</p>
<div class="plots">
{{range .Plots}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
{{end}}</div>{{end}}
</body>
</html>
`))

type htmlRow struct {
	Class, Workload, Op, Metric, Baseline, Candidate, Delta, Ratio, Status, P, Gate string
	Pairs                                                                           int
}

type htmlPlot struct {
	Title string
	SVG   template.HTML
}

func renderHTML(w io.Writer, r Report) error {
	c := r.Comparison
	data := struct {
		Title, Headline, VerdictLine, Generated, DescriptiveNote, BaseName, CandName string
		Verdict                                                                      compare.Verdict
		Descriptive                                                                  bool
		Rows                                                                         []htmlRow
		Warnings                                                                     []string
		Plots                                                                        []htmlPlot
	}{
		Title:    fmt.Sprintf("%s vs %s", c.Candidate.Name, c.Baseline.Name),
		Headline: headline(c), VerdictLine: verdictLine(c), Verdict: c.Verdict, Descriptive: c.Descriptive,
		DescriptiveNote: DescriptiveNote, Warnings: c.Warnings, BaseName: c.Baseline.Name, CandName: c.Candidate.Name,
	}
	if !r.Generated.IsZero() {
		data.Generated = r.Generated.UTC().Format("2006-01-02 15:04 UTC")
	}
	for _, m := range c.Metrics {
		data.Rows = append(data.Rows, htmlRow{Class: string(m.Status), Workload: m.Workload, Op: m.Op, Metric: m.Metric,
			Baseline: value(m.Baseline, m.Unit), Candidate: value(m.Candidate, m.Unit), Delta: delta(m), Ratio: ratio(m),
			Status: status(m), P: pValue(m), Pairs: m.Pairs, Gate: gate(m)})
	}
	for _, d := range r.Distributions {
		svg := percentileSVG(d, c.Baseline.Name, c.Candidate.Name)
		if svg == "" {
			continue
		}
		title := d.Workload + " · " + d.Op
		if c.Descriptive {
			title += " (" + DescriptiveNote + ")"
		}
		// svg is built by percentileSVG with every text node escaped.
		data.Plots = append(data.Plots, htmlPlot{Title: title, SVG: template.HTML(svg)})
	}
	if err := pageTmpl.Execute(w, data); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

// plotPoint is one point of a percentile distribution: x = 1/(1-p), y in µs.
type plotPoint struct{ x, y float64 }

// percentilePoints walks the histogram the way PercentilesPrint does; the
// 100th percentile (x infinite) is placed at xCap.
func percentilePoints(h *hdrhistogram.Histogram, xCap float64) []plotPoint {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	var pts []plotPoint
	for _, b := range h.CumulativeDistributionWithTicks(hgrmTicks) {
		q := b.Quantile / 100
		x := xCap
		if q < 1 {
			x = math.Min(1/(1-q), xCap)
		}
		pts = append(pts, plotPoint{x: x, y: float64(b.ValueAt)})
	}
	return pts
}

// xCapFor is the plot's right edge: the power of ten past the sample's
// resolution (1/(1-p) cannot exceed the count), from 100 to 10^7.
func xCapFor(hs ...*hdrhistogram.Histogram) float64 {
	var n int64
	for _, h := range hs {
		if h != nil {
			n = max(n, h.TotalCount())
		}
	}
	xc := 100.0
	for xc < float64(n) && xc < 1e7 {
		xc *= 10
	}
	return xc
}

// niceStep rounds a raw axis step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// percentileLabel names a tick at x = 1/(1-p): 1 -> 0%, 10 -> 90%, 100 -> 99%...
func percentileLabel(x float64) string {
	p := (1 - 1/x) * 100
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.5f", p), "0"), ".")
	return s + "%"
}

// percentileSVG draws baseline against candidate latency by percentile.
func percentileSVG(d Distribution, baseName, candName string) string {
	const W, H, left, right, top, bottom = 580.0, 300.0, 70.0, 36.0, 28.0, 40.0
	xc := xCapFor(d.Baseline, d.Candidate)
	base, cand := percentilePoints(d.Baseline, xc), percentilePoints(d.Candidate, xc)
	if len(base) == 0 && len(cand) == 0 {
		return ""
	}
	ymax := 0.0
	for _, p := range append(append([]plotPoint{}, base...), cand...) {
		ymax = math.Max(ymax, p.y)
	}
	step := niceStep(math.Max(ymax, 1) / 5)
	ytop := math.Ceil(math.Max(ymax, 1)/step) * step
	pw, ph := W-left-right, H-top-bottom
	sx := func(x float64) float64 { return left + math.Log10(x)/math.Log10(xc)*pw }
	sy := func(y float64) float64 { return top + ph - y/ytop*ph }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(d.Workload+" "+d.Op+" latency by percentile"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, ph)
	for y := 0.0; y <= ytop+step/2; y += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(y), left+pw, sy(y))
		label := value(y, "us")
		if y == 0 {
			label = "0"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, sy(y)+4, html.EscapeString(label))
	}
	for x := 1.0; x <= xc*1.0001; x *= 10 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, sx(x), top, sx(x), top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, sx(x), top+ph+16, percentileLabel(x))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">percentile</text>`, left+pw/2, H-6)
	fmt.Fprintf(&b, `<text x="14" y="%.1f" text-anchor="middle" transform="rotate(-90 14 %.1f)">latency</text>`, top+ph/2, top+ph/2)
	line := func(pts []plotPoint, color string) {
		if len(pts) == 0 {
			return
		}
		b.WriteString(`<polyline fill="none" stroke-width="2" stroke="` + color + `" points="`)
		for i, p := range pts {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.1f,%.1f", sx(p.x), sy(p.y))
		}
		b.WriteString(`"/>`)
	}
	line(base, "#1f77b4")
	line(cand, "#ff7f0e")
	// Legend.
	fmt.Fprintf(&b, `<rect x="%.1f" y="8" width="14" height="4" fill="#1f77b4"/><text x="%.1f" y="14">baseline %s</text>`,
		left, left+18, html.EscapeString(baseName))
	fmt.Fprintf(&b, `<rect x="%.1f" y="8" width="14" height="4" fill="#ff7f0e"/><text x="%.1f" y="14">candidate %s</text>`,
		left+pw/2, left+pw/2+18, html.EscapeString(candName))
	b.WriteString(`</svg>`)
	return b.String()
}
