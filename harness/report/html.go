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
	"github.com/regress-hbase/regress/harness/metric"
)

// The page loads nothing: styles are inline and plots are inline SVG, so it
// opens from a CI artifact or a mail attachment without network access.
// Its first screen (#glance) answers what a voter came for; the plots sit
// in grids that fill the window's width and fold to one column on a phone.
var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>regress: {{.Title}}</title>
<style>
body{font:14px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:20px;margin:0 0 8px}
h2{font-size:17px;margin:28px 0 8px}
.sub{color:#57606a;margin:0 0 16px}
.verdict{display:inline-block;padding:6px 12px;border-radius:6px;font-weight:600;margin-bottom:12px}
.v-PASS{background:#dafbe1;color:#116329}.v-REGRESSION{background:#ffebe9;color:#a40e26}
.v-INCONCLUSIVE{background:#fff8c5;color:#7d4e00}.v-DESCRIPTIVE{background:#ddf4ff;color:#0550ae}.v-INVALID{background:#eaeef2;color:#1b1f24}
.glance{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,380px);gap:8px 32px;align-items:start}
.glance ul{margin:4px 0;padding-left:20px}
.prov{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;font-size:13px}
.prov h2{font-size:14px;margin:0 0 4px}
.prov dl{margin:0;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 10px}
.prov dt{color:#57606a}.prov dd{margin:0;overflow-wrap:anywhere}
.toc{margin:16px 0;padding:6px 0;border-top:1px solid #d0d7de;border-bottom:1px solid #d0d7de}
.toc a{margin-right:14px;white-space:nowrap;display:inline-block}
@media (max-width:900px){.glance{grid-template-columns:minmax(0,1fr)}body{margin:12px}}
@media (max-width:600px){table.basis thead{display:none}table.basis tr{display:block;border-bottom:1px solid #d0d7de;padding:3px 0}
table.basis td{display:inline-block;border:0;padding:1px 8px 1px 0;white-space:normal}table.basis td:first-child{display:block;font-weight:600}}
table{border-collapse:collapse;margin:8px 0 16px}
th,td{padding:4px 10px;border-bottom:1px solid #d0d7de;text-align:left;white-space:nowrap}
table.basis{margin:4px 0 8px}table.basis td,table.basis th{padding:3px 8px}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.s-REGRESSED td{background:#fff1f0}tr.s-IMPROVED td{background:#f0fff4}
.st-REGRESSED{color:#a40e26;font-weight:600}.st-IMPROVED{color:#116329;font-weight:600}.st-INCONCLUSIVE{color:#7d4e00}
.plots,.evidence{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,440px),1fr));gap:16px;align-items:start}
.evidence{grid-template-columns:repeat(auto-fill,minmax(min(100%,560px),1fr))}
.plots.wide{grid-template-columns:repeat(auto-fill,minmax(min(100%,600px),1fr))}
.evidence figure.f-REGRESSED{border-color:#cf222e}.evidence figure.f-IMPROVED{border-color:#1a7f37}
.pair{display:flex;flex-wrap:wrap;gap:4px}.pair svg{flex:0 1 300px;min-width:0}
.note{color:#57606a}
figure{margin:0;border:1px solid #d0d7de;border-radius:6px;padding:8px;max-width:100%;min-width:0;box-sizing:border-box;overflow-x:auto}
figure svg{max-width:100%;height:auto}
figcaption .note{font-weight:400;display:block}
.scroll{max-width:100%;overflow-x:auto}
details>summary{cursor:pointer;margin:8px 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
.sub,.note,li{overflow-wrap:anywhere}
figcaption{font-weight:600;margin-bottom:4px}
svg text{font:11px sans-serif;fill:#1b1f24}
</style>
</head>
<body>
<header id="glance" class="glance">
<div class="answer">
<h1>regress: {{.Title}}</h1>
<div class="verdict v-{{.Verdict}}">{{.Glance.Verdict}}</div>
{{if .Glance.Rows}}<div class="scroll"><table class="basis">
<thead><tr><th>{{if .Descriptive}}largest changes{{else}}rests on{{end}}</th><th>baseline → candidate</th><th>change [CI]</th>{{if not .Descriptive}}<th>tolerance</th><th>status</th>{{end}}</tr></thead>
<tbody>
{{range .Glance.Rows}}<tr class="s-{{.Class}}"><td>{{.Name}}</td><td class="n">{{.Figures}}</td><td class="n">{{.Change}}</td>{{if not $.Descriptive}}<td class="n">{{.Tolerance}}</td><td class="st-{{.Class}}">{{.Status}}</td>{{end}}</tr>
{{end}}</tbody></table></div>{{end}}
{{if .Glance.After}}<ul>{{range .Glance.After}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Glance.Cause}}<p>{{.}}</p>{{end}}
{{if .Glance.Detect}}<p class="note">{{.Glance.Detect}} (<a href="#detect">by class of rows</a>)</p>{{end}}
{{if .Descriptive}}<p class="note"><strong>Every figure on this page is {{.DescriptiveNote}}:</strong> imported summaries carry no trials to test.</p>{{end}}
</div>
<aside class="prov"><h2>Provenance</h2><dl>
{{range .Glance.Provenance}}<dt>{{.Name}}</dt><dd{{if .Title}} title="{{.Title}}"{{end}}>{{if eq .Name "reproduce"}}<code>{{.Value}}</code>{{else}}{{.Value}}{{end}}</dd>
{{end}}</dl></aside>
</header>
<nav class="toc" aria-label="contents">{{range .TOC}}<a href="#{{.ID}}">{{.Text}}</a>{{end}}</nav>
{{if .Evidence}}<h2 id="gated">Gated rows: every trial, and the ratio against the tolerance</h2>
<p class="note">Left: each trial's value on a log axis, baseline (blue) and candidate (orange){{if .Paired}}, the two trials of a pair joined{{end}}. Right: the ratio's interval (each end a one-sided bound at alpha/looks) against the tolerance band (green); the gate passes a metric whose worse end stays inside the band.</p>
<div class="evidence">
{{range .Evidence}}<figure class="f-{{.Status}}"><figcaption>{{.Title}} · <span class="st-{{.Status}}">{{.Status}}</span></figcaption><div class="pair">{{.SVG}}</div></figure>
{{end}}</div>{{if .Undecided}}
<details><summary>The {{len .Undecided}} gated rows left undecided (INCONCLUSIVE)</summary>
<div class="evidence">
{{range .Undecided}}<figure class="f-{{.Status}}"><figcaption>{{.Title}} · <span class="st-{{.Status}}">{{.Status}}</span></figcaption><div class="pair">{{.SVG}}</div></figure>
{{end}}</div></details>{{end}}{{if .MoreEvidence}}
<details><summary>The other {{len .MoreEvidence}} gated rows, each within its tolerance (click to show)</summary>
<div class="evidence">
{{range .MoreEvidence}}<figure class="f-{{.Status}}"><figcaption>{{.Title}} · <span class="st-{{.Status}}">{{.Status}}</span></figcaption><div class="pair">{{.SVG}}</div></figure>
{{end}}</div></details>{{end}}{{end}}
{{.Shifts}}
{{.Capacity}}
{{if .Profiles}}<section id="profiles">{{end}}{{range .Profiles}}{{if .Open}}<h2>{{.Heading}}</h2>{{else}}<details><summary><strong>{{.Heading}}</strong>: no frame grew beyond chance (flame graphs: {{len .Graphs}})</summary>{{end}}
<p class="note">Width: the candidate's samples (or bytes); red: the frame's weight per operation grew from the baseline, blue: it shrank; hover a frame for both sides' figures. Each side's stacks, in the folded format flamegraph.pl and speedscope read:{{range .Links}} <a href="{{.Href}}">{{.Text}}</a>{{end}}.</p>
{{range .Graphs}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}</figure>
<details><summary>Frames and stacks that changed most (p: whether a CPU frame's change could be sampling noise)</summary><pre>{{.Table}}</pre></details>
{{end}}{{if not .Open}}</details>{{end}}{{end}}{{if .Profiles}}</section>{{end}}{{if .ProfileNotes}}<h2 id="profile-notes">Profile notes</h2><ul>{{range .ProfileNotes}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2 id="table">All metrics</h2>
<div class="scroll"><table>
<thead><tr><th>workload</th><th>op</th><th>metric</th><th>baseline</th><th>candidate</th><th>delta</th><th>ratio [CI]</th><th>pass bound</th><th>regr. bound</th><th>tolerance</th><th>status</th><th>p</th><th>pairs</th><th>ops/trial</th><th>gate</th></tr></thead>
<tbody>
{{range .Rows}}<tr class="s-{{.Class}}"><td>{{.Workload}}</td><td>{{.Op}}</td><td>{{.Metric}}</td><td class="n">{{.Baseline}}</td><td class="n">{{.Candidate}}</td><td class="n">{{.Delta}}</td><td>{{.Ratio}}</td><td class="n">{{.PassBound}}</td><td class="n">{{.RegressionBound}}</td><td class="n">{{.Tolerance}}</td><td class="st-{{.Class}}">{{.Status}}</td><td class="n">{{.P}}</td><td class="n">{{.Pairs}}</td><td class="n">{{.OpsPerTrial}}</td><td>{{.Gate}}</td></tr>
{{end}}</tbody>
</table></div>
<p class="note">ratio = candidate/baseline (geometric means): for latency above 1 is slower, for throughput below 1 is slower.{{if not .Descriptive}} [CI]: each end is a one-sided bound at alpha/looks; pass bound is its worse end (a gated metric passes when it is within tolerance); regr. bound is the better end at the metric's Holm level (REGRESSED when beyond tolerance); "within ±5%" is UNCHANGED, the interval leaving out no change but inside the tolerance; p is one-sided, Holm-adjusted when gated; ops/trial is the fewest operations of that type in a trial.{{end}}</p>
{{if or .HeldRate .DetectClasses .Detect}}<h2 id="detect">What the run could see, and the held rates</h2>{{end}}
{{if .HeldRate}}<ul>{{range .HeldRate}}<li class="st-{{.Status}}">{{.Line}}</li>{{end}}</ul>{{end}}
{{if .DetectClasses}}<div class="scroll"><table><thead><tr><th>metric</th><th>over several workloads</th><th>a workload's rows</th><th>least sensitive</th></tr></thead><tbody>
{{range .DetectClasses}}<tr><td>{{.Metric}}</td><td class="n">{{.Pooled}}</td><td class="n">{{.Span}}</td><td>{{.MostAt}}</td></tr>
{{end}}</tbody></table></div><p class="note">The smallest change each class of gated rows would have flagged as a regression with power 0.8, given the spread between its pairs.</p>{{end}}
{{if .Detect}}<details><summary>Every gated row's figure</summary><p class="note">{{.Detect}}</p></details>{{end}}
{{if .ServerCounts}}<h2 id="counts">Server counts</h2><p class="note">{{.ServerCountsHeading}}</p><ul>{{range .ServerCounts}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .GateNotes}}<h2 id="notes">Notes</h2><ul>{{range .GateNotes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2 id="warnings">Warnings</h2><ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Plots}}<h2 id="percentiles">Latency by percentile</h2>
<p class="note">x: percentile on a log scale of 1/(1-p), as HdrHistogram's plotter draws it; y: latency on a log scale. Blue baseline {{.BaseName}}, orange candidate {{.CandName}}. Each curve merges every trial's samples of its side, so a few slow trials lift its tail; the table compares each pair's trials and is what the verdict reads. Where the two disagree the plot says so under its title.</p>
<div class="plots wide">
{{range .Plots}}<figure><figcaption>{{.Title}}{{if .Note}}<span class="note">{{.Note}}</span>{{end}}</figcaption>{{.SVG}}</figure>
{{end}}</div>{{end}}{{if .Timelines}}
<h2 id="timelines">Latency over a trial's window, and what the servers did</h2>
<p class="note">Per workload and side, the trial with the highest one-interval p99: its intended latency by interval of its log (p99 dark, maximum grey, log scale) and, on the same time axis below, its region servers' GC pauses (as wide as they lasted), flushes, compactions, splits and regions opened, from the servers' GC logs and logs; for servers read through /jmx (a cluster regress did not start), what their beans counted between the window's edges and each collector's last collection, as the note under the figure says. Hover a mark for its time, length and log line.</p>
<div class="plots wide">
{{range .Timelines}}<figure><figcaption>{{.Title}}</figcaption>{{.SVG}}{{if .Note}}<p class="note">{{.Note}}</p>{{end}}</figure>
{{end}}</div>{{end}}
</body>
</html>
`))

type htmlRow struct {
	Class, Workload, Op, Metric, Baseline, Candidate, Delta, Ratio, PassBound, RegressionBound, Tolerance, Status, P, OpsPerTrial, Gate string
	Pairs                                                                                                                               int
}

type htmlEvidence struct {
	Title  string
	Status compare.Status
	SVG    template.HTML
}

type htmlHeld struct {
	Line   string
	Status compare.Status
}

type htmlPlot struct {
	Title, Note string
	SVG         template.HTML
}

// htmlTOC is an entry of the page's table of contents.
type htmlTOC struct{ ID, Text string }

// htmlDetect is one class of rows' detectable changes.
type htmlDetect struct{ Metric, Pooled, Span, MostAt string }

func renderHTML(w io.Writer, r Report) error {
	c := r.Comparison
	data := struct {
		Title, Generated, DescriptiveNote, BaseName, CandName string
		Verdict                                               compare.Verdict
		Descriptive                                           bool
		Glance                                                htmlGlance
		TOC                                                   []htmlTOC
		Rows                                                  []htmlRow
		Warnings                                              []string
		Plots                                                 []htmlPlot
		Timelines                                             []htmlTimeline
		Evidence, Undecided, MoreEvidence                     []htmlEvidence
		HeldRate                                              []htmlHeld
		GateNotes                                             []string
		Detect                                                string
		DetectClasses                                         []htmlDetect
		Paired                                                bool
		Capacity                                              template.HTML
		Shifts                                                template.HTML
		Profiles                                              []htmlProfile
		ProfileNotes                                          []string
		ServerCounts                                          []string
		ServerCountsHeading                                   string
	}{
		Title:   fmt.Sprintf("%s vs %s", c.Candidate.Name, c.Baseline.Name),
		Verdict: c.Verdict, Descriptive: c.Descriptive, Glance: glance(r),
		DescriptiveNote: DescriptiveNote, Warnings: c.Warnings, BaseName: c.Baseline.Name, CandName: c.Candidate.Name,
		GateNotes: noteLines(c), Detect: detectLine(c), Paired: c.Paired,
		Capacity: sectionHTML(r.Capacity), Shifts: shiftsHTML(r), ProfileNotes: profileNotes(r),
		ServerCounts: serverCountLines(c), ServerCountsHeading: serverCountsHeading,
	}
	var err error
	if data.Profiles, err = htmlProfiles(r); err != nil {
		return err
	}
	for _, h := range c.HeldRate {
		data.HeldRate = append(data.HeldRate, htmlHeld{Line: heldRateLine(h), Status: h.Status})
	}
	for _, d := range detectClasses(c) {
		h := htmlDetect{Metric: d.Metric, Pooled: "-", Span: "-", MostAt: d.MostAt}
		if d.Pooled > 0 {
			h.Pooled = fmt.Sprintf("%s%.0f%%", d.Sign, 100*d.Pooled)
		}
		if d.Least > 0 {
			h.Span = detectClass{Least: d.Least, Most: d.Most, Sign: d.Sign}.span()
		}
		data.DetectClasses = append(data.DetectClasses, h)
	}
	// The rows the verdict rests on and those left undecided first, as on
	// the first screen, then those that improved; the other gated rows
	// folded away.
	if !c.Descriptive {
		bs := verdictBasis(c)
		evidence := func(m compare.MetricResult) htmlEvidence {
			title := m.Workload + " · " + m.Op + " · " + m.Metric
			if m.GatedFor != "" {
				title += " (for " + m.GatedFor + ")"
			}
			// Both SVGs are built with every text node escaped.
			return htmlEvidence{Title: title, Status: m.Status, SVG: template.HTML(trialsSVG(m, c.Paired) + intervalSVG(m))}
		}
		for _, m := range bs.Rows {
			data.Evidence = append(data.Evidence, evidence(m))
		}
		// Under a REGRESSION the rows left undecided are many and not what
		// decided: folded, as the first screen lists them in a line.
		for _, m := range bs.Undecided {
			if c.Verdict == compare.Regression {
				data.Undecided = append(data.Undecided, evidence(m))
			} else {
				data.Evidence = append(data.Evidence, evidence(m))
			}
		}
		for _, m := range bs.Within {
			if m.Status == compare.Improved {
				data.Evidence = append(data.Evidence, evidence(m))
			} else {
				data.MoreEvidence = append(data.MoreEvidence, evidence(m))
			}
		}
		if len(data.Evidence) == 0 {
			data.Evidence, data.MoreEvidence = data.MoreEvidence, nil
		}
	}
	if !r.Generated.IsZero() {
		data.Generated = r.Generated.UTC().Format("2006-01-02 15:04 UTC")
	}
	for _, m := range c.Metrics {
		data.Rows = append(data.Rows, htmlRow{Class: string(m.Status), Workload: m.Workload, Op: m.Op, Metric: m.Metric,
			Baseline: baseValue(m), Candidate: candValue(m), Delta: delta(m), Ratio: ratio(m),
			PassBound: passBound(m), RegressionBound: regressionBound(m), Tolerance: tolerance(m), OpsPerTrial: opsPerTrial(m),
			Status: shownStatusLong(m), P: pValue(m), Pairs: m.Pairs, Gate: gate(m)})
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
		data.Plots = append(data.Plots, htmlPlot{Title: title, Note: pooledNote(d, c), SVG: template.HTML(svg)})
	}
	data.Timelines = htmlTimelines(r.Timelines)
	for _, t := range []struct {
		id, text string
		has      bool
	}{
		{"glance", "verdict", true},
		{"gated", "gated rows", len(data.Evidence) > 0},
		{"shifts", "shift by percentile", data.Shifts != ""},
		{"profiles", "profiles", len(data.Profiles) > 0},
		{"table", "all metrics", true},
		{"detect", "could see", len(data.HeldRate)+len(data.DetectClasses) > 0 || data.Detect != ""},
		{"counts", "server counts", len(data.ServerCounts) > 0},
		{"notes", "notes", len(data.GateNotes) > 0},
		{"warnings", "warnings", len(data.Warnings) > 0},
		{"percentiles", "latency by percentile", len(data.Plots) > 0},
		{"timelines", "server timelines", len(data.Timelines) > 0},
	} {
		if t.has {
			data.TOC = append(data.TOC, htmlTOC{t.id, t.text})
		}
	}
	if err := pageTmpl.Execute(w, data); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

// shownStatusLong is the full table's status: a descriptive row says it
// carries no significance, an UNCHANGED row that moved says within what.
func shownStatusLong(m compare.MetricResult) string {
	if m.Status == compare.Descriptive {
		return status(m)
	}
	return shownStatus(m)
}

// pooledNote says where the percentile plot of d, drawn from every trial's
// samples merged, disagrees with the table's rows of its workload and
// operation, which compare each pair's trials (the geometric mean of each
// trial's percentile): "p99.9 x2.2 in the merged samples, +8.3% [-10.4,
// +30.8] UNCHANGED in the table"; "" where they agree.
func pooledNote(d Distribution, c *compare.Comparison) string {
	if d.Baseline == nil || d.Candidate == nil || d.Baseline.TotalCount() == 0 || d.Candidate.TotalCount() == 0 {
		return ""
	}
	var parts []string
	for _, m := range c.Metrics {
		q := metric.Of(m.Metric).Quantile
		if m.Workload != d.Workload || m.Op != d.Op || q <= 0 || !hasCI(m) {
			continue
		}
		b, v := d.Baseline.ValueAtQuantile(100*q), d.Candidate.ValueAtQuantile(100*q)
		if b <= 0 || v <= 0 {
			continue
		}
		if pr := float64(v) / float64(b); pr < m.CILow || pr > m.CIHigh {
			ch, iv := changeCell(m)
			parts = append(parts, fmt.Sprintf("%s %s in the merged samples, %s %s %s in the table", m.Metric, voteRatio(pr), ch, iv, shownStatus(m)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Differs from the table (trial by trial, what the verdict reads): " + strings.Join(parts, "; ") + "."
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
	ymin, ymax := math.Inf(1), 0.0
	for _, p := range append(append([]plotPoint{}, base...), cand...) {
		ymax = math.Max(ymax, p.y)
		if p.y > 0 {
			ymin = math.Min(ymin, p.y)
		}
	}
	// Latency spans decades from the median to the tail: a log axis, from
	// the power of ten at or below the fastest value to the one above the slowest.
	lo, hi := decades(ymin, ymax)
	pw, ph := W-left-right, H-top-bottom
	sx := func(x float64) float64 { return left + math.Log10(x)/math.Log10(xc)*pw }
	sy := func(y float64) float64 {
		return top + ph - (math.Log10(math.Max(y, lo))-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))*ph
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(d.Workload+" "+d.Op+" latency by percentile"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, ph)
	for _, y := range logTicks(lo, hi) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(y), left+pw, sy(y))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, sy(y)+4, html.EscapeString(value(y, metric.Micros)))
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

// decades returns the powers of ten around [least, most] (1 and 10 when empty).
func decades(least, most float64) (lo, hi float64) {
	if !(least > 0) || math.IsInf(least, 0) || !(most > 0) {
		return 1, 10
	}
	lo = math.Pow(10, math.Floor(math.Log10(least)))
	hi = math.Pow(10, math.Ceil(math.Log10(most)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

// logTicks are 1, 2 and 5 times each power of ten in [lo, hi], thinned to
// the powers alone when the axis spans more than two decades.
func logTicks(lo, hi float64) []float64 {
	mult := []float64{1, 2, 5}
	if hi/lo > 100 {
		mult = []float64{1}
	}
	var out []float64
	for d := lo; d <= hi*1.0001; d *= 10 {
		for _, m := range mult {
			if v := d * m; v <= hi*1.0001 {
				out = append(out, v)
			}
		}
	}
	return out
}

// Colours shared by the evidence plots.
const (
	colBase, colCand, colPair = "#1f77b4", "#ff7f0e", "#8c959f"
	colBand                   = "#dafbe1"
)

// StatusColour is a status's colour in every plot (the comparison's and
// history's): red REGRESSED, green IMPROVED, amber INCONCLUSIVE, grey otherwise.
func StatusColour(s compare.Status) string {
	switch s {
	case compare.Regressed:
		return "#cf222e"
	case compare.Improved:
		return "#1a7f37"
	case compare.Inconclusive:
		return "#bf8700"
	}
	return "#57606a"
}

// trialsSVG draws every trial's value of one metric, baseline and candidate
// side by side per pair (joined when paired), on a log axis.
func trialsSVG(m compare.MetricResult, paired bool) string {
	const W, H, left, right, top, bottom = 300.0, 196.0, 62.0, 12.0, 30.0, 30.0
	n := max(len(m.BaselineValues), len(m.CandidateValues))
	if n == 0 {
		return ""
	}
	ymin, ymax := math.Inf(1), 0.0
	for _, v := range append(append([]float64{}, m.BaselineValues...), m.CandidateValues...) {
		if v > 0 && finite(v) {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	if ymax == 0 {
		return ""
	}
	// A narrow range gets a margin so the dots do not sit on the frame.
	lo, hi := ymin/1.15, ymax*1.15
	pw, ph := W-left-right, H-top-bottom
	sx := func(i int, side float64) float64 { return left + (float64(i)+0.5+side*0.18)/float64(n)*pw }
	sy := func(v float64) float64 {
		return top + ph - (math.Log(math.Max(v, lo))-math.Log(lo))/(math.Log(hi)-math.Log(lo))*ph
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(m.Workload+" "+m.Op+" "+m.Metric+" per trial"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, ph)
	// Round values (1-2-5), never two labels closer than a line of text.
	for _, y := range roundTicks(lo, hi, ph, minTickGap, func(v float64) string { return value(v, m.Unit) }) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(y), left+pw, sy(y))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-4, sy(y)+4, html.EscapeString(value(y, m.Unit)))
	}
	items := []legendItem{{dotSwatch(colBase), "baseline"}, {dotSwatch(colCand), "candidate"}}
	if paired {
		items = append(items, legendItem{lineSwatch(colPair, "", 1.5), "a pair"})
	}
	b.WriteString(legend(left, 16, items...))
	label := "pair"
	if !paired {
		label = "trial"
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s 1-%d</text>`, left+pw/2, H-8, label, n)
	for i := 0; i < n; i++ {
		var bv, cv float64
		if i < len(m.BaselineValues) {
			bv = m.BaselineValues[i]
		}
		if i < len(m.CandidateValues) {
			cv = m.CandidateValues[i]
		}
		if paired && bv > 0 && cv > 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`, sx(i, -1), sy(bv), sx(i, 1), sy(cv), colPair)
		}
		if bv > 0 {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>baseline %s</title></circle>`, sx(i, -1), sy(bv), colBase, html.EscapeString(value(bv, m.Unit)))
		}
		if cv > 0 {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>candidate %s</title></circle>`, sx(i, 1), sy(cv), colCand, html.EscapeString(value(cv, m.Unit)))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// intervalSVG draws the ratio's interval on a log axis against the tolerance
// band (compare.ToleranceBand), with the estimate and the no-change line.
func intervalSVG(m compare.MetricResult) string {
	if !hasCI(m) {
		return ""
	}
	const W, H, left, right = 300.0, 196.0, 16.0, 16.0
	bandLo, bandHi := compare.ToleranceBand(m.Tolerance)
	lo := math.Min(math.Min(m.CILow, bandLo), m.Ratio) / 1.05
	hi := math.Max(math.Max(m.CIHigh, bandHi), m.Ratio) * 1.05
	pw := W - left - right
	sx := func(r float64) float64 { return left + (math.Log(r)-math.Log(lo))/(math.Log(hi)-math.Log(lo))*pw }
	const axisY, barY = 136.0, 96.0
	col := StatusColour(m.Status)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(m.Workload+" "+m.Op+" "+m.Metric+" ratio interval"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="46" width="%.1f" height="%.1f" fill="%s"/>`, sx(bandLo), sx(bandHi)-sx(bandLo), axisY-46, colBand)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="46" x2="%.1f" y2="%.1f" stroke="#57606a" stroke-dasharray="3,3"/>`, sx(1), sx(1), axisY)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8c959f"/>`, left, axisY, left+pw, axisY)
	// Round ratios over the whole axis, which reaches the interval's ends
	// (an interval at 2.0 is read off a tick, not past the last one).
	for _, r := range roundTicks(lo, hi, pw, 34, ratioLabel) {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8c959f"/>`, sx(r), axisY, sx(r), axisY+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, sx(r), axisY+16, html.EscapeString(ratioLabel(r)))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">candidate / baseline (log scale)</text>`, left+pw/2, axisY+30)
	b.WriteString(legend(left, 14, legendItem{rectSwatch(colBand), fmt.Sprintf("tolerance ±%.0f%% (%s-%s)", 100*m.Tolerance, ratioLabel(bandLo), ratioLabel(bandHi))}))
	b.WriteString(legend(left, 32, legendItem{lineSwatch(col, "", 5), "interval"}, legendItem{ringSwatch(col), "estimate"}, legendItem{lineSwatch("#57606a", "3,3", 1), "no change"}))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="6" stroke-linecap="round"/>`, sx(m.CILow), barY, sx(m.CIHigh), barY, col)
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#fff" stroke="%s" stroke-width="2"/>`, sx(m.Ratio), barY, col)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">ratio %s</text>`, left+pw/2, float64(barY-12), html.EscapeString(ratio(m)))
	b.WriteString(`</svg>`)
	return b.String()
}
