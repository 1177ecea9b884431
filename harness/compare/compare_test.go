package compare

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

// handTrial is a trial whose every latency metric is scale times a fixed
// profile (so the log ratio of every metric is log(scale)).
func handTrial(workload string, pair, order, slot int, scale, tput float64) results.Trial {
	l := results.Latency{P50Micros: 400 * scale, P95Micros: 900 * scale, P99Micros: 1500 * scale, P999Micros: 4000 * scale, MeanMicros: 500 * scale}
	return results.Trial{
		ID: workload + "-" + string(rune('a'+pair)) + string(rune('0'+order)), RunID: "r1",
		Workload: workload, Pair: pair, Order: order,
		Start:             simEpoch.Add(time.Duration(slot) * time.Minute),
		AchievedOpsPerSec: tput,
		Ops:               map[string]results.OpStats{"READ": {Count: 10000, Intended: l}},
	}
}

// handPairs builds an interleaved schedule of k pairs for one workload with
// the given per-pair scales of the candidate relative to the baseline.
func handPairs(workload string, base, cand []float64, tputRatio float64) (bt, ct []results.Trial) {
	for p := range base {
		first := p % 2 // alternate orders: randomized enough for the check
		bt = append(bt, handTrial(workload, p, first, 2*p+first, base[p], 1000))
		ct = append(ct, handTrial(workload, p, 1-first, 2*p+1-first, cand[p], 1000*tputRatio))
	}
	return bt, ct
}

func noisy(seed uint64, n int, ratio, sd float64) (base, cand []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		b := math.Exp(sd * rng.NormFloat64())
		base = append(base, b)
		cand = append(cand, b*ratio*math.Exp(sd*rng.NormFloat64()))
	}
	return base, cand
}

func find(t *testing.T, c *Comparison, workload, op, metric string) MetricResult {
	t.Helper()
	for _, m := range c.Metrics {
		if m.Workload == workload && m.Op == op && m.Metric == metric {
			return m
		}
	}
	t.Fatalf("no metric %s/%s/%s in %d results", workload, op, metric, len(c.Metrics))
	return MetricResult{}
}

func TestCompareDetectsClearRegression(t *testing.T) {
	b, c := noisy(1, 8, 1.5, 0.02)
	bt, ct := handPairs("A", b, c, 1)
	cmp, err := Compare(simManifest("2.5.0", bt), simManifest("2.6.0", ct), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Verdict != Regression || !cmp.Paired || !cmp.Interleaved {
		t.Fatalf("verdict %s paired %v interleaved %v, want REGRESSION on verified pairs; warnings %v", cmp.Verdict, cmp.Paired, cmp.Interleaved, cmp.Warnings)
	}
	m := find(t, cmp, "A", "READ", MetricP99)
	if !m.Gated || m.Status != Regressed || m.Pairs != 8 {
		t.Errorf("p99: gated %v status %s pairs %d, want gated REGRESSED on 8 pairs", m.Gated, m.Status, m.Pairs)
	}
	if m.Ratio < 1.4 || m.Ratio > 1.6 || m.CILow > m.Ratio || m.CIHigh < m.Ratio || m.CILow <= 1.1 {
		t.Errorf("ratio %g CI [%g, %g], want about 1.5 inside a CI above 1.1", m.Ratio, m.CILow, m.CIHigh)
	}
	if m.P >= cmp.LookAlpha {
		t.Errorf("Holm-adjusted p %g not below alpha %g for a REGRESSED metric", m.P, cmp.LookAlpha)
	}
	if mean := find(t, cmp, "A", "READ", MetricMean); mean.Gated || mean.Status != Regressed {
		t.Errorf("mean: gated %v status %s, want a shown (not gated) REGRESSED", mean.Gated, mean.Status)
	}
	if tp := find(t, cmp, "A", OpAll, MetricThroughput); !tp.Gated || tp.Status != Unchanged {
		t.Errorf("throughput: gated %v status %s, want gated UNCHANGED", tp.Gated, tp.Status)
	}
	if _, err := json.Marshal(cmp); err != nil {
		t.Errorf("comparison does not encode as JSON: %v", err)
	}
}

func TestCompareStatusesFromTheInterval(t *testing.T) {
	tests := []struct {
		name    string
		ratio   float64
		sd      float64
		want    Status
		verdict Verdict
	}{
		{"identical within noise", 1.0, 0.01, Unchanged, Pass},
		{"clear improvement", 0.7, 0.01, Improved, Pass},
		{"small change inside tolerance", 1.04, 0.01, Unchanged, Pass},
		{"too noisy to tell", 1.05, 0.4, Inconclusive, VerdictInconclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c := noisy(7, 8, tt.ratio, tt.sd)
			bt, ct := handPairs("A", b, c, 1)
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if m := find(t, cmp, "A", "READ", MetricP99); m.Status != tt.want {
				t.Errorf("p99 status %s (ratio %.3f CI [%.3f, %.3f]), want %s", m.Status, m.Ratio, m.CILow, m.CIHigh, tt.want)
			}
			if cmp.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", cmp.Verdict, tt.verdict)
			}
		})
	}
}

