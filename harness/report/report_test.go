package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/loadgen"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// pairedFixture is a hand-built paired comparison covering every status.
func pairedFixture() *compare.Comparison {
	return &compare.Comparison{
		Verdict: compare.Regression, Suite: "smoke", Paired: true, Interleaved: true, Alpha: 0.05, Looks: 2, LookAlpha: 0.025,
		Baseline: compare.Side{Name: "2.6.1", Trials: 5}, Candidate: compare.Side{Name: "2.6.2", Trials: 5},
		Metrics: []compare.MetricResult{
			{Workload: "workloada", Op: "READ", Metric: "p99", Unit: "us", Baseline: 3335, Candidate: 3568.45, Ratio: 1.07, CILow: 1.03, CIHigh: 1.11, PassBound: 1.11, RegressionBound: 1.06, Tolerance: 0.05, Status: compare.Regressed, Gated: true, P: 0.0031, Pairs: 5, OpsPerTrial: 20000,
				BaselineValues: []float64{3300, 3350, 3320, 3360, 3345}, CandidateValues: []float64{3540, 3600, 3550, 3580, 3571}},
			{Workload: "workloada", Op: "READ", Metric: "p50", Unit: "us", Baseline: 641, Candidate: 647.4, Ratio: 1.01, CILow: 0.99, CIHigh: 1.03, PassBound: 1.03, RegressionBound: 0.99, Tolerance: 0.05, Status: compare.Unchanged, Gated: true, P: 0.41, Pairs: 5, OpsPerTrial: 20000},
			{Workload: "workloada", Op: "UPDATE", Metric: "p99", Unit: "us", Baseline: 4635, Candidate: 4125, Ratio: 0.89, CILow: 0.85, CIHigh: 0.93, PassBound: 0.93, RegressionBound: 0.84, Tolerance: 0.05, Status: compare.Improved, Gated: true, P: 0.9998, Pairs: 5, OpsPerTrial: 20000,
				BaselineValues: []float64{4600, 4700, 4650, 4590, 4640}, CandidateValues: []float64{4100, 4150, 4120, 4130, 4125}},
			{Workload: "workloada", Op: "UPDATE", Metric: "p99.9", Unit: "us", Baseline: 12799, Candidate: 14100, Ratio: 1.10, CILow: 0.93, CIHigh: 1.30, PassBound: 1.30, RegressionBound: 0.91, Tolerance: 0.10, Status: compare.Inconclusive, Gated: true, P: 0.12, Pairs: 5, OpsPerTrial: 20000,
				BaselineValues: []float64{12000, 13000, 12500, 13500, 13000}, CandidateValues: []float64{15000, 13000, 14500, 13500, 14500}},
			{Workload: "workloadb", Op: "UPDATE", Metric: "p99", Unit: "us", Baseline: 5100, Candidate: 5000, Ratio: 0.98, CILow: 0.8, CIHigh: 1.2, PassBound: 1.2, RegressionBound: 0.78, Tolerance: 0.10, Status: compare.Inconclusive, Gated: false, P: 0.2, Pairs: 5, OpsPerTrial: 2000,
				Note: "p99 not gated: a trial recorded only 2000 operations, so 20 samples lie beyond p99 (50 needed; p99 needs 5000 operations per trial); p95 gates in its place"},
			{Workload: "workloadb", Op: "UPDATE", Metric: "p95", Unit: "us", Baseline: 2100, Candidate: 2050, Ratio: 0.976, CILow: 0.85, CIHigh: 1.04, PassBound: 1.04, RegressionBound: 0.83, Tolerance: 0.10, Status: compare.NotWorse, Gated: true, GatedFor: "p99", P: 0.3, Pairs: 5, OpsPerTrial: 2000,
				Note:           "gates in place of p99: a trial recorded only 2000 UPDATE operations (p99 needs 5000)",
				BaselineValues: []float64{2000, 2200, 2100, 2050, 2150}, CandidateValues: []float64{2100, 1900, 2000, 2150, 2100}},
			{Workload: "workloadc", Op: "ALL", Metric: "throughput", Unit: "ops/s", Baseline: 9998, Candidate: 9996.1, Ratio: 0.9998, CILow: 0.999, CIHigh: 1.0006, PassBound: 0.999, RegressionBound: 1.0006, Tolerance: 0.05, Status: compare.Unchanged, Gated: false, P: 0.5, Pairs: 5,
				Note: "throughput not gated: the trials ran at a target rate, which throughput only follows; the held-rate check gates instead"},
			{Workload: "workload|x", Op: "SCAN", Metric: "mean", Unit: "us", Baseline: 1.2e6, Candidate: 1.25e6, Ratio: 1.04, CILow: math.NaN(), CIHigh: math.Inf(1), Tolerance: 0.05, Status: compare.Inconclusive, Gated: false, P: math.NaN(), Pairs: 2},
		},
		HeldRate: []compare.HeldRate{
			{Workload: "workloada", TargetOpsPerSec: 10000, BaselineTrials: 5, CandidateTrials: 5, Status: compare.Unchanged, Gated: true, P: 1},
			{Workload: "workloadc", TargetOpsPerSec: 10000, BaselineTrials: 5, CandidateTrials: 5, CandidateMissed: 5, CandidateOnly: 5, Status: compare.Regressed, Gated: true, P: 0.001},
		},
		Warnings: []string{"baseline environment differs: cores: 2 != 4"},
	}
}

