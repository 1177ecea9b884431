package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/compare"
)

// capacityReport is a sweep of two workloads: A with knees near 3000 and
// 2000 ops/s (a regression), C where the candidate never leaves the SLO.
func capacityReport(t *testing.T) Report {
	t.Helper()
	knees := map[string][2]float64{"workloada": {3000, 2000}, "workloadc": {5000, 1e9}}
	probe := func(_ context.Context, side int, w string, rate float64, _ string) (capacity.Step, error) {
		k := knees[w][side]
		st := capacity.Step{Ops: int64(rate * 5), AchievedOpsPerSec: rate, P50Micros: 400 + rate/100, P99Micros: 2000 + rate/10, WorstOp: "READ"}
		if rate > k {
			st.AchievedOpsPerSec, st.P99Micros = k, 200000
		}
		st.WorstP99Micros = st.P99Micros
		return st, nil
	}
	cfg := capacity.Config{Workloads: []string{"workloada", "workloadc"}, StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 16000,
		SLOP99: 10 * time.Millisecond, Hold: 0.95, MaxErrorRate: 0.01, Resolution: 0.10, StepTime: time.Millisecond, Pairs: 3, Budget: time.Hour}
	sw, err := capacity.Run(context.Background(), cfg, probe, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Baseline, sw.Candidate, sw.Suite = "2.6.1", "2.6.2", "capacity"
	c, err := compare.CompareCapacity(sw, compare.CapacityConfig{Alpha: 0.05, Tolerance: 0.10})
	if err != nil {
		t.Fatal(err)
	}
	return Report{Comparison: c, Capacity: sw}
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
		{FormatText, []string{"workloada  ALL  capacity", "REGRESSED", "capacity searches", "priming steps (one a side and workload, discarded): 500", "workloadc pair 1 candidate at least 16000 ops/s (held up to max_rate)", "4000✗"}},
		{FormatMarkdown, []string{"| workloada | ALL | capacity |", "#### Capacity searches", "at least 16000 ops/s"}},
		{FormatHTML, []string{`class="knee"`, `class="curve"`, `class="slo"`, "workloada · capacity", "≥ 16000", "achieved ops/s"}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, tc.format, r); err != nil {
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
	if err := Render(&b, FormatJSON, capacityReport(t)); err != nil {
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
	if err := Render(&b, FormatJUnit, capacityReport(t)); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 2 || doc.Failures != 1 || doc.Skipped != 1 {
		t.Errorf("tests %d failures %d skipped %d, want 2, 1 (workloada) and 1 (workloadc: at least)", doc.Tests, doc.Failures, doc.Skipped)
	}
}

// TestCapacityCurveRendersInChromium draws one workload's latency-throughput
// curve alone and looks at the screenshot: both sides' curves and the SLO line
// must be drawn, not merely present in the markup.
func TestCapacityCurveRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "curve.html")
	r := capacityReport(t)
	if err := os.WriteFile(page, []byte("<!DOCTYPE html><html><body>"+curveSVG(r.Capacity, "workloada")+"</body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=700,400", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, hex string }{
		{"baseline curve and knee", colBase}, {"candidate curve and knee", colCand}, {"SLO line", "#cf222e"},
	} {
		if n := countColour(img, c.hex); n < 40 {
			t.Errorf("%s (%s): %d pixels in the screenshot, want it drawn", c.what, c.hex, n)
		}
	}
}