func TestThroughputDropRegresses(t *testing.T) {
	var bt, ct []results.Trial
	for p := range 8 {
		first := p % 2
		bt = append(bt, handTrial("A", p, first, 2*p+first, 1, 1000*(1+0.002*float64(p%3))))
		ct = append(ct, handTrial("A", p, 1-first, 2*p+1-first, 1, 800*(1+0.002*float64(p%2))))
	}
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
	if err != nil {
		t.Fatal(err)
	}
	m := find(t, cmp, "A", OpAll, MetricThroughput)
	if m.Status != Regressed || cmp.Verdict != Regression || m.Unit != "ops/s" {
		t.Fatalf("throughput -20%%: status %s verdict %s unit %s, want REGRESSED, REGRESSION, ops/s", m.Status, cmp.Verdict, m.Unit)
	}
	if m.RegressionBound >= 1/1.05 || m.PassBound != m.CILow {
		t.Errorf("REGRESSED throughput with regression bound %g, not below 1/(1+tau), or pass bound %g not the CI's lower end %g", m.RegressionBound, m.PassBound, m.CILow)
	}
}

func TestGatedStatusAgreesWithDisplayedInterval(t *testing.T) {
	// Whatever Holm decides, a reader checking the interval against the
	// tolerance must reach the same status.
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 9))
		var bt, ct []results.Trial
		for _, w := range []string{"A", "B", "C"} {
			b, c := noisy(seed*7+uint64(w[0]), 6, 1+0.3*rng.Float64(), 0.05)
			x, y := handPairs(w, b, c, 1)
			bt, ct = append(bt, x...), append(ct, y...)
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cmp.Metrics {
			if !m.Gated || m.Metric == MetricThroughput {
				continue
			}
			if (m.Status == Regressed) != (m.RegressionBound > 1+m.Tolerance) {
				t.Fatalf("seed %d %s/%s/%s: status %s but regression bound %g against 1+tau %g", seed, m.Workload, m.Op, m.Metric, m.Status, m.RegressionBound, 1+m.Tolerance)
			}
			if passes(m.Status) != (m.PassBound <= 1+m.Tolerance) || m.PassBound != m.CIHigh {
				t.Fatalf("seed %d %s/%s/%s: status %s but pass bound %g (CI high %g) against 1+tau %g", seed, m.Workload, m.Op, m.Metric, m.Status, m.PassBound, m.CIHigh, 1+m.Tolerance)
			}
			if (m.Status == Regressed) != (m.P < cmp.LookAlpha) {
				t.Fatalf("seed %d %s: status %s but Holm-adjusted p %g at alpha %g", seed, m.Metric, m.Status, m.P, cmp.LookAlpha)
			}
		}
	}
}

func TestCompareRefusesDifferentSuites(t *testing.T) {
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	base, cand := simManifest("b", bt), simManifest("c", ct)
	cand.Suite.Fingerprint = "other"
	if _, err := Compare(base, cand, Config{}); err == nil || !strings.Contains(err.Error(), "fingerprint") {
		t.Errorf("different fingerprints: err %v, want a refusal naming the fingerprint", err)
	}
	cand.Suite.Fingerprint = base.Suite.Fingerprint
	cand.Suite.DataSpec = "rows=5"
	if _, err := Compare(base, cand, Config{}); err == nil || !strings.Contains(err.Error(), "data spec") {
		t.Errorf("different data specs: err %v, want a refusal naming the data spec", err)
	}
	if _, err := Compare(nil, cand, Config{}); err == nil {
		t.Error("nil baseline accepted")
	}
}

