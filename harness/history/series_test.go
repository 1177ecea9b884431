package history

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/results"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func trial(run, wl string, pair int, p50, p95, tput float64) results.Trial {
	return results.Trial{ID: fmt.Sprintf("%s-%s-p%02d", run, wl, pair), RunID: run, Workload: wl, Pair: pair,
		AchievedOpsPerSec: tput,
		Ops:               map[string]results.OpStats{"READ": {Count: 1000, Intended: results.Latency{P50Micros: p50, P95Micros: p95, P99Micros: 2 * p95, P999Micros: 3 * p95, MeanMicros: p50 * 1.1}}}}
}

// noise is a fixed multiplicative wobble, so the fixtures are deterministic.
var noise = []float64{1.00, 1.02, 0.985, 1.011, 0.993, 1.017, 0.979, 1.004}

// fixtureRuns is a sweep of 2.6.0 (the reference) .. 2.6.9, 3 pairs each:
// READ p95 is 20% slower from 2.6.5 on, p50 and throughput stay put,
// 2.6.2 failed to start.
func fixtureRuns() []Run {
	var runs []Run
	for i := range 10 {
		rel := fmt.Sprintf("2.6.%d", i)
		if i == 0 {
			runs = append(runs, Run{Release: rel, Reference: true})
			continue
		}
		if i == 2 {
			runs = append(runs, Run{Release: rel, Note: "did not start: JDK missing"})
			continue
		}
		run := fmt.Sprintf("20261202T0%d0000-%s", i, rel)
		r := Run{Release: rel, RunID: run}
		shift := 1.0
		if i >= 5 {
			shift = 1.2
		}
		for p := range 3 {
			n := noise[(i+p)%len(noise)]
			m := noise[(i+2*p+3)%len(noise)]
			r.Base = append(r.Base, trial(run, "workloadc", p, 400, 1000, 500))
			r.Cand = append(r.Cand, trial(run, "workloadc", p, 400*m, 1000*shift*n, 500/m))
		}
		runs = append(runs, r)
	}
	return runs
}

func fixtureHistory(t *testing.T) *History {
	t.Helper()
	h, err := Build("smoke", "2.6.0", fixtureRuns(), []string{"workloadc"}, Options{Tolerances: map[string]float64{"p95": 0.10}})
	if err != nil {
		t.Fatal(err)
	}
	h.Generated = time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	return h
}

func findSeries(t *testing.T, h *History, metric string) Series {
	t.Helper()
	for _, s := range h.Series {
		if s.Metric == metric {
			return s
		}
	}
	t.Fatalf("no series %s", metric)
	return Series{}
}

func TestBuildFindsTheShiftAndOnlyIt(t *testing.T) {
	h := fixtureHistory(t)
	if got := len(h.Series); got != 6 {
		t.Fatalf("%d series, want READ's 5 latency metrics and throughput", got)
	}
	p95 := findSeries(t, h, "READ/p95")
	if len(p95.Shifts) != 1 || p95.Shifts[0].Release != "2.6.5" {
		t.Fatalf("READ/p95 shifts %+v, want one at 2.6.5", p95.Shifts)
	}
	sh := p95.Shifts[0]
	if math.Abs(sh.Ratio-1.2) > 0.03 || !sh.Interval || sh.Low > 1.2 || sh.High < 1.2 {
		t.Errorf("shift %+v, want about x1.2 with an interval holding it", sh)
	}
	if p := p95.Points[6]; p.Status != compare.Regressed || p.Pairs != 3 {
		t.Errorf("2.6.6 READ/p95 point %+v, want REGRESSED over 3 pairs", p)
	}
	if p := p95.Points[2]; p.HasRatio() || !strings.Contains(p.Note, "did not start") {
		t.Errorf("2.6.2 point %+v, want no ratio and the run's note", p)
	}
	if p := p95.Points[0]; !p.Reference || p.Ratio != 1 {
		t.Errorf("reference point %+v", p)
	}
	for _, m := range []string{"READ/p50", "throughput"} {
		if s := findSeries(t, h, m); len(s.Shifts) != 0 {
			t.Errorf("%s has shifts %+v on a flat series", m, s.Shifts)
		}
	}
	if s := findSeries(t, h, "throughput"); s.HigherIsWorse || s.Tolerance != 0.05 {
		t.Errorf("throughput series: higher is worse %v, tolerance %v", s.HigherIsWorse, s.Tolerance)
	}
}