// descriptiveFixture is what compare returns for imported YCSB summaries.
func descriptiveFixture() *compare.Comparison {
	return &compare.Comparison{
		Verdict: compare.VerdictDescriptive, Suite: "ycsb-import", Descriptive: true,
		Baseline: compare.Side{Name: "0.98.4", Trials: 1}, Candidate: compare.Side{Name: "1.2.1", Trials: 2},
		Metrics: []compare.MetricResult{
			{Workload: "workloada", Op: "READ", Metric: "p99", Unit: "us", Baseline: 4875, Candidate: 3335, Ratio: 0.684, Tolerance: 0.05, Status: compare.Descriptive, Gated: true, Pairs: 1},
			{Workload: "workloada", Op: "READ", Metric: "mean", Unit: "us", Baseline: 1201.45, Candidate: 751.33, Ratio: 0.6253, Tolerance: 0.05, Status: compare.Descriptive, Gated: false, Pairs: 1},
			{Workload: "workloada", Op: "READ", Metric: "p95", Unit: "us", Baseline: 1000, Candidate: 2000, Ratio: math.NaN(), Tolerance: 0.10, Status: compare.Descriptive, Pairs: 1,
				BaselineBelow: true, Note: "p95 printed as 0 ms, i.e. below 1 ms, on the baseline; no ratio"},
			{Workload: "workloada", Op: "READ", Metric: "max", Unit: "us", Baseline: 95231, Candidate: 120400, Ratio: 1.264, Status: compare.Descriptive, Pairs: 1},
		},
		Warnings: []string{"descriptive comparison: imported YCSB summaries carry one value per metric and no trials"},
	}
}

func histogram(seed int64, medianMicros float64) *hdrhistogram.Histogram {
	r := rand.New(rand.NewSource(seed))
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for range 20000 {
		v := medianMicros * math.Exp(r.NormFloat64()*0.5)
		if r.Float64() < 0.003 {
			v *= 15
		}
		_ = h.RecordValue(int64(v))
	}
	return h
}

func fullReport() Report {
	return Report{Comparison: pairedFixture(), Distributions: []Distribution{
		{Workload: "workloada", Op: "READ", Baseline: histogram(1, 640), Candidate: histogram(2, 700)},
		{Workload: "workloada", Op: "UPDATE", Baseline: histogram(3, 1100), Candidate: histogram(4, 1000)},
	}}
}

func TestGoldenFiles(t *testing.T) {
	for _, fx := range []struct {
		name string
		c    *compare.Comparison
	}{{"paired", pairedFixture()}, {"descriptive", descriptiveFixture()}} {
		for _, f := range []struct{ format, ext string }{{FormatText, "txt"}, {FormatMarkdown, "md"}, {FormatJSON, "json"}, {FormatJUnit, "xml"}} {
			t.Run(fx.name+"."+f.ext, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Render(&buf, f.format, Report{Comparison: fx.c}); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", fx.name+"."+f.ext)
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./harness/report -update to create it)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("%s differs from golden file; got:\n%s", path, buf.String())
				}
			})
		}
	}
}

