package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/results"
)

// storedComparison compares two sides of testdata/store (the docs'
// examples' fixture) with the example suite's gate.
func storedComparison(t *testing.T, baseline, candidate string) *compare.Comparison {
	t.Helper()
	st, err := results.OpenReadOnly(filepath.Join("..", "..", "testdata", "store"))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := st.Resolve(baseline, "example")
	if err != nil {
		t.Fatal(err)
	}
	cm, err := st.Resolve(candidate, "example")
	if err != nil {
		t.Fatal(err)
	}
	c, err := compare.Compare(bm, cm, compare.Config{Gate: []string{"p99", "throughput"}, Looks: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// releaseOps are the operations of the release suite's six workloads.
var releaseOps = map[string][]string{
	"workloada": {"READ", "UPDATE"}, "workloadb": {"READ", "UPDATE"}, "workloadc": {"READ"},
	"workloadd": {"READ", "INSERT"}, "workloade": {"SCAN", "INSERT"}, "workloadf": {"READ", "UPDATE", "READ-MODIFY-WRITE"},
}

// releaseManifest is a side of a release-suite run as the runner stores it:
// six workloads, each operation's latencies, the servers' CPU and
// allocation per operation, k pairs with a little noise; slow scales the
// candidate's latencies and costs.
func releaseManifest(label string, k int, slow float64, first int) *results.Manifest {
	m := &results.Manifest{Version: "2.6.1", Label: label, Provider: "local", Source: "regress",
		Suite: results.SuiteInfo{Name: "release", Fingerprint: "0123456789abcdef"}}
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	w := 0
	for _, wl := range []string{"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"} {
		w++
		for i := range k {
			noise := 1 + 0.02*math.Sin(float64(7*i+3*w)+slow)
			f := noise * slow
			ops := map[string]results.OpStats{}
			for j, op := range releaseOps[wl] {
				scale := float64(1+j) * float64(w)
				lat := results.Latency{P50Micros: 380 * scale * f, P95Micros: 990 * scale * f, P99Micros: 2400 * scale * f,
					P999Micros: 9800 * scale * f, MaxMicros: 90000 * scale, MinMicros: 90, MeanMicros: 520 * scale * f}
				ops[op] = results.OpStats{Count: 12000, Statuses: map[string]int64{"OK": 12000}, Intended: lat, Service: lat}
			}
			m.Trials = append(m.Trials, results.Trial{ID: fmt.Sprintf("%s-%s-%d", label, wl, i), RunID: "run1", Workload: wl, Pair: i, Order: (i + first) % 2,
				Start: base.Add(time.Duration(w*100+i) * time.Minute), DurationMillis: 12000, Duet: true,
				TargetOpsPerSec: 1000, AchievedOpsPerSec: 999.5 * noise, Ops: ops,
				Server: &results.ServerStats{CPUPerOpMicros: 190 * float64(w) * f, AllocPerOpBytes: 24000 * float64(w) * f, Servers: 1, WindowMillis: 12000}})
		}
	}
	return m
}

// releaseComparison is a release-suite comparison: every workload, every
// percentile, throughput and the server costs with their primary rows.
func releaseComparison(t *testing.T, slow float64) *compare.Comparison {
	t.Helper()
	cfg := compare.Config{Looks: 2, MaxPairs: 10,
		Tolerances:        map[string]float64{"p50": 0.10, "mean": 0.10, "p95": 0.20, "p99": 0.50, "p99.9": 1.0, "throughput": 0.05, "cpu_per_op": 0.05, "alloc_per_op": 0.05},
		PrimaryTolerances: map[string]float64{"cpu_per_op": 0.03, "alloc_per_op": 0.05},
		Gate:              []string{"cpu_per_op", "alloc_per_op", "p50"}}
	c, err := compare.Compare(releaseManifest("2.6.1", 8, 1, 0), releaseManifest("2.6.2", 8, slow, 1), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTextFitsTheWidth: the default text report of realistic comparisons
// (the docs' stored fixture, a release suite's every row, the golden
// fixtures) keeps within TextWidth columns, table and prose; --wide does not.
func TestTextFitsTheWidth(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    func(*testing.T) *compare.Comparison
	}{
		{"store PASS", func(t *testing.T) *compare.Comparison { return storedComparison(t, "example-2.6.0", "example-2.6.1") }},
		{"store REGRESSION", func(t *testing.T) *compare.Comparison {
			return storedComparison(t, "example-2.6.0", "example-2.6.1-slow")
		}},
		{"release A/A", func(t *testing.T) *compare.Comparison { return releaseComparison(t, 1) }},
		{"release +8%", func(t *testing.T) *compare.Comparison { return releaseComparison(t, 1.08) }},
		{"paired fixture", func(*testing.T) *compare.Comparison { return pairedFixture() }},
		{"descriptive fixture", func(*testing.T) *compare.Comparison { return descriptiveFixture() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c(t)
			var b bytes.Buffer
			if err := Render(&b, FormatText, Report{Comparison: c}); err != nil {
				t.Fatal(err)
			}
			// The headline, the verdict and the table: the notes under it are
			// a line each, for grep, and a terminal wraps them.
			table, _, _ := strings.Cut(b.String()[strings.Index(b.String(), "\n\n")+2:], "\n\n")
			head := b.String()[:strings.Index(b.String(), "\n\n")] + "\n" + table
			widest := 0
			for i, l := range strings.Split(head, "\n") {
				n := utf8.RuneCountInString(l)
				widest = max(widest, n)
				if n > TextWidth {
					t.Errorf("line %d is %d columns (limit %d): %q", i+1, n, TextWidth, l)
				}
			}
			rows := 0
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  - ") && strings.TrimSpace(l) != "" {
					rows++
				}
			}
			if rows < len(c.Metrics) {
				t.Errorf("%d table rows for %d metrics:\n%s", rows, len(c.Metrics), b.String())
			}
			var wide bytes.Buffer
			if err := Render(&wide, FormatText, Report{Comparison: c, Wide: true}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(wide.String(), "regr. bound") || strings.Contains(b.String(), "regr. bound") {
				t.Error("--wide should add the bounds' columns the compact table leaves out")
			}
			t.Logf("%s: %d metrics, widest line %d columns", tc.name, len(c.Metrics), widest)
		})
	}
}

var unitInCell = regexp.MustCompile(`\d (µs|ms|s|ops/s|B|KiB|MiB)\b`)

// TestCompactTableOneUnitARow: both sides' figures of a row share the
// unit column's unit, with the row's decimals ("997 µs" never meets "1 ms").
func TestCompactTableOneUnitARow(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		m                    compare.MetricResult
		unit, base, cand, ch string
	}{
		{"across the ms boundary", compare.MetricResult{Metric: "p99", Op: "READ", Unit: "us", Baseline: 1000, Candidate: 997, Ratio: 0.997, Status: compare.Unchanged,
			CILow: 0.991, CIHigh: 1.004, BaselineValues: []float64{990, 1010}, CandidateValues: []float64{997, 997}},
			"ms", "1.00 cv 1%", "1.00 cv 0%", "-0.30% [-0.90, +0.40]"},
		{"microseconds", compare.MetricResult{Metric: "p50", Op: "READ", Unit: "us", Baseline: 641, Candidate: 647.4, Ratio: 1.01, CILow: 0.99, CIHigh: 1.03, Status: compare.Unchanged},
			"µs", "641", "647", "+1.0% [-1.0, +3.0]"},
		{"throughput", compare.MetricResult{Metric: "throughput", Op: "ALL", Unit: "ops/s", Baseline: 9998, Candidate: 12001.4, Ratio: 1.2, Status: compare.Improved, CILow: 1.1, CIHigh: 1.3},
			"ops/s", "9998", "12001", "+20.0% [+10.0, +30.0]"},
		{"bytes", compare.MetricResult{Metric: "alloc_per_op", Op: "ALL", Unit: "B", Baseline: 900, Candidate: 2048, Ratio: 2.27, Status: compare.Regressed, CILow: 2.1, CIHigh: 2.4},
			"KiB", "0.88", "2.00", "+127% [+110, +140]"},
		{"no interval", compare.MetricResult{Metric: "mean", Op: "SCAN", Unit: "us", Baseline: 1.2e6, Candidate: 1.25e6, Ratio: 1.04, CILow: math.NaN(), CIHigh: math.Inf(1), Status: compare.Inconclusive},
			"s", "1.20", "1.25", "+4.0%"},
		{"a side below a bound", compare.MetricResult{Metric: "p95", Op: "READ", Unit: "us", Baseline: 1000, BaselineBelow: true, Candidate: 2000, Ratio: math.NaN(), Status: compare.Descriptive},
			"ms", "< 1.00", "2.00", "n/a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compactCells(tc.m)
			base := strings.TrimSpace(r.baseline + " " + r.baseSpread)
			cand := strings.TrimSpace(r.candidate + " " + r.candSpread)
			change := strings.TrimSpace(r.change + " " + r.interval)
			if r.unit != tc.unit || base != tc.base || cand != tc.cand || change != tc.ch {
				t.Errorf("got unit %q, baseline %q, candidate %q, change %q; want %q, %q, %q, %q", r.unit, base, cand, change, tc.unit, tc.base, tc.cand, tc.ch)
			}
			for _, cell := range []string{r.baseline, r.candidate} {
				if unitInCell.MatchString(cell) {
					t.Errorf("cell %q carries a unit of its own", cell)
				}
			}
		})
	}
}

// TestCompactTableSymbols: no "~" (benchstat's "not significant"), the
// status spelled out, and a descriptive comparison says so once (its
// verdict line), not in every row.
func TestCompactTableSymbols(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, FormatText, Report{Comparison: pairedFixture()}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "~") {
		t.Errorf("the table prints \"~\", which benchstat users read as \"not significant\":\n%s", b.String())
	}
	if !strings.Contains(b.String(), "UNCHANGED") {
		t.Error("an unchanged row should spell its status")
	}
	b.Reset()
	if err := Render(&b, FormatText, Report{Comparison: descriptiveFixture()}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "DESCRIPTIVE ("); n > 0 {
		t.Errorf("%d rows say DESCRIPTIVE (...); the headline says it once:\n%s", n, out)
	}
	if n := strings.Count(out, DescriptiveNote); n != 1 {
		t.Errorf("a descriptive report says %q %d times, want once (the verdict line):\n%s", DescriptiveNote, n, out)
	}
	if strings.Contains(out, "[CI]") || strings.Contains(out, "status") {
		t.Errorf("a descriptive table has no interval and no status column:\n%s", out)
	}
}

// TestWideTableGolden: --wide keeps every column of the comparison.
func TestWideTableGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, FormatText, Report{Comparison: pairedFixture(), Wide: true}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "paired_wide.txt")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./harness/report -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("%s differs from golden file; got:\n%s", path, b.String())
	}
}

func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"one two three four", 9, "one two\nthree\nfour"},
		{"  - a bullet that wraps", 12, "  - a bullet\n    that\n    wraps"},
		{"averyverylongword x", 5, "averyverylongword\nx"},
		{"µµµµ µµµµ", 9, "µµµµ µµµµ"},
	} {
		if got := wrapLine(tc.in, tc.width); got != tc.want {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