func TestCompareWarnsOnEnvironment(t *testing.T) {
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	base, cand := simManifest("b", bt), simManifest("c", ct)
	cand.Environment.JDK = "21"
	cmp, err := Compare(base, cand, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(cmp, "jdk 17 vs 21") {
		t.Errorf("warnings %q, want one naming the JDK difference", cmp.Warnings)
	}
}

func TestCompareWarnsOnRegionServerCounts(t *testing.T) {
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	for _, tc := range []struct {
		base, cand int
		warn       bool
	}{{1, 2, true}, {2, 2, false}, {0, 2, false}} { // 0: stored before the count was recorded
		base, cand := simManifest("b", bt), simManifest("c", ct)
		base.RegionServers, cand.RegionServers = tc.base, tc.cand
		cmp, err := Compare(base, cand, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if got := hasWarning(cmp, "region server(s), the candidate on"); got != tc.warn {
			t.Errorf("%d vs %d region servers: warned %v, want %v (%q)", tc.base, tc.cand, got, tc.warn, cmp.Warnings)
		}
	}
}

func hasWarning(c *Comparison, part string) bool {
	for _, w := range c.Warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

func TestScheduleChecks(t *testing.T) {
	b, c := noisy(3, 6, 1, 0.01)
	t.Run("sequential schedule is flagged and unpaired", func(t *testing.T) {
		var bt, ct []results.Trial
		for p := range b {
			bt = append(bt, handTrial("A", p, 0, p, b[p], 1000))
			ct = append(ct, handTrial("A", p, 1, len(b)+p, c[p], 1000))
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Paired || cmp.Interleaved || !hasWarning(cmp, "not interleaved") {
			t.Errorf("paired %v interleaved %v warnings %q, want unpaired and flagged", cmp.Paired, cmp.Interleaved, cmp.Warnings)
		}
	})
	t.Run("order never randomized is flagged", func(t *testing.T) {
		var bt, ct []results.Trial
		for p := range b {
			bt = append(bt, handTrial("A", p, 0, 2*p, b[p], 1000))
			ct = append(ct, handTrial("A", p, 1, 2*p+1, c[p], 1000))
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Paired || !cmp.Interleaved || !hasWarning(cmp, "baseline ran first in all 6 pairs") {
			t.Errorf("paired %v interleaved %v warnings %q, want paired with an order warning", cmp.Paired, cmp.Interleaved, cmp.Warnings)
		}
	})
	t.Run("randomized interleaved pairs raise no schedule warning", func(t *testing.T) {
		bt, ct := handPairs("A", b, c, 1)
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cmp.Warnings) != 0 {
			t.Errorf("warnings %q, want none", cmp.Warnings)
		}
	})
	t.Run("duet pairs are said to be duets, interleaved ones not", func(t *testing.T) {
		for _, duet := range []bool{true, false} {
			bt, ct := handPairs("A", b, c, 1)
			if duet {
				for i := range bt {
					bt[i].Duet, ct[i].Duet = true, true
					ct[i].Start = bt[i].Start
				}
			}
			cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Paired || !cmp.Interleaved || cmp.Duet != duet || len(cmp.Warnings) != 0 {
				t.Errorf("duet trials %v: paired %v interleaved %v duet %v warnings %q", duet, cmp.Paired, cmp.Interleaved, cmp.Duet, cmp.Warnings)
			}
		}
	})
	t.Run("missing start times are warned about", func(t *testing.T) {
		bt, ct := handPairs("A", b, c, 1)
		for i := range bt {
			bt[i].Start = time.Time{}
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Paired || cmp.Interleaved || !hasWarning(cmp, "no start time") {
			t.Errorf("paired %v interleaved %v warnings %q", cmp.Paired, cmp.Interleaved, cmp.Warnings)
		}
	})
	t.Run("stored baseline from another run is compared unpaired", func(t *testing.T) {
		bt, ct := handPairs("A", b, c, 1)
		for i := range ct {
			ct[i].RunID = "r2"
		}
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Paired || !hasWarning(cmp, "unpaired") {
			t.Errorf("paired %v warnings %q, want an unpaired (Welch) comparison", cmp.Paired, cmp.Warnings)
		}
	})
	t.Run("baseline trials of other runs are left out of the pairs", func(t *testing.T) {
		bt, ct := handPairs("A", b, c, 1)
		old, _ := handPairs("A", b, c, 1)
		for i := range old {
			old[i].RunID = "r0"
		}
		cmp, err := Compare(simManifest("b", append(old, bt...)), simManifest("c", ct), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Paired || cmp.Baseline.Trials != len(bt) || !hasWarning(cmp, "other runs are left out") {
			t.Errorf("paired %v baseline trials %d warnings %q", cmp.Paired, cmp.Baseline.Trials, cmp.Warnings)
		}
	})
}

func TestCompareNeedsTwoPairs(t *testing.T) {
	bt, ct := handPairs("A", []float64{1}, []float64{1}, 1)
	_, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
	if err == nil || !strings.Contains(err.Error(), "at least 2 pairs") {
		t.Errorf("one pair: err %v, want a clear refusal", err)
	}
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"alpha too large", Config{Alpha: 0.7}, "alpha"},
		{"tolerance as a percentage", Config{Tolerances: map[string]float64{MetricP99: 10}}, "fraction"},
		{"unknown tolerance metric", Config{Tolerances: map[string]float64{"p42": 0.1}}, "unknown metric"},
		{"unknown gate metric", Config{Gate: []string{"READ/p42"}}, "unknown metric"},
		{"gate with too many parts", Config{Gate: []string{"a/b/c/d"}}, "parts"},
		{"negative looks", Config{Looks: -1}, "looks"},
	}
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(simManifest("b", bt), simManifest("c", ct), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// A gate whose only selector is misspelt is INCONCLUSIVE naming it, as
// the docs say and as when one of several is; it was an error (exit 2).
func TestALoneMisspeltGateSelectorIsInconclusive(t *testing.T) {
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{"Z/READ/p99"}})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Verdict != VerdictInconclusive || len(cmp.NotCompared) != 1 || !strings.Contains(cmp.NotCompared[0], `"Z/READ/p99"`) {
		t.Errorf("verdict %s, not compared %q: want INCONCLUSIVE naming the selector", cmp.Verdict, cmp.NotCompared)
	}
}

func TestGateSelectors(t *testing.T) {
	r, err := Config{Gate: []string{"p50", "UPDATE/p95", "B/*/mean"}}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		k    metricKey
		want bool
	}{
		{metricKey{"A", "READ", MetricP50}, true},
		{metricKey{"A", "UPDATE", MetricP95}, true},
		{metricKey{"A", "READ", MetricP95}, false},
		{metricKey{"B", "SCAN", MetricMean}, true},
		{metricKey{"A", "SCAN", MetricMean}, false},
		{metricKey{"A", OpAll, MetricThroughput}, false},
	}
	for _, tt := range tests {
		if got := r.gated(tt.k); got != tt.want {
			t.Errorf("gated(%s) = %v, want %v", tt.k, got, tt.want)
		}
	}
}

func TestDescriptiveForImportedSummaries(t *testing.T) {
	sum := func(scale, tput float64) results.Trial {
		tr := handTrial("A", 0, 0, 0, scale, tput)
		tr.Start = time.Time{}
		return tr
	}
	base := simManifest("b", nil)
	base.Source, base.Summaries = "ycsb-import", []results.Trial{sum(1, 1000)}
	cand := simManifest("c", nil)
	cand.Source, cand.Summaries = "ycsb-import", []results.Trial{sum(1.3, 900)}
	cmp, err := Compare(base, cand, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Descriptive || cmp.Verdict != VerdictDescriptive || !hasWarning(cmp, "no significance") {
		t.Fatalf("descriptive %v verdict %s warnings %q", cmp.Descriptive, cmp.Verdict, cmp.Warnings)
	}
	for _, m := range cmp.Metrics {
		if m.Status != Descriptive || m.P != 0 || m.CILow != 0 || m.CIHigh != 0 {
			t.Errorf("%s: status %s p %g CI [%g, %g], want DESCRIPTIVE with no inference", m.Metric, m.Status, m.P, m.CILow, m.CIHigh)
		}
	}
	near(t, "p99 ratio", find(t, cmp, "A", "READ", MetricP99).Ratio, 1.3, 1e-9)
	near(t, "throughput ratio", find(t, cmp, "A", OpAll, MetricThroughput).Ratio, 0.9, 1e-9)
	if _, err := json.Marshal(cmp); err != nil {
		t.Errorf("descriptive comparison does not encode as JSON: %v", err)
	}
	empty := simManifest("e", nil)
	if _, err := Compare(base, empty, Config{}); err == nil || !strings.Contains(err.Error(), "neither trials nor imported summaries") {
		t.Errorf("empty candidate: err %v", err)
	}
	// A summary whose operations failed (YCSB's [READ-FAILED], stored as
	// READ's errors) is named, as a measured trial above the rate is.
	failing := sum(1.3, 900)
	op := failing.Ops["READ"]
	op.Errors = op.Count / 10
	failing.Ops["READ"] = op
	cand.Summaries = []results.Trial{failing}
	if cmp, err = Compare(base, cand, Config{}); err != nil {
		t.Fatal(err)
	}
	if !hasWarning(cmp, "failed more operations than run.max_error_rate allows") {
		t.Errorf("a summary with 10%% of its reads failed: warnings %q, want its failures named", cmp.Warnings)
	}
}

func TestMissingMetricIsSkippedWithWarning(t *testing.T) {
	b, c := noisy(1, 4, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	op := ct[2].Ops["READ"]
	op.Intended.P999Micros = 0
	ct[2].Ops["READ"] = op
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cmp.Metrics {
		if m.Metric == MetricP999 {
			t.Errorf("p99.9 compared although one trial lacks it")
		}
	}
	if !hasWarning(cmp, "A/READ/p99.9") {
		t.Errorf("warnings %q, want one naming A/READ/p99.9", cmp.Warnings)
	}
}

func TestNeedMorePairs(t *testing.T) {
	cfg := Config{Looks: 3, MaxPairs: 15}
	t.Run("inconclusive asks for more, within budget", func(t *testing.T) {
		b, c := noisy(5, 5, 1.12, 0.08)
		bt, ct := handPairs("A", b, c, 1)
		p, err := NeedMorePairs(simManifest("b", bt), simManifest("c", ct), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.Comparison.Verdict != VerdictInconclusive {
			t.Fatalf("fixture decided at the first look (%s); the case needs an undecided one", p.Comparison.Verdict)
		}
		if !p.More || p.Extra["A"] < 1 || p.Extra["A"] > 10 || len(p.Inconclusive) == 0 {
			t.Errorf("plan %+v, want more pairs (1 to 10) for workload A", p)
		}
		if p.Comparison.LookAlpha != 0.05/3 {
			t.Errorf("look alpha %g, want alpha split over 3 looks", p.Comparison.LookAlpha)
		}
		last, err := NeedMorePairs(simManifest("b", bt), simManifest("c", ct), cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		if last.More {
			t.Error("the last planned look asked for more pairs")
		}
	})
	t.Run("decided stops", func(t *testing.T) {
		b, c := noisy(5, 5, 1.0, 0.005)
		bt, ct := handPairs("A", b, c, 1)
		p, err := NeedMorePairs(simManifest("b", bt), simManifest("c", ct), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.More || p.Comparison.Verdict != Pass {
			t.Errorf("plan More %v verdict %s, want a final PASS", p.More, p.Comparison.Verdict)
		}
	})
	t.Run("look outside the plan is an error", func(t *testing.T) {
		b, c := noisy(5, 5, 1.0, 0.005)
		bt, ct := handPairs("A", b, c, 1)
		if _, err := NeedMorePairs(simManifest("b", bt), simManifest("c", ct), cfg, 4); err == nil {
			t.Error("look 4 of 3 accepted")
		}
	})
}

// BenchmarkCompare compares two realistic manifests: six workloads, two
// operations each, 10 interleaved pairs.
func BenchmarkCompare(b *testing.B) {
	m := defaultModel()
	m.requests = 2000
	rec := newSimRecorder()
	rng := rand.New(rand.NewPCG(1, 1))
	var bt, ct []results.Trial
	s := simScenario{model: m, pairs: 10}
	for _, w := range []string{"A", "B", "C", "D", "E", "F"} {
		s.family = append(s.family, simWorkload{name: w, ops: m.ops, requests: m.requests})
	}
	slot := 0
	for wi := range s.family {
		s.simPairs(rng, rec, &bt, &ct, wi, 0, 10, &slot)
	}
	base, cand := simManifest("b", bt), simManifest("c", ct)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(base, cand, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPlanPairsGrowsWithSpread(t *testing.T) {
	quiet, loud := 0.0, 0.0
	for _, sd := range []float64{0.02, 0.08} {
		b, c := noisy(3, 8, 1, sd)
		bt, ct := handPairs("A", b, c, 1)
		plan, _, err := PlanPairs(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP99}, Looks: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan) != 1 || plan[0].Metric != MetricP99 || plan[0].Trials != 8 {
			t.Fatalf("plan %+v, want one row for the gated p99 on 8 pairs", plan)
		}
		p := plan[0]
		if p.PairsToDetect < 2 || p.PairsToPass < 2 {
			t.Fatalf("plan %+v: fewer than 2 pairs", p)
		}
		if sd == 0.02 {
			quiet = float64(p.PairsToPass)
		} else {
			loud = float64(p.PairsToPass)
		}
	}
	if loud <= quiet {
		t.Errorf("pairs to pass: %v at 8%% noise, not more than %v at 2%%", loud, quiet)
	}
	// Alone, a baseline's trials still give a plan (spread of two independent trials).
	b, c := noisy(4, 6, 1, 0.05)
	bt, _ := handPairs("A", b, c, 1)
	plan, _, err := PlanPairs(simManifest("b", bt), nil, Config{Gate: []string{MetricP99}})
	if err != nil || len(plan) != 1 || plan[0].Spread <= 0 {
		t.Fatalf("baseline-only plan %+v, %v: want one row with a positive spread", plan, err)
	}
}

func TestPairsForMatchesTheNormalApproximation(t *testing.T) {
	// s = 3%, gap log(1.2)-log(1.1), one-sided 0.05/3 with power 0.8: the
	// reference's k ~ (z+z)^2 s^2/gap^2 (paired) plus the t correction.
	s, gap := 0.03, math.Log(1.2)-math.Log(1.1)
	z := (2.128 + 0.8416) * s / gap
	n := pairsFor(s, gap, 0.05/3)
	if float64(n) < z*z || float64(n) > z*z+4 {
		t.Errorf("pairsFor = %d, want between %.1f and %.1f", n, z*z, z*z+4)
	}
}

func TestDescriptiveShowsMinMaxAndBelowOneMillisecond(t *testing.T) {
	summary := func(p95, maxMicros float64, below bool) results.Trial {
		st := results.OpStats{Count: 5000000, Intended: results.Latency{P95Micros: p95, P99Micros: 3000, MinMicros: 180, MaxMicros: maxMicros, MeanMicros: 600}}
		if below {
			st.Below = map[string]float64{MetricP95: 1000}
		}
		return results.Trial{ID: "s", Workload: "workloadc", Ops: map[string]results.OpStats{"READ": st}}
	}
	base, cand := simManifest("b", nil), simManifest("c", nil)
	base.Summaries = []results.Trial{summary(0, 90000, true)}
	cand.Summaries = []results.Trial{summary(2000, 120000, false)}
	c, err := Compare(base, cand, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if mx := find(t, c, "workloadc", "READ", MetricMax); math.Abs(mx.Ratio-120000.0/90000) > 1e-9 || mx.Gated {
		t.Errorf("max: ratio %v gated %v, want 1.33 and not gated", mx.Ratio, mx.Gated)
	}
	find(t, c, "workloadc", "READ", MetricMin)
	p95 := find(t, c, "workloadc", "READ", MetricP95)
	if !p95.BaselineBelow || p95.CandidateBelow || math.Abs(p95.Baseline-1000) > 1e-9 || !math.IsNaN(p95.Ratio) || p95.Note == "" {
		t.Errorf("p95 %+v: want the baseline shown as below 1000 µs, no ratio, and a note", p95)
	}
}

// TestGatedMetricNotComparedNeverPasses: a gated metric no row compares (a
// server cost the trials never read, a gated percentile zero in one trial)
// keeps the verdict from PASS and is named, where it used to drop out and
// let the gate pass on the rest.
func TestGatedMetricNotComparedNeverPasses(t *testing.T) {
	b, c := noisy(1, 6, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP95, MetricCPUPerOp}})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Verdict != VerdictInconclusive || len(cmp.NotCompared) != 1 || !strings.Contains(cmp.NotCompared[0], "A cpu_per_op") {
		t.Errorf("verdict %s, not compared %q; want INCONCLUSIVE naming A cpu_per_op", cmp.Verdict, cmp.NotCompared)
	}
	// The same trials gated on p95 alone pass: the test above is the missing metric's doing.
	if cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP95}}); err != nil || cmp.Verdict != Pass {
		t.Errorf("gate [p95]: verdict %v (%v), want PASS", cmp.Verdict, err)
	}
	op := ct[3].Ops["READ"]
	op.Intended.P99Micros = 0
	ct[3].Ops["READ"] = op
	cmp, err = Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricP99}})
	if err == nil && (cmp.Verdict == Pass || len(cmp.NotCompared) != 1 || !strings.Contains(cmp.NotCompared[0], "READ p99")) {
		t.Errorf("gated p99 zero in one trial: verdict %s, not compared %q; want no PASS, READ p99 named", cmp.Verdict, cmp.NotCompared)
	}
}

// TestCostMeasuredDifferentlyIsNotGated: a server cost the two sides read
// from different sources (the request threads' counters against the whole
// process) is not the same quantity: shown, never gated, and no PASS on it.
func TestCostMeasuredDifferentlyIsNotGated(t *testing.T) {
	b, c := noisy(2, 6, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	for i := range bt {
		bt[i].Server = &results.ServerStats{CPUPerOpMicros: 100 * b[i], CPUSource: "request threads", AllocPerOpBytes: 9000 * b[i], AllocSource: "request threads"}
		ct[i].Server = &results.ServerStats{CPUPerOpMicros: 100 * c[i], CPUSource: "request threads", AllocPerOpBytes: 9000 * c[i], AllocSource: "process"}
	}
	cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: []string{MetricCPUPerOp, MetricAllocPerOp}})
	if err != nil {
		t.Fatal(err)
	}
	alloc, cpu := find(t, cmp, "A", OpAll, MetricAllocPerOp), find(t, cmp, "A", OpAll, MetricCPUPerOp)
	if alloc.Gated || !strings.Contains(alloc.Note, "measured it differently") || !cpu.Gated {
		t.Errorf("alloc gated %v note %q, cpu gated %v; want alloc ungated with a note, cpu gated", alloc.Gated, alloc.Note, cpu.Gated)
	}
	if cmp.Verdict != VerdictInconclusive || len(cmp.NotCompared) != 1 {
		t.Errorf("verdict %s, not compared %q; want INCONCLUSIVE naming alloc_per_op", cmp.Verdict, cmp.NotCompared)
	}
}

// TestGateSelectorMatchingNothingNeverPasses: a gate selector that picks no
// metric of the results (a misspelt op or workload, an op the workload never
// ran) beside one that does let the gate PASS on the other alone (issue 29's
// second probe round: `gate: [p99, UPDTE/p95]` said PASS). It is named, and
// the verdict is INCONCLUSIVE.
func TestGateSelectorMatchingNothingNeverPasses(t *testing.T) {
	b, c := noisy(1, 6, 1, 0.01)
	bt, ct := handPairs("A", b, c, 1)
	for _, tc := range []struct {
		gate []string
		pass bool
	}{
		{[]string{MetricP95}, true},
		{[]string{MetricP95, "*/READ/p95"}, true},
		{[]string{MetricP95, "A/*/p95"}, true},
		{[]string{MetricP95, "UPDATE/p95"}, false},    // an op workload A never ran
		{[]string{MetricP95, "REED/p95"}, false},      // a misspelt op
		{[]string{MetricP95, "B/READ/p95"}, false},    // a workload these trials did not run
		{[]string{MetricP95, "Aa/READ/p99.9"}, false}, // a misspelt workload
	} {
		cmp, err := Compare(simManifest("b", bt), simManifest("c", ct), Config{Gate: tc.gate})
		if err != nil {
			t.Errorf("gate %v: %v", tc.gate, err)
			continue
		}
		if tc.pass {
			if cmp.Verdict != Pass || len(cmp.NotCompared) != 0 {
				t.Errorf("gate %v: verdict %s, not compared %q; want PASS", tc.gate, cmp.Verdict, cmp.NotCompared)
			}
			continue
		}
		if cmp.Verdict != VerdictInconclusive || len(cmp.NotCompared) != 1 || !strings.Contains(cmp.NotCompared[0], strconv.Quote(tc.gate[1])) {
			t.Errorf("gate %v: verdict %s, not compared %q; want INCONCLUSIVE naming %q", tc.gate, cmp.Verdict, cmp.NotCompared, tc.gate[1])
		}
	}
}