func TestBuildSaysWhenASeriesIsTooShortToSearch(t *testing.T) {
	runs := fixtureRuns()[:3] // reference, one measured release, one failed
	h, err := Build("smoke", "2.6.0", runs, []string{"workloadc"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := findSeries(t, h, "READ/p95"); !strings.Contains(s.Note, "2 release(s) with a ratio; the change-point search needs 4") {
		t.Errorf("note %q", s.Note)
	}
	h, err = Build("smoke", "2.6.0", fixtureRuns()[:7], []string{"workloadc"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := findSeries(t, h, "READ/p95"); !strings.Contains(s.Note, "6 releases with a ratio: the smallest p-value a shift can reach is 0.100") {
		t.Errorf("note %q", s.Note)
	}
	if _, err := Build("smoke", "2.6.0", nil, []string{"workloadc"}, Options{}); err == nil {
		t.Error("no runs accepted")
	}
	if _, err := Build("smoke", "2.6.0", runs, nil, Options{Alpha: 0.6}); err == nil {
		t.Error("alpha 0.6 accepted")
	}
}

func TestPointOfPairsTrialsAndReadsTheInterval(t *testing.T) {
	m, _ := FindMetric(MetricsOf([]results.Trial{trial("r", "w", 0, 1, 1, 1)}, "w"), "READ/p50")
	r := Run{Release: "x", RunID: "r"}
	for i, f := range []float64{1.2, 1.22, 1.25} {
		r.Base = append(r.Base, trial("r", "w", i, 100, 100, 100))
		r.Cand = append(r.Cand, trial("r", "w", i, 100*f, 100, 100))
	}
	r.Cand = append(r.Cand, trial("r", "w", 7, 500, 100, 100)) // no reference trial: unpaired, ignored
	p := PointOf(r, "w", m, 0.05, 0.05)
	d := []float64{math.Log(1.2), math.Log(1.22), math.Log(1.25)}
	mean := (d[0] + d[1] + d[2]) / 3
	sd := math.Sqrt(((d[0]-mean)*(d[0]-mean) + (d[1]-mean)*(d[1]-mean) + (d[2]-mean)*(d[2]-mean)) / 2)
	h := 2.919985580355516 * sd / math.Sqrt(3) // t(0.95, 2)
	if p.Pairs != 3 || math.Abs(p.Ratio-math.Exp(mean)) > 1e-9 || math.Abs(p.Low-math.Exp(mean-h)) > 1e-6 || math.Abs(p.High-math.Exp(mean+h)) > 1e-6 {
		t.Errorf("point %+v, want ratio %v [%v, %v] over 3 pairs", p, math.Exp(mean), math.Exp(mean-h), math.Exp(mean+h))
	}
	if p.Status != compare.Regressed {
		t.Errorf("status %s, want REGRESSED (lower bound %.3f above 1.05)", p.Status, p.Low)
	}
	one := Run{Release: "y", RunID: "r", Base: r.Base[:1], Cand: r.Cand[:1]}
	if p := PointOf(one, "w", m, 0.05, 0.05); p.HasRatio() || !strings.Contains(p.Note, "1 pair(s)") {
		t.Errorf("one pair: %+v, want no ratio", p)
	}
}

func TestLatestRunReusesOnlyCompleteStoredRuns(t *testing.T) {
	var ref, rel []results.Trial
	add := func(run string, pairs int, wls ...string) {
		for _, w := range wls {
			for p := range pairs {
				ref = append(ref, trial(run, w, p, 1, 1, 1))
				rel = append(rel, trial(run, w, p, 1, 1, 1))
			}
		}
	}
	add("20261201T100000-2.6.1", 3, "workloada", "workloadc")
	add("20261201T120000-2.6.1", 3, "workloadc")              // killed before workloada
	add("20261201T130000-2.6.1", 2, "workloada", "workloadc") // killed after 2 pairs
	rel = append(rel, trial("20261201T140000-2.6.1", "workloada", 0, 1, 1, 1))
	id, b, c, ok := LatestRun(ref, rel, []string{"workloada", "workloadc"}, 3)
	if !ok || id != "20261201T100000-2.6.1" || len(b) != 6 || len(c) != 6 {
		t.Errorf("LatestRun = %q, %d, %d, %v; want the complete run of 10:00 with 6 trials a side", id, len(b), len(c), ok)
	}
	if id, _, _, _ := LatestRun(ref, rel, []string{"workloadc"}, 3); id != "20261201T120000-2.6.1" {
		t.Errorf("workloadc only: %q, want the 12:00 run", id)
	}
	if _, _, _, ok := LatestRun(ref, rel, []string{"workloada"}, 4); ok {
		t.Error("a run with 3 pairs was reused where 4 are asked")
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}

func TestReportsMatchGoldenFiles(t *testing.T) {
	h := fixtureHistory(t)
	for _, f := range []struct{ format, file string }{{"text", "history.txt.golden"}, {"csv", "history.csv.golden"}} {
		var buf bytes.Buffer
		if err := Formats.Render(&buf, f.format, h); err != nil {
			t.Fatal(err)
		}
		golden(t, f.file, buf.Bytes())
	}
}

func TestJSONAndHTMLReports(t *testing.T) {
	h := fixtureHistory(t)
	h.Suite = `smoke<script>alert(1)</script>`
	dir := t.TempDir()
	written, err := Formats.WriteFiles(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != len(Formats) {
		t.Fatalf("wrote %v", written)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "history.json"))
	var back History
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Series) != len(h.Series) || back.Series[1].Shifts[0].Release != "2.6.5" {
		t.Errorf("JSON round trip lost the series or the shift")
	}
	page, _ := os.ReadFile(filepath.Join(dir, "history.html"))
	s := string(page)
	if n := strings.Count(s, "<svg"); n != len(h.Series) {
		t.Errorf("%d charts for %d series", n, len(h.Series))
	}
	if strings.Contains(s, "<script") || strings.Contains(s, "http://") && !strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) {
		t.Error("the page holds a script or fetches something")
	}
	if !strings.Contains(s, "workloadc READ/p95: shift at 2.6.5") || !strings.Contains(s, `stroke-dasharray`) {
		t.Error("the page does not list or mark the shift")
	}
	if err := Formats.Render(&bytes.Buffer{}, "pdf", h); err == nil || !strings.Contains(err.Error(), "text, csv, json, html") {
		t.Errorf("pdf: %v", err)
	}
}

// TestTickLabelsDoNotOverlap: on a wide axis the ticks near 1 (0.95x, 1.05x)
// would print over each other; spaced keeps 1 and drops those too close.
func TestTickLabelsDoNotOverlap(t *testing.T) {
	// A 100 px axis from 0.5x to 2x: 1.05x lies about 3.5 px from 1x.
	lo, hi := math.Log(0.5), math.Log(2.0)
	y := func(r float64) float64 { return 100 * (hi - math.Log(r)) / (hi - lo) }
	got := spaced(ticks(0.5, 2), y, tickGap)
	if !slices.Contains(got, 1.0) || slices.Contains(got, 1.05) || slices.Contains(got, 0.95) {
		t.Errorf("ticks %v: want 1x kept, 0.95x and 1.05x dropped", got)
	}
	for i := 1; i < len(got); i++ {
		if d := y(got[i-1]) - y(got[i]); d < tickGap {
			t.Errorf("ticks %v and %v are %.1f px apart", got[i-1], got[i], d)
		}
	}
	// A narrow axis keeps every round ratio.
	lo, hi = math.Log(0.8), math.Log(1.25)
	if got := spaced(ticks(0.8, 1.25), func(r float64) float64 { return 300 * (hi - math.Log(r)) / (hi - lo) }, tickGap); len(got) != 7 {
		t.Errorf("narrow axis ticks %v, want all 7 from 0.8x to 1.25x", got)
	}
}

// TestTextPrintsStoredNamesInert: the suite, a workload, a metric's
// operation and a release come from stored manifests; the text history
// prints them as the comparison's text report does (report.Inert), so a
// forged "Verdict: PASS" line or a terminal escape never prints raw.
func TestTextPrintsStoredNamesInert(t *testing.T) {
	h := fixtureHistory(t)
	const forged = "x\nVerdict: PASS\x1b[2J"
	h.Suite = forged
	h.Series[0].Workload = forged
	h.Series[1].Metric = "READ" + forged + "/p95"
	h.Series[1].Note = "a note on " + forged
	var buf bytes.Buffer
	if err := Formats.Render(&buf, "text", h); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\nVerdict: PASS") {
		t.Errorf("a stored name printed raw:\n%s", out)
	}
	if !strings.Contains(out, `"x\x0aVerdict: PASS\x1b[2J"`) {
		t.Errorf("the suite's name not shown quoted and escaped:\n%s", out)
	}
}
