package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// atRate sets every trial's target to 1000 ops/s and its achieved rate to
// held times that.
func atRate(ts []results.Trial, held float64) {
	for i := range ts {
		ts[i].TargetOpsPerSec, ts[i].AchievedOpsPerSec = 1000, 1000*held
	}
}

func TestHeldRate(t *testing.T) {
	tests := []struct {
		name           string
		baseAt, candAt float64
		wantHeld       Status
		wantVerdict    Verdict
	}{
		{"both hold: throughput shown, check unchanged", 1, 1, Unchanged, Pass},
		{"only the candidate misses, in every pair", 1, 0.8, Regressed, Regression},
		{"only the baseline misses", 0.8, 1, Improved, Pass},
		{"neither holds it: invalid", 0.8, 0.8, Unchanged, VerdictInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c := noisy(5, 6, 1, 0.01)
			bt, ct := handPairs("A", b, c, 1)
			atRate(bt, tt.baseAt)
			atRate(ct, tt.candAt)
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(cmp.HeldRate) != 1 || !cmp.HeldRate[0].Gated {
				t.Fatalf("held rate %+v, want one gated check", cmp.HeldRate)
			}
			h := cmp.HeldRate[0]
			if tt.wantVerdict != VerdictInvalid && h.Status != tt.wantHeld {
				t.Errorf("held-rate status %s, want %s (%+v)", h.Status, tt.wantHeld, h)
			}
			if cmp.Verdict != tt.wantVerdict {
				t.Errorf("verdict %s, want %s (invalid %q)", cmp.Verdict, tt.wantVerdict, cmp.Invalid)
			}
			if tt.wantVerdict == VerdictInvalid && !strings.Contains(cmp.Invalid, "lower run.target") {
				t.Errorf("invalid %q does not say to lower the rate", cmp.Invalid)
			}
			tp := find(t, cmp, "A", OpAll, MetricThroughput)
			if tp.Gated || tp.Note == "" {
				t.Errorf("throughput at a target rate: gated %v note %q, want shown with a note", tp.Gated, tp.Note)
			}
		})
	}
}

func TestUnthrottledThroughputStillGates(t *testing.T) {
	b, c := noisy(6, 6, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if tp := find(t, cmp, "A", OpAll, MetricThroughput); !tp.Gated || len(cmp.HeldRate) != 0 {
		t.Errorf("unthrottled: throughput gated %v, %d held-rate checks; want throughput gated and no check", tp.Gated, len(cmp.HeldRate))
	}
}

func TestPairedMissPValue(t *testing.T) {
	if p := pairedMissP(3, 3); math.Abs(p-1.0/64) > 1e-12 {
		t.Errorf("all 3 pairs against the candidate: p %g, want 4^-3", p)
	}
	if p := pairedMissP(5, 0); p != 1 {
		t.Errorf("no difference: p %g, want 1", p)
	}
	if a, b := pairedMissP(8, 3), pairedMissP(8, 5); !(a > b && b > 0) {
		t.Errorf("p not decreasing in the difference: %g then %g", a, b)
	}
	// Fisher: 5 of 5 candidate trials missed, none of 5 baseline: 1/C(10,5).
	if p := fisherP(5, 5, 0, 5); math.Abs(p-1.0/252) > 1e-12 {
		t.Errorf("fisher p %g, want 1/252", p)
	}
}

func TestTailSampleRule(t *testing.T) {
	tests := []struct {
		ops  int64
		want string // metric that gates for p99
	}{
		{10000, MetricP99},
		{5000, MetricP99},
		{4999, MetricP95},
		{1000, MetricP95},
		{999, MetricP50},
		{100, MetricP50},
		{99, MetricMean},
	}
	for _, tt := range tests {
		b, c := noisy(7, 6, 1, 0.01)
		bt, ct := handPairs("A", b, c, 1)
		for i := range bt {
			op := bt[i].Ops["READ"]
			op.Count = tt.ops + int64(i) // the fewest decides
			bt[i].Ops["READ"], ct[i].Ops["READ"] = op, op
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP99}})
		if err != nil {
			t.Fatal(err)
		}
		var gated []string
		for _, m := range cmp.Metrics {
			if m.Gated {
				gated = append(gated, m.Metric)
				if m.OpsPerTrial != tt.ops {
					t.Errorf("ops %d: %s shows %d operations per trial", tt.ops, m.Metric, m.OpsPerTrial)
				}
			}
		}
		if len(gated) != 1 || gated[0] != tt.want {
			t.Errorf("%d operations per trial: gated %v, want [%s]", tt.ops, gated, tt.want)
			continue
		}
		if tt.want != MetricP99 {
			g := find(t, cmp, "A", "READ", tt.want)
			p99 := find(t, cmp, "A", "READ", MetricP99)
			if g.GatedFor != MetricP99 || !strings.Contains(p99.Note, "not gated") || !strings.Contains(g.Note, "in place of p99") {
				t.Errorf("%d ops: fallback %s gated for %q, notes %q / %q", tt.ops, tt.want, g.GatedFor, p99.Note, g.Note)
			}
		}
	}
	if OpsNeeded(MetricP99) != 5000 || OpsNeeded(MetricP95) != 1000 || OpsNeeded(MetricP999) != 50000 || OpsNeeded(MetricMean) != 0 {
		t.Errorf("OpsNeeded: p99 %d p95 %d p99.9 %d mean %d", OpsNeeded(MetricP99), OpsNeeded(MetricP95), OpsNeeded(MetricP999), OpsNeeded(MetricMean))
	}
}