func TestDescriptiveSaysSoEverywhere(t *testing.T) {
	r := Report{Comparison: descriptiveFixture(), Distributions: []Distribution{{Workload: "workloada", Op: "READ", Baseline: histogram(1, 900), Candidate: histogram(2, 700)}}}
	for _, f := range Formats() {
		var buf bytes.Buffer
		if err := Render(&buf, f, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), DescriptiveNote) {
			t.Errorf("%s output does not say %q", f, DescriptiveNote)
		}
	}
}

func TestJSONCarriesTheMetricFields(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, FormatJSON, Report{Comparison: pairedFixture()}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Verdict string           `json:"verdict"`
		Metrics []map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != "REGRESSION" || len(got.Metrics) != 8 {
		t.Fatalf("verdict %q, %d metrics", got.Verdict, len(got.Metrics))
	}
	for _, k := range []string{"workload", "op", "metric", "baseline", "candidate", "ratio", "ci_low", "ci_high", "pass_bound", "regression_bound",
		"tolerance", "status", "gated", "ops_per_trial", "baseline_values", "candidate_values"} {
		if _, ok := got.Metrics[0][k]; !ok {
			t.Errorf("metric lacks %q", k)
		}
	}
	if got.Metrics[5]["gated_for"] != "p99" || got.Metrics[5]["note"] == nil {
		t.Errorf("fallback metric lacks gated_for or note: %v", got.Metrics[5])
	}
	if !strings.Contains(buf.String(), `"held_rate"`) {
		t.Error("no held_rate in the JSON report")
	}
	// NaN and infinite figures become null rather than breaking the encoder.
	if got.Metrics[7]["ci_low"] != nil || got.Metrics[7]["p"] != nil {
		t.Errorf("non-finite figures not null: %v", got.Metrics[7])
	}
}

func TestJUnitOneCasePerGatedMetric(t *testing.T) {
	var buf bytes.Buffer
	r := Report{Comparison: pairedFixture(), Measured: map[string]time.Duration{"workloada": 100 * time.Second, "workloadb": 50 * time.Second},
		Build: Build{Module: "devel", Commit: "0123456789abcdef0123", Go: "go1.26.8"}}
	if err := Render(&buf, FormatJUnit, r); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// Five gated metrics and two gated held-rate checks; p99 READ and the
	// held rate of workloadc fail, p99.9 UPDATE is skipped (inconclusive).
	if got.Tests != 7 || got.Failures != 2 || got.Skipped != 1 || len(got.Suites) != 3 || got.Suites[0].Cases[0].ClassName != "regress.smoke.workloada" {
		t.Fatalf("junit = %+v", got)
	}
	// Times are the measured ones: a workload's shared by its cases, the
	// run's the workloads' sum (workloadc's trials were not timed: 0).
	if got.Time != "150.000" || got.Suites[0].Time != "100.000" || got.Suites[0].Cases[0].Time != "20.000" || got.Suites[1].Time != "50.000" || got.Suites[2].Time != "0.000" {
		t.Errorf("times: run %s, workloada %s (case %s), workloadb %s, workloadc %s", got.Time, got.Suites[0].Time, got.Suites[0].Cases[0].Time, got.Suites[1].Time, got.Suites[2].Time)
	}
	props := map[string]string{}
	for _, p := range got.Suites[1].Properties {
		props[p.Name] = p.Value
	}
	if props["baseline"] != "2.6.1" || props["candidate"] != "2.6.2" || props["suite"] != "smoke" || props["verdict"] != "REGRESSION" ||
		props["regress.commit"] != "0123456789abcdef0123" || props["regress.build"] != "regress devel (commit 0123456789ab; go1.26.8)" {
		t.Errorf("properties %v", props)
	}
	if c := got.Suites[2].Cases[0]; c.Name != "held rate" || c.Failure == nil {
		t.Fatalf("held-rate regression is not a failed case: %+v", c)
	}
	if f := got.Suites[0].Cases[0].Failure; f == nil || f.Type != "REGRESSED" {
		t.Fatalf("regressed case has no failure: %+v", got.Suites[0].Cases[0])
	}
}

