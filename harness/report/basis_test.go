package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/compare"
)

// names lists the rows' names.
func names(ms []compare.MetricResult) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = rowName(m)
	}
	return out
}

// TestVerdictBasisPicksTheRowsEachVerdictRestsOn: REGRESSION's regressed
// rows (latency first), the undecided apart; PASS's rows over several
// workloads, those that hold the PASS before those that only detect, the
// undecided one kept; INCONCLUSIVE's rows that hold the PASS back.
func TestVerdictBasisPicksTheRowsEachVerdictRestsOn(t *testing.T) {
	h9 := verdictBasis(storedRun(t, "h9"))
	if got := names(h9.Rows)[:3]; !slices.Equal(got, []string{"all workloads cpu_per_op", "all workloads alloc_per_op", "all workloads process_cpu_per_op"}) {
		t.Errorf("PASS rests first on %q, want the cost rows over all workloads", got)
	}
	if len(h9.Rows) != 11 || !slices.Equal(names(h9.Undecided), []string{"workloade SCAN p95"}) || len(h9.Within) != 42 {
		t.Errorf("PASS: %d rows, undecided %q, %d within; want 11, [workloade SCAN p95], 42", len(h9.Rows), names(h9.Undecided), len(h9.Within))
	}
	r260 := verdictBasis(storedRun(t, "r260"))
	if got := names(r260.Rows); !slices.Equal(got, []string{"READ-heavy workloads cpu_per_op", "all workloads cpu_per_op"}) || len(r260.Undecided) != 18 {
		t.Errorf("REGRESSION rests on %q with %d undecided, want the two cost rows that regressed and 18", got, len(r260.Undecided))
	}
	latency := pairedFixture()
	latency.Metrics = append(latency.Metrics, compare.MetricResult{Workload: "workloada", Op: "ALL", Metric: "cpu_per_op", Ratio: 1.5, CILow: 1.4, CIHigh: 1.6, Tolerance: 0.05, Status: compare.Regressed, Gated: true})
	if got := names(verdictBasis(latency).Rows); !slices.Equal(got, []string{"workloada READ p99", "workloada cpu_per_op"}) {
		t.Errorf("REGRESSION rests on %q, want latency before the larger cost", got)
	}
	inc := pairedFixture()
	inc.Verdict, inc.Metrics[0].Status, inc.HeldRate = compare.VerdictInconclusive, compare.Inconclusive, nil
	inc.Metrics[3].DetectOnly = true // workloada UPDATE p99.9 only detects
	b := verdictBasis(inc)
	if got := names(b.Rows); !slices.Equal(got, []string{"workloada READ p99"}) || !slices.Equal(names(b.Undecided), []string{"workloada UPDATE p99.9"}) {
		t.Errorf("INCONCLUSIVE rests on %q, undecided %q; want the row that holds the PASS back, and the one that only detects apart", got, names(b.Undecided))
	}
	if l := verdictLine(inc); l != "INCONCLUSIVE: nothing regressed, but 1 row could not be shown within tolerance; run more pairs" {
		t.Errorf("verdict line %q", l)
	}
}