func TestPassNeedsOnlyNonInferiority(t *testing.T) {
	// A candidate 5% faster with a noisy interval reaching below the
	// band: not equivalent, but no worse, so the gate passes.
	b, c := noisy(8, 6, 0.95, 0.06)
	bt, ct := handPairs("A", b, c, 1)
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP99}})
	if err != nil {
		t.Fatal(err)
	}
	m := find(t, cmp, "A", "READ", MetricP99)
	if m.Status != NotWorse || cmp.Verdict != Pass || m.PassBound > 1+m.Tolerance {
		t.Fatalf("p99 %s (pass bound %g, CI [%g, %g]), verdict %s: want a PASS by non-inferiority", m.Status, m.PassBound, m.CILow, m.CIHigh, cmp.Verdict)
	}
	bi, ci := noisy(9, 6, 0.6, 0.01)
	bt, ct = handPairs("A", bi, ci, 1)
	cmp, err = Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP99}})
	if err != nil {
		t.Fatal(err)
	}
	if m := find(t, cmp, "A", "READ", MetricP99); m.Status != Improved || cmp.Verdict != Pass {
		t.Errorf("40%% faster: %s, verdict %s; an improvement must not block a PASS", m.Status, cmp.Verdict)
	}
}

func TestPooledRunsCountTheirLooks(t *testing.T) {
	b, c := noisy(10, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	b2, c2 := noisy(11, 4, 1, 0.01)
	bt2, ct2 := handPairs("A", b2, c2, 1)
	for i := range bt2 {
		bt2[i].RunID, ct2[i].RunID = "r2", "r2"
		bt2[i].ID, ct2[i].ID = bt2[i].ID+"-2", ct2[i].ID+"-2"
		bt2[i].Start = bt2[i].Start.Add(24 * 3600e9)
		ct2[i].Start = ct2[i].Start.Add(24 * 3600e9)
	}
	cmp, err := Compare(simManifest("b", append(bt, bt2...)), simManifest("c", append(ct, ct2...)), Config{Looks: 2})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Runs != 2 || cmp.Looks != 4 || math.Abs(cmp.LookAlpha-0.05/4) > 1e-12 {
		t.Errorf("runs %d looks %d look alpha %g, want 2 runs, 4 looks, 0.0125", cmp.Runs, cmp.Looks, cmp.LookAlpha)
	}
}

// TestFlaggedTrialsNamed: a trial whose window held a flush or compaction
// is named in a warning with what happened; unflagged trials are not.
func TestFlaggedTrialsNamed(t *testing.T) {
	bt := []results.Trial{{Workload: "workloada", Pair: 1, Server: &results.ServerStats{Flushes: 1}}, {Workload: "workloada", Pair: 2, Server: &results.ServerStats{}}}
	ct := []results.Trial{{Workload: "workloadc", Pair: 0, Server: &results.ServerStats{Compactions: 2, Splits: 1}}, {Workload: "workloadc", Pair: 1}}
	w := flaggedTrials(bt, ct)
	for _, want := range []string{"2 trial(s)", "workloada pair 1 baseline (1 flush)", "workloadc pair 0 candidate (2 compaction, 1 split)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if w := flaggedTrials(bt[1:], ct[1:]); w != "" {
		t.Errorf("no flagged trial, warning %q", w)
	}
}

func TestTailFallbackReadsOnlyTheTailNote(t *testing.T) {
	r := MetricResult{Metric: MetricP95, OpsPerTrial: 117, Note: TailNotes(MetricP95, MetricP50, []int64{117})}
	if fb := TailFallback(r); fb != MetricP50 {
		t.Errorf("TailFallback of a tail note = %q, want p50", fb)
	}
	for _, other := range []MetricResult{
		{Metric: MetricP95, OpsPerTrial: 117, Note: "p95 printed as 0 ms"}, // another note
		{Metric: MetricP95, OpsPerTrial: 5000, Note: r.Note},               // enough operations
		{Metric: MetricP95, Note: r.Note},                                  // no count stored
	} {
		if fb := TailFallback(other); fb != "" {
			t.Errorf("TailFallback(%+v) = %q, want none", other, fb)
		}
	}
	if got, want := TailNotes(MetricP99, MetricP95, []int64{2000, 2000}), tailNote(MetricP99, MetricP95, 2000); got != want {
		t.Errorf("equal counts: %q, want the single note %q", got, want)
	}
	if got := TailNotes(MetricP95, MetricP50, []int64{117, 104, 108}); !strings.Contains(got, "only 104 to 117 operations") {
		t.Errorf("several counts: %q, want their range", got)
	}
}

// TestStandInOnlyDetectsWhereItsMetricsDid: the mean standing in for
// percentiles whose trials are too short gates as they did: it only
// detects when every one it stands for only detected (compare.detect_only),
// and decides when any of them decided.
func TestStandInOnlyDetectsWhereItsMetricsDid(t *testing.T) {
	for _, tc := range []struct {
		detect []string
		want   bool
	}{
		{[]string{MetricP95, MetricP99}, true},
		{[]string{MetricP95}, false},
		{nil, false},
	} {
		b, c := noisy(7, 6, 1, 0.01)
		bt, ct := handPairs("A", b, c, 1)
		for i := range bt {
			op := bt[i].Ops["READ"]
			op.Count = 90
			bt[i].Ops["READ"], ct[i].Ops["READ"] = op, op
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP95, MetricP99}, DetectOnly: tc.detect})
		if err != nil {
			t.Fatal(err)
		}
		mean := find(t, cmp, "A", "READ", MetricMean)
		if !mean.Gated || mean.GatedFor == "" || mean.DetectOnly != tc.want {
			t.Errorf("detect_only %v: mean gated %v for %q, detect only %v; want gated, detect only %v", tc.detect, mean.Gated, mean.GatedFor, mean.DetectOnly, tc.want)
		}
	}
}