func TestHTMLIsSelfContained(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, FormatHTML, fullReport()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, "latency by percentile\""); n != 2 {
		t.Errorf("%d percentile plots, want 2", n)
	}
	// Every gated metric gets its interval against the band; those with
	// per-trial values (4 of the 5) also their trials.
	if n := strings.Count(page, "ratio interval\""); n != 5 {
		t.Errorf("%d interval plots, want one per gated metric (5)", n)
	}
	if n := strings.Count(page, "per trial\""); n != 4 {
		t.Errorf("%d trial plots, want 4", n)
	}
	if strings.Count(page, "<polyline") != 4 {
		t.Errorf("want a baseline and a candidate line per plot")
	}
	for _, bad := range []string{"<script", " src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page references %q: it must need no network", bad)
		}
	}
	// Links only within the page (its table of contents).
	for _, l := range strings.Split(page, `href="`)[1:] {
		if !strings.HasPrefix(l, "#") {
			t.Errorf("page links to %.40q: it must need no network", l)
		}
	}
	for _, want := range []string{"99.9%", "99%", "workload|x"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestPercentilePointsFollowTheLogAxis(t *testing.T) {
	h := histogram(5, 1000)
	pts := percentilePoints(h, xCapFor(h))
	if len(pts) < 20 || pts[0].x != 1 || pts[len(pts)-1].x != 100000 || pts[len(pts)-1].y != float64(h.Max()) {
		t.Fatalf("%d points, first %+v last %+v (max %d)", len(pts), pts[0], pts[len(pts)-1], h.Max())
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].x < pts[i-1].x || pts[i].y < pts[i-1].y {
			t.Fatalf("points not monotone at %d: %+v %+v", i, pts[i-1], pts[i])
		}
	}
	if percentileLabel(1000) != "99.9%" || percentileLabel(1) != "0%" {
		t.Errorf("labels %s %s", percentileLabel(1000), percentileLabel(1))
	}
}

func TestWriteAllWritesEveryFormatAndHgrm(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	paths, err := WriteAll(dir, fullReport())
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(formats)+4 {
		t.Fatalf("wrote %v", paths)
	}
	b, err := os.ReadFile(filepath.Join(dir, "hgrm", "workloada-READ-candidate.hgrm"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "       Value     Percentile TotalCount 1/(1-Percentile)") &&
		!strings.HasPrefix(string(b), " Value\tPercentile\tTotalCount\t1/(1-Percentile)") {
		t.Errorf("hgrm header: %q", strings.SplitN(string(b), "\n", 2)[0])
	}
	if !strings.Contains(string(b), "#[Mean    =") {
		t.Error("hgrm lacks the summary footer")
	}
}

func TestRenderRejectsUnknownFormat(t *testing.T) {
	err := Render(&bytes.Buffer{}, "pdf", fullReport())
	if err == nil || !strings.Contains(err.Error(), `unknown format "pdf"`) || !strings.Contains(err.Error(), "markdown") {
		t.Fatalf("err = %v", err)
	}
	if err := Render(&bytes.Buffer{}, "text", Report{}); err == nil {
		t.Fatal("rendered a nil comparison")
	}
}

func TestRenderAnswersToAliases(t *testing.T) {
	for _, tc := range []struct{ alias, name string }{
		{"txt", FormatText}, {"table", FormatText}, {"TEXT", FormatText},
		{"md", FormatMarkdown}, {"Markdown", FormatMarkdown},
		{"xml", FormatJUnit}, {"JSON", FormatJSON}, {"HTML", FormatHTML},
	} {
		t.Run(tc.alias, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := Render(&got, tc.alias, fullReport()); err != nil {
				t.Fatalf("Render(%q): %v", tc.alias, err)
			}
			if err := Render(&want, tc.name, fullReport()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("Render(%q) differs from Render(%q)", tc.alias, tc.name)
			}
		})
	}
}

func TestRenderSaysHowToWriteHgrm(t *testing.T) {
	err := Render(&bytes.Buffer{}, "hgrm", fullReport())
	if err == nil || !strings.Contains(err.Error(), "--out DIR") {
		t.Fatalf("err = %v, want one pointing at --out DIR", err)
	}
}

