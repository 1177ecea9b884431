package report

import (
	"context"
	"fmt"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
)

// TestRoundTicksAreRoundAndApart: y ticks fall on 1-2-5 values (or
// multiples of a 1-2-5 step), never two labels within a line of text of
// each other nor printing the same text: the 4.9 / 5 / 5.1 ms
// 8 px apart and 4.9 / 7.07 / 10.2 ms geometric midpoints.
func TestRoundTicksAreRoundAndApart(t *testing.T) {
	micros := func(v float64) string { return value(v, "us") }
	for _, tc := range []struct {
		name        string
		lo, hi, px  float64
		label       func(float64) string
		least, most int
	}{
		{"narrow latency 4.9-5.1 ms", 4900 / 1.15, 5100 * 1.15, 152, micros, 2, 10},
		{"very narrow 4.99-5.01 ms", 4990, 5010, 152, micros, 2, 10},
		{"a decade and more", 300, 12000, 152, micros, 2, 10},
		{"four decades", 1, 10000, 152, micros, 2, 10},
		{"ratio 0.9-2.1", 0.87, 2.2, 268, ratioLabel, 2, 10},
		{"ratio 0.95-1.11", 0.9, 1.16, 268, ratioLabel, 2, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := roundTicks(tc.lo, tc.hi, tc.px, minTickGap, tc.label)
			if len(ts) < tc.least || len(ts) > tc.most {
				t.Fatalf("%d ticks %v, want %d-%d", len(ts), ts, tc.least, tc.most)
			}
			at := func(v float64) float64 { return math.Log(v/tc.lo) / math.Log(tc.hi/tc.lo) * tc.px }
			for i, v := range ts {
				if v < tc.lo || v > tc.hi {
					t.Errorf("tick %g outside [%g, %g]", v, tc.lo, tc.hi)
				}
				if !round125(v) {
					t.Errorf("tick %g (%s) is not a round value", v, tc.label(v))
				}
				if i > 0 {
					if gap := at(v) - at(ts[i-1]); gap < minTickGap {
						t.Errorf("ticks %s and %s are %.1f px apart (want %g)", tc.label(ts[i-1]), tc.label(v), gap, minTickGap)
					}
					if tc.label(v) == tc.label(ts[i-1]) {
						t.Errorf("two ticks print %s", tc.label(v))
					}
				}
			}
		})
	}
}

// round125 says whether v is a whole multiple of 1, 2 or 5 times a power
// of ten no smaller than a thousandth of v (4.99 ms is 499 steps of 10 µs).
func round125(v float64) bool {
	for e := math.Floor(math.Log10(v)); e >= math.Floor(math.Log10(v))-3; e-- {
		for _, m := range []float64{1, 2, 5} {
			step := m * math.Pow(10, e)
			if k := v / step; math.Abs(k-math.Round(k)) < 1e-6 {
				return true
			}
		}
	}
	return false
}

