package report_test

import (
	"context"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/report"
)

// capacityReport is a sweep of one workload whose candidate's knee (2000
// ops/s) lies below the baseline's (3000 ops/s).
func capacityReport(t *testing.T) *capacity.Sweep {
	t.Helper()
	knees := [2]float64{3000, 2000}
	probe := func(_ context.Context, side int, _ string, rate float64, _ string) (capacity.Step, error) {
		st := capacity.Step{Ops: int64(rate * 5), AchievedOpsPerSec: rate, P50Micros: 400 + rate/100, P99Micros: 2000 + rate/10, WorstOp: "READ"}
		if rate > knees[side] {
			st.AchievedOpsPerSec, st.P99Micros = knees[side], 200000
		}
		st.WorstP99Micros = st.P99Micros
		return st, nil
	}
	cfg := capacity.Config{Workloads: []string{"workloada"}, StartOpsPerSec: 500, Factor: 2, MaxOpsPerSec: 16000,
		SLOP99: 10 * time.Millisecond, Hold: 0.95, MaxErrorRate: 0.01, Resolution: 0.10, StepTime: time.Millisecond, Pairs: 3, Budget: time.Hour}
	sw, err := capacity.Run(context.Background(), cfg, probe, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Baseline, sw.Candidate = "2.6.1", "2.6.2"
	return sw
}

// TestCapacityCurveRendersInChromium draws the capacity section (its
// latency-throughput curves) as the report's page holds it and looks at the
// screenshot: both sides' curves and the SLO line
// must be drawn, not merely present in the markup.
func TestCapacityCurveRendersInChromium(t *testing.T) {
	bin := report.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "curve.html")
	if err := os.WriteFile(page, []byte("<!DOCTYPE html><html><body>"+string(capacityReport(t).HTML())+"</body></html>"), 0o644); err != nil {
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
		{"baseline curve and knee", report.ColourBaseline}, {"candidate curve and knee", report.ColourCandidate}, {"SLO line", "#cf222e"},
	} {
		if n := report.CountColour(img, c.hex); n < 40 {
			t.Errorf("%s (%s): %d pixels in the screenshot, want it drawn", c.what, c.hex, n)
		}
	}
}