func TestFormatsTableHasOneFilePerFormat(t *testing.T) {
	files := map[string]string{}
	for _, f := range formats {
		if f.Write == nil || f.File == "" {
			t.Errorf("format %q has no writer or no file", f.Name)
		}
		if other, dup := files[f.File]; dup {
			t.Errorf("formats %q and %q both write %s", other, f.Name, f.File)
		}
		files[f.File] = f.Name
	}
}

func TestStepSummaryAppendsWithinLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", path)
	if err := AppendStepSummary(fullReport()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "earlier step\n### regress:") {
		t.Fatalf("summary = %q", b[:min(len(b), 80)])
	}
	// A huge comparison is cut to fit under 1 MiB, saying so.
	big := pairedFixture()
	for len(big.Metrics) < 20000 {
		big.Metrics = append(big.Metrics, big.Metrics[:6]...)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendStepSummary(Report{Comparison: big}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if len(b) >= StepSummaryLimit || !strings.Contains(string(b), "more rows left out") {
		t.Fatalf("summary of %d bytes, cut note present: %v", len(b), strings.Contains(string(b), "more rows left out"))
	}
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	if err := AppendStepSummary(fullReport()); err != nil {
		t.Fatal(err)
	}
}

func TestPairDistributionsByKind(t *testing.T) {
	b, c := histogram(1, 100), histogram(2, 200)
	base := map[string]*hdrhistogram.Histogram{"READ.intended": b, "READ.service": c, "UPDATE.intended": b}
	cand := map[string]*hdrhistogram.Histogram{"READ.intended": c, "SCAN": c}
	got := PairDistributions("workloade", base, cand, loadgen.Intended)
	if len(got) != 3 || got[0].Op != "READ" || got[0].Baseline != b || got[0].Candidate != c ||
		got[1].Op != "SCAN" || got[1].Baseline != nil || got[2].Op != "UPDATE" || got[2].Candidate != nil || got[0].Workload != "workloade" {
		t.Fatalf("got %+v", got)
	}
}

// TestGateNotesNameTheirMetricOnceAndEachTextOnce: a note that does not
// begin with its metric ("slot 1 read ...") is labelled with it, one that
// does ("p99 not gated: ...") is not labelled twice, and a text several
// metrics of a row share (the primary rows' method) is one line naming all.
func TestGateNotesNameTheirMetricOnceAndEachTextOnce(t *testing.T) {
	const primary = "primary: the inverse-variance weighted mean over the workloads that gate it"
	c := &compare.Comparison{Metrics: []compare.MetricResult{
		{Workload: "workloada", Op: "READ", Metric: "p99.9", Note: "slot 1 read -26.8% [-41.9%, -7.7%] against slot 2 in its pairs (taken out of the ratio)", SlotEffect: 0.73},
		{Workload: "workloada", Op: "READ", Metric: "p99", Note: "p99 not gated: a trial recorded only 4913 operations"},
		{Workload: "all workloads", Op: "ALL", Metric: "cpu_per_op", Note: primary, Primary: true},
		{Workload: "all workloads", Op: "ALL", Metric: "alloc_per_op", Note: primary, Primary: true},
		{Workload: "workloadb", Op: "ALL", Metric: "cpu_per_op", Note: "cpu_per_op: 1 pair left out (ratio +14.7%), beyond 5 robust sds"},
		{Workload: "workloadb", Op: "ALL", Metric: "alloc_per_op"},
	}}
	want := []string{
		"workloada READ p99.9: slot 1 read -26.8% [-41.9%, -7.7%] against slot 2 in its pairs (taken out of the ratio)",
		"workloada READ: p99 not gated: a trial recorded only 4913 operations",
		"all workloads ALL cpu_per_op, alloc_per_op: " + primary,
		"workloadb ALL cpu_per_op [+14.7%]: pairs left out (their ratios in brackets), beyond 5 robust sds",
	}
	if got := noteLines(c); !slices.Equal(got, want) {
		t.Errorf("noteLines:\n got %q\nwant %q", got, want)
	}
}