// TestHTMLGlanceSaysWhatTheOtherFormatsSay: the page opens with the
// verdict in the words the terminal and vote.txt use, the same rows the
// verdict rests on, each with its tolerance, and where the figures come
// from (builds and jars, machine, JDK, the regress build, the command),
// before its table of contents; a phone gets a viewport.
func TestHTMLGlanceSaysWhatTheOtherFormatsSay(t *testing.T) {
	pass := pairedFixture()
	pass.Verdict = compare.Pass
	pass.Metrics[0].Status = compare.NotWorse
	pass.HeldRate = pass.HeldRate[:1]
	v := Vote{Baseline: VoteSide{Version: "2.6.1", JarDigest: "sha256:9b8e7f6a5d4c3b2a"}, Candidate: VoteSide{Version: "2.6.2", RC: "RC1", JarDigest: "sha256:3f2a9c1d00112233"},
		Machine: "2 cores, 8 GiB, Linux 6.1", JDK: "17.0.15", Regress: "regress v1.2.3 (commit 50a72ed1c2d3; go1.26.0)", Command: "regress --baseline 2.6.1 --candidate 2.6.2"}
	for _, tc := range []struct {
		name string
		c    *compare.Comparison
		rows []string // the rows the glance lists, in order
	}{
		{"regression", pairedFixture(), []string{"workloada READ p99"}},
		// Nearest their tolerance first, then the row left undecided.
		{"pass", pass, []string{"workloada READ p99", "workloada READ p50", "workloadb UPDATE p95", "workloada UPDATE p99", "workloada UPDATE p99.9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := Render(&b, FormatHTML, Report{Comparison: tc.c, Vote: v}); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			head, rest, ok := strings.Cut(page, `<nav class="toc"`)
			if !ok {
				t.Fatal("no table of contents")
			}
			for _, want := range []string{`<meta name="viewport" content="width=device-width, initial-scale=1">`, html.EscapeString(verdictLine(tc.c)),
				"HBase 2.6.2 RC1", "jars 3f2a9c1d", `title="sha256:3f2a9c1d00112233"`, "2 cores, 8 GiB, Linux 6.1", "17.0.15",
				html.EscapeString(regressBuild(v)), "<code>regress --baseline 2.6.1 --candidate 2.6.2</code>"} {
				if !strings.Contains(head, want) {
					t.Errorf("the first screen lacks %q", want)
				}
			}
			at := 0
			for _, r := range tc.rows {
				i := strings.Index(head[at:], "<td>"+r+"</td>")
				if i < 0 {
					t.Errorf("the first screen lacks row %q after the previous one", r)
					continue
				}
				at += i
			}
			bs := verdictBasis(tc.c)
			if got := strings.Count(head, "<tr class="); got != len(tc.rows) || len(slices.Concat(bs.Rows, bs.Undecided)) < len(tc.rows) {
				t.Errorf("the first screen lists %d rows, want %d", got, len(tc.rows))
			}
			for _, m := range tc.c.Metrics {
				if m.Gated && m.Tolerance > 0 && slices.Contains(tc.rows, rowName(m)) && !strings.Contains(head, "<td class=\"n\">"+html.EscapeString(tolerance(m))+"</td>") {
					t.Errorf("row %s shows no tolerance %s", rowName(m), tolerance(m))
				}
			}
			for _, id := range []string{"gated", "table", "notes", "warnings"} {
				if !strings.Contains(rest, `<a href="#`+id+`">`) || !strings.Contains(rest, `id="`+id+`"`) {
					t.Errorf("the contents lack section %q, or the page its anchor", id)
				}
			}
		})
	}
}

