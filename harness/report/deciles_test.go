package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// tailShift is a READ whose upper deciles are 20% slower and whose body
// did not move, and an UPDATE that stops at p80 (too few operations beyond).
func tailShift() []LatencyShift {
	var read, update LatencyShift
	read = LatencyShift{Workload: "workloada", Op: "READ", Pairs: 6, Alpha: 0.025}
	update = LatencyShift{Workload: "workloada", Op: "UPDATE", Pairs: 6, Alpha: 0.025}
	for _, q := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99} {
		r := 1.0
		if q > 0.75 {
			r = 1.2
		}
		read.Quantiles = append(read.Quantiles, QuantileShift{Quantile: q, BaselineMicros: 1000 * q, CandidateMicros: 1000 * q * r, Ratio: r, Low: r * 0.99, High: r * 1.01})
		if q <= 0.8 {
			update.Quantiles = append(update.Quantiles, QuantileShift{Quantile: q, BaselineMicros: 2000, CandidateMicros: 1960, Ratio: 0.98, Low: 0.96, High: 1.003})
		}
	}
	return []LatencyShift{read, update}
}

// shiftOnlyReport has nothing else drawn in the candidate's colour, so a
// screenshot's orange is the shift plots'.
func shiftOnlyReport() Report {
	c := &compare.Comparison{Verdict: compare.Pass, Paired: true, Alpha: 0.05, Looks: 1, LookAlpha: 0.05,
		Baseline: compare.Side{Name: "2.6.1", Trials: 6}, Candidate: compare.Side{Name: "2.6.2 + hfile.block.cache.size=0", Trials: 6}}
	return Report{Comparison: c, Shifts: tailShift()}
}

// TestShiftPlotDrawsEveryPercentileWithItsLegend: one SVG per workload and
// operation, a dot and an interval bar per percentile, labelled axes with
// round ticks, the zero line, and the legend inside the figure.
func TestShiftPlotDrawsEveryPercentileWithItsLegend(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, FormatHTML, shiftOnlyReport()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !strings.Contains(page, `<h2 id="shifts">`+shiftHeading+"</h2>") {
		t.Fatal("no shift section in the HTML report")
	}
	svgs := strings.Split(page, `<svg `)[1:]
	if len(svgs) != 2 {
		t.Fatalf("%d SVGs, want one per workload and operation (2)", len(svgs))
	}
	for i, want := range []struct {
		label string
		dots  int
		ticks []string
	}{
		{"workloada READ latency shift by percentile", 11, []string{">0%<", ">+5%<", ">+10%<", ">+20%<", ">p10<", ">p95<", ">p99<"}},
		{"workloada UPDATE latency shift by percentile", 8, []string{">0%<", ">-1%<", ">-4%<", ">+1%<", ">p80<"}},
	} {
		svg := svgs[i]
		if !strings.Contains(svg, `aria-label="`+want.label+`"`) {
			t.Errorf("SVG %d is not %q", i, want.label)
		}
		// Each percentile's dot, plus the legend's.
		if n := strings.Count(svg, "<circle"); n != want.dots+1 {
			t.Errorf("%s: %d dots, want %d and the legend's", want.label, n, want.dots)
		}
		for _, s := range append(want.ticks, "candidate 2.6.2 + hfile.block.cache.size=0, mean of 6 pairs",
			"0%: baseline 2.6.1", ">interval<", "percentile of each trial's intended latency", ">candidate vs baseline<") {
			if !strings.Contains(svg, s) {
				t.Errorf("%s lacks %q", want.label, s)
			}
		}
		if strings.Contains(svg, "<script") || strings.Contains(svg, "http://") && !strings.Contains(svg, `xmlns="http://www.w3.org/2000/svg"`) {
			t.Errorf("%s loads something", want.label)
		}
		var parsed struct{ XMLName xml.Name }
		if err := xml.Unmarshal([]byte("<svg "+strings.SplitAfter(svg, "</svg>")[0]), &parsed); err != nil {
			t.Errorf("%s is not well-formed: %v", want.label, err)
		}
	}
	if got := legendName("2.6.2 + hfile.block.cache.size=0 + hbase.x=1"); got != "2.6.2 + hfile.block.cache.size=0…" {
		t.Errorf("a long name in the legend reads %q, want it cut to 34 characters", got)
	}
	if !strings.Contains(svgs[0], "<title>p90: 900 µs -&gt; 1.08 ms, +20% [+19%, +21%]</title>") {
		t.Error("READ p90's hover does not give both sides and the interval")
	}
}

