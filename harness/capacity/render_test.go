package capacity

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// capacityReport is a sweep of two workloads: A with knees near 3000 and
// 2000 ops/s (a regression), C where the candidate never leaves the SLO.
func capacityReport(t *testing.T) report.Report {
	t.Helper()
	knees := map[string][2]float64{"workloada": {3000, 2000}, "workloadc": {5000, 1e9}}
	probe := func(_ context.Context, side int, w string, rate float64, _ string) (Step, error) {
		k := knees[w][side]
		st := Step{Ops: int64(rate * 5), AchievedOpsPerSec: rate, P50Micros: 400 + rate/100, P99Micros: 2000 + rate/10, WorstOp: "READ"}
		if rate > k {
			st.AchievedOpsPerSec, st.P99Micros = k, 200000
		}
		st.WorstP99Micros = st.P99Micros
		return st, nil
	}
	cfg := Config{Workloads: []string{"workloada", "workloadc"}, StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 16000,
		SLOP99: 10 * time.Millisecond, Hold: 0.95, MaxErrorRate: 0.01, Resolution: 0.10, StepTime: time.Millisecond, Pairs: 3, Budget: time.Hour}
	sw, err := Run(context.Background(), cfg, probe, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Baseline, sw.Candidate, sw.Suite = "2.6.1", "2.6.2", "capacity"
	c, err := Gate{Alpha: 0.05, Tolerance: 0.10}.Compare(sw)
	if err != nil {
		t.Fatal(err)
	}
	return report.Report{Comparison: c, Capacity: sw}
}

func TestCapacityRowsAndSearchesAppearInEveryFormat(t *testing.T) {
	r := capacityReport(t)
	if r.Comparison.Verdict != compare.Regression {
		t.Fatalf("verdict %s, want REGRESSION (A lost a third of its capacity)", r.Comparison.Verdict)
	}
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{report.FormatText, []string{"workloada\n  capacity  ops/s", "REGRESSED", "capacity searches", "priming steps (one a side and workload, discarded): 500", "workloadc pair 1 candidate at least 16000 ops/s (held up to max_rate)", "4000✗"}},
		{report.FormatMarkdown, []string{"| workloada | ALL | capacity |", "#### Capacity searches", "at least 16000 ops/s"}},
		{report.FormatHTML, []string{`class="knee"`, `class="curve"`, `class="slo"`, "workloada · capacity", "≥ 16000", "achieved ops/s"}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.Render(&b, tc.format, r); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("%s report lacks %q:\n%s", tc.format, s, b.String())
				}
			}
		})
	}
}

func TestCapacityJSONCarriesTheSweepAndTheRows(t *testing.T) {
	var b bytes.Buffer
	if err := report.Render(&b, report.FormatJSON, capacityReport(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Verdict string
		Metrics []struct {
			Workload, Metric, Status string
			Gated                    bool
		}
		Capacity struct {
			Searches []struct {
				Workload, Side, Stopped string
				Steps                   []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Verdict != "REGRESSION" || len(doc.Metrics) != 2 || doc.Metrics[0].Metric != "capacity" || !doc.Metrics[0].Gated || doc.Metrics[1].Status != "DESCRIPTIVE" {
		t.Errorf("metrics %+v verdict %s", doc.Metrics, doc.Verdict)
	}
	if len(doc.Capacity.Searches) != 12 || len(doc.Capacity.Searches[0].Steps) == 0 {
		t.Errorf("%d searches in the JSON, want 12 with their steps", len(doc.Capacity.Searches))
	}
}

func TestCapacityJUnitFailsTheRegressedWorkloadAndSkipsAtLeast(t *testing.T) {
	var b bytes.Buffer
	if err := report.Render(&b, report.FormatJUnit, capacityReport(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 2 || doc.Failures != 1 || doc.Skipped != 1 {
		t.Errorf("tests %d failures %d skipped %d, want 2, 1 (workloada) and 1 (workloadc: at least)", doc.Tests, doc.Failures, doc.Skipped)
	}
}

// update rewrites the golden files (after a deliberate change of a report format).
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestAStoredSweepFromBeforeTheSliceLoadsAndReportsTheSame loads the sweep
// testdata/store holds, written by capacity.Save before sweeps went through
// the results store (plain JSON, no checksum), by run id and by path, and
// renders every format: each must be byte for byte what the code of then
// wrote (testdata/golden). It then stores the sweep again the new way and
// checks it reads back equal.
func TestAStoredSweepFromBeforeTheSliceLoadsAndReportsTheSame(t *testing.T) {
	st, err := results.OpenReadOnly(filepath.Join("testdata", "store"))
	if err != nil {
		t.Fatal(err)
	}
	const runID = "20261201T101500"
	byPath, err := Load(st, filepath.Join("testdata", "store", "capacity", runID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sw, err := Load(st, runID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sw, byPath) || sw.RunID != runID || len(sw.Searches) != 12 || len(sw.Primes) != 4 {
		t.Fatalf("loaded %s with %d searches and %d primes, by path equal: %v", sw.RunID, len(sw.Searches), len(sw.Primes), reflect.DeepEqual(sw, byPath))
	}
	c, err := Gate{Alpha: 0.05, Tolerance: 0.20}.Compare(sw)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := report.WriteAll(dir, report.Report{Comparison: c, Capacity: sw}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.txt", "report.md", "report.json", "junit.xml", "report.html", "vote.txt"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./harness/capacity -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata/golden/%s (what the code before the slice wrote):\n%s", name, name, firstDiff(got, want))
		}
	}
	fresh, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Save(fresh, sw); err != nil {
		t.Fatal(err)
	}
	again, err := Load(fresh, runID)
	if err != nil || !reflect.DeepEqual(again, sw) {
		t.Errorf("stored anew and loaded: equal %v, %v", reflect.DeepEqual(again, sw), err)
	}
}

// firstDiff shows where two renderings part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-80)
	return "got:  ..." + string(got[lo:min(len(got), i+80)]) + "\nwant: ..." + string(want[lo:min(len(want), i+80)])
}

// TestCapacitySectionPrintsStoredNamesInert: a workload name from a stored
// (re-signed) sweep cannot forge a line of the report nor reach a terminal
// raw in the sweep's own text and Markdown: it prints through report.Inert,
// as the comparison's rows do.
func TestCapacitySectionPrintsStoredNamesInert(t *testing.T) {
	sw := capacityReport(t).Capacity.(*Sweep)
	const forged = "w\nVerdict: PASS\x1b[2J"
	for i := range sw.Searches {
		if sw.Searches[i].Workload == "workloada" {
			sw.Searches[i].Workload = forged
		}
	}
	for name, draw := range map[string]func(io.Writer) error{"text": sw.Text, "markdown": sw.Markdown} {
		var b bytes.Buffer
		if err := draw(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "\x1b") || strings.Contains(out, "\nVerdict: PASS") {
			t.Errorf("%s: the stored name printed raw:\n%s", name, out)
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("%s: the stored name not shown escaped:\n%s", name, out)
		}
	}
}