// TestPercentilePlotSaysWhereItDiffersFromTheTable: a curve of the merged
// samples whose tail doubled beside a table row UNCHANGED trial by trial
// says so under its title; one that agrees says nothing.
func TestPercentilePlotSaysWhereItDiffersFromTheTable(t *testing.T) {
	d := fullReport().Distributions[0] // workloada READ: the candidate ~9% slower throughout
	c := &compare.Comparison{Metrics: []compare.MetricResult{
		{Workload: "workloada", Op: "READ", Metric: "p50", Ratio: 1.09, CILow: 1.05, CIHigh: 1.13, Status: compare.Unchanged, Tolerance: 0.2},
		{Workload: "workloada", Op: "READ", Metric: "p99.9", Ratio: 1.083, CILow: 0.896, CIHigh: 1.308, Status: compare.Unchanged, Tolerance: 1},
	}}
	if n := pooledNote(d, c); n != "" {
		t.Errorf("a plot that agrees with the table says %q", n)
	}
	c.Metrics[0].CILow, c.Metrics[0].CIHigh = 0.98, 1.02
	n := pooledNote(d, c)
	if !strings.Contains(n, "p50 +") || !strings.Contains(n, "in the merged samples, +9.0% [-2.0, +2.0] UNCHANGED in the table") {
		t.Errorf("a plot whose p50 lies outside the table's interval says %q", n)
	}
	var b strings.Builder
	if err := Render(&b, FormatHTML, Report{Comparison: c, Distributions: []Distribution{d}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<span class="note">Differs from the table`) {
		t.Error("the page does not caption the plot that differs")
	}
}

// TestEveryEvidenceFigureHasItsLegendAndALabelledRatioAxis: the trials
// plot names its dots and the pair line inside the figure; the interval
// plot names the band, bar, ring and dashed line, labels its axis, and
// its ticks reach an interval far past the band (the axis that
// stopped at 1.1 with the interval at 2.0).
func TestEveryEvidenceFigureHasItsLegendAndALabelledRatioAxis(t *testing.T) {
	m := pairedFixture().Metrics[0]
	m.Ratio, m.CILow, m.CIHigh = 1.9, 1.7, 2.1
	trials := trialsSVG(m, true)
	for _, want := range []string{">baseline</text>", ">candidate</text>", ">a pair</text>"} {
		if !strings.Contains(trials, want) {
			t.Errorf("trials plot lacks its legend entry %s", want)
		}
	}
	iv := intervalSVG(m)
	for _, want := range []string{">tolerance ±5% (0.952-1.05)</text>", ">interval</text>", ">estimate</text>", ">no change</text>", ">candidate / baseline (log scale)</text>", ">2</text>"} {
		if !strings.Contains(iv, want) {
			t.Errorf("interval plot lacks %s:\n%s", want, iv)
		}
	}
}

// TestHTMLFitsNarrowWindows opens a REGRESSION report (profiles, shifts,
// timelines, percentile plots) and a DESCRIPTIVE one in headless Chromium
// at 1024, 1280 and 390 px and reads the page's width: nothing may run past
// the window (the issue measured 1177 px at 1024 and 1386 at 1280).
func TestHTMLFitsNarrowWindows(t *testing.T) {
	bin := chromium(t)
	full := profiledReport(t)
	full.Distributions = fullReport().Distributions
	full.Shifts = tailShift()
	full.Timelines = []TrialTimeline{spikeTimeline(spikeEvents)}
	desc := Report{Comparison: descriptiveFixture(), Distributions: fullReport().Distributions}
	for _, tc := range []struct {
		name string
		r    Report
	}{{"regression", full}, {"descriptive", desc}} {
		var b strings.Builder
		if err := Render(&b, FormatHTML, tc.r); err != nil {
			t.Fatal(err)
		}
		page := strings.Replace(b.String(), "</body>", `<script>document.title="width "+document.documentElement.scrollWidth+" of "+window.innerWidth</script></body>`, 1)
		path := filepath.Join(t.TempDir(), "report.html")
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int{1024, 1280} {
			scroll, inner := pageWidth(t, bin, path, width)
			if inner != width || scroll > inner {
				t.Errorf("%s report at %d px: the page is %d px wide in a %d px window", tc.name, width, scroll, inner)
			}
		}
		// A phone's 390 px, narrower than any window Chromium opens: in a frame.
		if got := frameMetrics(t, bin, path, 390); got["inner"] != 390 || got["scroll"] > 390 {
			t.Errorf("%s report at 390 px: the page is %d px wide in a %d px frame", tc.name, got["scroll"], got["inner"])
		}
	}
}

var widthTitle = regexp.MustCompile(`<title>width (\d+) of (\d+)</title>`)

// pageWidth opens page in headless Chromium width px wide and returns the
// document's scroll width and the window's inner width.
func pageWidth(t *testing.T, bin, page string, width int) (scroll, inner int) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,900", width), "--dump-dom", "file://"+page).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := widthTitle.FindSubmatch(out)
	if m == nil {
		t.Fatalf("chromium ran no script: no width in the page's title")
	}
	scroll, _ = strconv.Atoi(string(m[1]))
	inner, _ = strconv.Atoi(string(m[2]))
	return scroll, inner
}
