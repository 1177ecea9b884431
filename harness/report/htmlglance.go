package report

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/metric"
)

// htmlGlance is what the page shows before anything else, on one screen:
// the verdict in the words every format uses, the rows it rests on
// (verdictBasis, as the terminal's first screen and vote.txt list them)
// with their tolerances, where the time went when something regressed,
// what the run could see, and where the figures come from.
type htmlGlance struct {
	Verdict     string
	Rows        []htmlBasisRow
	After       []string // the rows not listed, the undecided ones, the held rates among the rows
	Cause       []string
	Detect      string
	Provenance  []htmlFact
	Descriptive bool
}

// htmlBasisRow is one row the verdict rests on.
type htmlBasisRow struct {
	Name, Figures, Change, Tolerance, Status string
	Class                                    compare.Status
}

// htmlFact is one line of the provenance: what and its value, with an
// optional longer form (a whole digest) on hover.
type htmlFact struct{ Name, Value, Title string }

// glanceRows is the most rows the page's first screen lists.
const glanceRows = 14

// glance builds the page's first screen.
func glance(r Report) htmlGlance {
	c := r.Comparison
	bs := verdictBasis(c)
	g := htmlGlance{Verdict: verdictLine(c), Descriptive: c.Descriptive}
	listed := slices.Concat(bs.Rows, bs.Undecided)
	if c.Verdict == compare.Regression {
		listed = bs.Rows
	}
	shown := listed[:min(len(listed), glanceRows)]
	for _, m := range shown {
		scale, unit := rowScale(m)
		decimals := 0
		if top := math.Max(math.Abs(m.Baseline), math.Abs(m.Candidate)) / scale; finite(top) && top > 0 {
			decimals = max(0, 2-int(math.Floor(math.Log10(top))))
		}
		bf, _ := sideCell(m.Baseline, m.BaselineBelow, nil, scale, decimals)
		cf, _ := sideCell(m.Candidate, m.CandidateBelow, nil, scale, decimals)
		ch, iv := changeCell(m)
		row := htmlBasisRow{Name: rowName(m), Figures: bf + " → " + cf + " " + unit, Change: strings.TrimSpace(ch + " " + iv), Class: m.Status}
		if !c.Descriptive {
			row.Tolerance, row.Status = tolerance(m), shownStatus(m)
		}
		g.Rows = append(g.Rows, row)
	}
	for _, h := range bs.Held {
		g.After = append(g.After, heldRateLine(h))
	}
	names := func(ms []compare.MetricResult) string {
		var out []string
		for _, m := range ms {
			ch, _ := changeCell(m)
			out = append(out, rowName(m)+" "+ch)
		}
		return strings.Join(out, ", ")
	}
	if left := listed[len(shown):]; len(left) > 0 {
		g.After = append(g.After, fmt.Sprintf("and %s: %s", plural(len(left), "more row"), names(left)))
	}
	if c.Verdict == compare.Regression && len(bs.Undecided) > 0 {
		g.After = append(g.After, fmt.Sprintf("undecided (INCONCLUSIVE, gated): %s: %s", plural(len(bs.Undecided), "row"), names(bs.Undecided)))
	}
	if n := len(bs.Within); n > 0 && !c.Descriptive {
		g.After = append(g.After, fmt.Sprintf("and %s, each within its tolerance (the table below)", plural(n, "more gated row")))
	}
	if regressed(c) {
		g.Cause = causeLines(r.vote())
	}
	g.Detect = detectShort(c, 1<<10)
	g.Provenance = provenance(r)
	return g
}

// provenance says where the page's figures come from: each side's build
// and jars, the machine, JDK and Hadoop client, the suite and its pairs,
// the regress build that decided and the command that reproduces it.
func provenance(r Report) []htmlFact {
	c := r.Comparison
	v := r.vote()
	var out []htmlFact
	side := func(role string, s compare.Side, vs VoteSide) {
		f := htmlFact{Name: role, Value: s.Name}
		if b := voteSide(compare.Side{Name: s.Name}, VoteSide{Version: vs.Version, RC: vs.RC}); vs.Version != "" && b != s.Name {
			f.Value += " (HBase " + b + ")"
		}
		if d := shortDigest(vs.JarDigest); d != "" {
			f.Value += ", jars " + d
			f.Title = vs.JarDigest
		}
		out = append(out, f)
	}
	side("baseline", c.Baseline, v.Baseline)
	side("candidate", c.Candidate, v.Candidate)
	for _, f := range []htmlFact{{Name: "machine", Value: v.Machine}, {Name: "JDK", Value: v.JDK}, {Name: "Hadoop client", Value: v.Hadoop}} {
		if f.Value != "" {
			out = append(out, f)
		}
	}
	out = append(out, htmlFact{Name: "run", Value: runLine(c)})
	if b := regressBuild(v); b != "" {
		out = append(out, htmlFact{Name: "build", Value: b})
	}
	if v.Command != "" {
		out = append(out, htmlFact{Name: "reproduce", Value: v.Command})
	}
	if !r.Generated.IsZero() {
		out = append(out, htmlFact{Name: "generated", Value: r.Generated.UTC().Format("2006-01-02 15:04 UTC")})
	}
	return out
}

// costRank orders latency (0) before the servers' cost and throughput (1).
func costRank(m compare.MetricResult) int {
	if metric.Of(m.Metric).Scope == metric.PerOp {
		return 0
	}
	return 1
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