// TestShownStatusNeverContradictsItsInterval: an UNCHANGED row whose
// interval leaves out no change reads "within" its tolerance; one whose
// interval holds no change, and every other status, read as they are.
func TestShownStatusNeverContradictsItsInterval(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		s      compare.Status
		want   string
	}{
		{0.841, 0.957, compare.Unchanged, "within ±20%"},
		{1.002, 1.022, compare.Unchanged, "within ±20%"},
		{0.95, 1.01, compare.Unchanged, "UNCHANGED"},
		{0.6, 0.9, compare.NotWorse, "NOT WORSE"},
		{1.1, 1.3, compare.Regressed, "REGRESSED"},
	} {
		m := compare.MetricResult{Metric: "process_cpu_per_op", Ratio: (tc.lo + tc.hi) / 2, CILow: tc.lo, CIHigh: tc.hi, Tolerance: 0.2, Status: tc.s}
		if got := shownStatus(m); got != tc.want {
			t.Errorf("%s [%g, %g]: %q, want %q", tc.s, tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestDetectSaysEachClassOnce: what the run could see by class of rows,
// from the row over several workloads to the least sensitive workload's,
// the costs one class where a line has room for one; each class's
// smallest alone when the ranges would not fit.
func TestDetectSaysEachClassOnce(t *testing.T) {
	c := storedRun(t, "h9")
	if got := detectShort(c, TextWidth); got != "could see (power 0.8): p50 +5% to +39%, p95 +15% to +121%, p99 +30% to +136%, cost +5% to +63%" {
		t.Errorf("short line %q", got)
	}
	if got := detectShort(c, 60); got != "could see (power 0.8): p50 +5%, p95 +15%, p99 +30%, cost +5%" {
		t.Errorf("narrow line %q", got)
	}
	tbl := detectTable(c)
	for _, want := range []string{"  p95                 +15%    +45% to +121%  workloade SCAN", "  process_cpu_per_op  +15%    +37% to +63%   workloadc"} {
		if !strings.Contains(tbl, want) {
			t.Errorf("class table lacks %q:\n%s", want, tbl)
		}
	}
}

// TestTextNotesAreGroupedNotOneAWorkload: over the stored PASS, a note
// compare wrote on every workload (throughput at a target rate, a
// percentile kept from gating, pairs left out) is one line naming them,
// and the held rates of workloads that held every trial one line.
func TestTextNotesAreGroupedNotOneAWorkload(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, FormatText, Report{Comparison: storedRun(t, "h9")}); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(b.String(), "\n    ", " ")
	for _, tc := range []struct {
		text string
		n    int
	}{
		{"throughput not gated", 1}, {"p99 not gated", 2}, {"p95 not gated", 1}, {"left out", 1}, {"held rate", 1}, {"primary:", 0},
	} {
		if got := strings.Count(text, tc.text); got != tc.n {
			t.Errorf("%q %d times, want %d:\n%s", tc.text, got, tc.n, text)
		}
	}
	for _, want := range []string{
		"  - workloada, workloadb, workloadc, workloadd, workloade, workloadf: throughput not gated",
		"  - workloada ALL process_cpu_per_op [+45.2%], workloadc ALL cpu_per_op [-14.3%], process_cpu_per_op [-34.4%], workloade ALL process_cpu_per_op [+54.8%]: pairs left out",
		"  - held rate: workloada, workloadb, workloadc, workloadd, workloade, workloadf held 1000 ops/s (workloade 400) in every trial of both sides: UNCHANGED, gated",
		"  - all workloads ALL, READ-heavy workloads READ, all workloads reads, all workloads writes: rows over several workloads",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

// TestHTMLFoldsProfilesThatNameNoFrame: a regressed workload whose
// differentials name no frame is folded under its heading; one that names
// a frame shows its flame graphs.
func TestHTMLFoldsProfilesThatNameNoFrame(t *testing.T) {
	r := profiledReport(t)
	quiet := slowGetProfile(t, "workloadc")
	quiet.CPU.Diff.Frames = nil // nothing grew beyond chance
	quiet.Alloc.Diff = nil
	r.Profiles = append(r.Profiles, quiet)
	r.Comparison.Metrics = append(r.Comparison.Metrics, compare.MetricResult{Workload: "workloadc", Op: "ALL", Metric: "cpu_per_op", Ratio: 1.2, CILow: 1.1, CIHigh: 1.3, Tolerance: 0.05, Status: compare.Regressed, Gated: true})
	var b strings.Builder
	if err := Render(&b, FormatHTML, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, "<h2>differential profile, workloada") {
		t.Error("workloada's profile, which names SlowGetObserver.burn, is not shown")
	}
	if !strings.Contains(page, "<details><summary><strong>differential profile, workloadc") || !strings.Contains(page, "no frame grew beyond chance (flame graphs: 1)") {
		t.Error("workloadc's profile, which names no frame, is not folded")
	}
}