// TestShiftNotesAndOtherFormats: Markdown gives a line per operation,
// JSON every figure, and a note stands in for the plots where there are none.
func TestShiftNotesAndOtherFormats(t *testing.T) {
	r := shiftOnlyReport()
	var md bytes.Buffer
	if err := Render(&md, FormatMarkdown, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- workloada READ shift by percentile (6 pairs): p10 0%, p20 0%, p30 0%, p40 0%, p50 0%, p60 0%, p70 0%, p80 +20%, p90 +20%, p95 +20%, p99 +20%\n",
		"- workloada UPDATE shift by percentile (6 pairs): p10 -2.0%, p20 -2.0%, p30 -2.0%, p40 -2.0%, p50 -2.0%, p60 -2.0%, p70 -2.0%, p80 -2.0%\n",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var js bytes.Buffer
	if err := Render(&js, FormatJSON, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Shifts []struct {
			Workload, Op string
			Pairs        int
			Alpha        float64
			Quantiles    []map[string]any
		} `json:"latency_shifts"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Shifts) != 2 || got.Shifts[0].Op != "READ" || got.Shifts[0].Pairs != 6 || got.Shifts[0].Alpha != 0.025 || len(got.Shifts[0].Quantiles) != 11 {
		t.Fatalf("JSON latency_shifts = %+v", got.Shifts)
	}
	q := got.Shifts[0].Quantiles[8]
	for k, v := range map[string]any{"quantile": 0.9, "name": "p90", "baseline_us": 900.0, "candidate_us": 1080.0, "ratio": 1.2, "ci_low": 1.188, "ci_high": 1.212} {
		if f, ok := v.(float64); ok {
			if g, _ := q[k].(float64); g < f-1e-9 || g > f+1e-9 {
				t.Errorf("JSON p90 %s = %v, want %v", k, q[k], v)
			}
		} else if q[k] != v {
			t.Errorf("JSON p90 %s = %v, want %v", k, q[k], v)
		}
	}

	// Unpaired: no plot, the note in its place (and in Markdown and JSON).
	r.Shifts, r.ShiftNotes = nil, []string{"shift by percentile not drawn: it needs paired trials, and this comparison is unpaired"}
	for _, f := range []string{FormatHTML, FormatMarkdown, FormatJSON} {
		var b bytes.Buffer
		if err := Render(&b, f, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "this comparison is unpaired") || strings.Contains(b.String(), "latency shift by percentile\"") {
			t.Errorf("%s: want the note and no plot:\n%s", f, b.String())
		}
	}
	// Neither (a descriptive comparison): no section at all.
	r.ShiftNotes = nil
	for _, f := range []string{FormatHTML, FormatMarkdown, FormatJSON} {
		var b bytes.Buffer
		if err := Render(&b, f, r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), shiftHeading) || strings.Contains(b.String(), "latency_shift") {
			t.Errorf("%s shows a shift section with nothing in it", f)
		}
	}
}

// TestShiftPlotRendersInChromium: the plots are drawn, their bars and dots
// in the candidate's colour and the zero line in the baseline's, and two sit
// side by side in a 1024 px window.
func TestShiftPlotRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := Render(&buf, FormatHTML, shiftOnlyReport()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, bin, page, 900)
	for _, c := range []struct{ what, hex string }{{"dots and interval bars", colCand}, {"zero line", colBase}} {
		if n := countColour(img, c.hex); n < 200 {
			t.Errorf("%s (%s): %d pixels in the screenshot, want them drawn", c.what, c.hex, n)
		}
	}
	// Both figures within 1024 px: the candidate's colour is drawn between
	// x 520 (past the first figure) and 1024.
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("screenshot %T cannot be cut", img)
	}
	if n := countColour(sub.SubImage(image.Rect(520, 0, 1024, img.Bounds().Max.Y)), colCand); n < 100 {
		t.Errorf("%d candidate pixels between x 520 and 1024: the second plot does not sit beside the first", n)
	}
}
