package noise

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/metric"
)

// lineFigures is release.yaml's instance noise: 2.6 measured and the
// default, 2.4 its own (conservative) figure, nothing for 1.7 and 2.5.
func lineFigures() Figures {
	return Figures{
		Default: map[string]float64{metric.CPUPerOp: 0.013, metric.AllocPerOp: 0.012},
		ByLine: map[string]map[string]float64{
			"2.6": {metric.CPUPerOp: 0.013, metric.AllocPerOp: 0.012},
			"2.4": {metric.CPUPerOp: 0.035, metric.AllocPerOp: 0.04},
		},
		Runs: 8,
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

// sharedFigures is lineFigures with 2.4 measured at the default's figures,
// as the release suite has it since JDK 11 runs without tiered compilation.
func sharedFigures() Figures {
	cfg := lineFigures()
	cfg.ByLine["2.4"] = maps.Clone(cfg.Default)
	return cfg
}

func TestInstanceNoisePicksEachSidesLine(t *testing.T) {
	cfg := lineFigures()
	noDefault := lineFigures()
	noDefault.Default = nil
	noLines := lineFigures()
	noLines.ByLine = nil
	cases := []struct {
		name       string
		cfg        Figures
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
		{"a default two lines share names both", sharedFigures(), "2.5.10", "2.5.11", 0.013, 0.012, nil,
			[]string{"cpu_per_op 1.3%: 2.4's and 2.6's figures) stands in"}},
		{"one figure for every line: no note", noLines, "2.4.18", "2.4.18", 0.013, 0.012, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := Of(c.cfg, c.base, c.cand)
			if n.SD[metric.CPUPerOp] != c.cpu || n.SD[metric.AllocPerOp] != c.alloc {
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

func TestInstanceAdviceAsksForInstancesOnANoisyLine(t *testing.T) {
	tol := map[string]float64{metric.CPUPerOp: 0.03, metric.AllocPerOp: 0.05}
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
			got := Advice(Of(lineFigures(), c.base, c.base), tol)
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

// TestJDKRaisesTheLinesFigure: 2.6 on JDK 11 takes JDK 11's larger cpu
// figure and keeps 2.6's allocation; on JDK 17 (no figure) 2.6's stands;
// 2.4 on JDK 11 keeps its own where larger; a line with no figure and no
// default takes the JDK's alone, and says so.
func TestJDKRaisesTheLinesFigure(t *testing.T) {
	cfg := lineFigures()
	cfg.ByJDK = map[string]map[string]float64{"11": {metric.CPUPerOp: 0.06, metric.AllocPerOp: 0.002}}
	jdk11, jdk17 := JDK{Major: 11}, JDK{Major: 17}
	n := Of(cfg, "2.6.1", "2.6.3", jdk17, jdk11)
	if math.Abs(n.SD[metric.CPUPerOp]-0.06) > 1e-12 || math.Abs(n.SD[metric.AllocPerOp]-0.012) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11"}) {
		t.Errorf("2.6 on JDK 17 and 11: %v %v, want cpu 6%% (JDK 11's), alloc 1.2%% (2.6's), JDK 11 named", n.SD, n.JDKs)
	}
	if !strings.Contains(n.Source(), "measured on 2.6; raised to JDK 11's figure where larger") || n.where() != "2.6 on JDK 11" {
		t.Errorf("source %q, where %q", n.Source(), n.where())
	}
	if n := Of(cfg, "2.6.1", "2.6.1", jdk17, jdk17); math.Abs(n.SD[metric.CPUPerOp]-0.013) > 1e-12 || n.JDKs != nil {
		t.Errorf("2.6 on JDK 17: %v %v, want 2.6's 1.3%% and no JDK named", n.SD, n.JDKs)
	}
	if n := Of(cfg, "2.4.18", "2.4.18", jdk11, jdk11); math.Abs(n.SD[metric.CPUPerOp]-0.06) > 1e-12 || math.Abs(n.SD[metric.AllocPerOp]-0.04) > 1e-12 {
		t.Errorf("2.4 on JDK 11: %v, want cpu 6%% (JDK 11's over 2.4's 3.5%%), alloc 4%% (2.4's)", n.SD)
	}
	only := Figures{ByJDK: cfg.ByJDK}
	if n := Of(only, "2.5.10", "2.5.10", jdk11, jdk11); math.Abs(n.SD[metric.CPUPerOp]-0.06) > 1e-12 || !strings.HasPrefix(n.Source(), "measured on JDK 11 (no figure for 2.5)") {
		t.Errorf("2.5 with only a JDK figure: %v, source %q", n.SD, n.Source())
	}
	bad := Figures{ByJDK: map[string]map[string]float64{"jdk11": {metric.CPUPerOp: 0.06}}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), `instance sd for JDK "jdk11"`) {
		t.Errorf("a JDK keyed jdk11: %v, want refused", err)
	}
}

// TestJDKWithOptionsTakesItsOwnFigure: servers started with a suite's JVM
// options take the figure keyed by the JDK and those options; options the
// suite gave no figure for fall back to the major version's.
func TestJDKWithOptionsTakesItsOwnFigure(t *testing.T) {
	cfg := lineFigures()
	cfg.ByJDK = map[string]map[string]float64{
		"11":                        {metric.CPUPerOp: 0.06},
		"11 -XX:-TieredCompilation": {metric.CPUPerOp: 0.013, metric.P50: 0.013},
	}
	if err := cfg.Check(); err != nil {
		t.Fatalf("a JDK keyed with its options: %v", err)
	}
	notiered, other := JDK{Major: 11, Options: []string{"-XX:-TieredCompilation"}}, JDK{Major: 11, Options: []string{"-XX:+UseParallelGC"}}
	n := Of(cfg, "2.6.1", "2.6.1", notiered, notiered)
	if math.Abs(n.SD[metric.CPUPerOp]-0.013) > 1e-12 || math.Abs(n.SD[metric.P50]-0.013) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11 -XX:-TieredCompilation"}) {
		t.Errorf("2.6 on JDK 11 without tiered compilation: %v %v, want cpu 1.3%% (2.6's), p50 1.3%% raised by that JDK", n.SD, n.JDKs)
	}
	if n := Of(cfg, "2.6.1", "2.6.1", other, other); math.Abs(n.SD[metric.CPUPerOp]-0.06) > 1e-12 || !slices.Equal(n.JDKs, []string{"JDK 11"}) {
		t.Errorf("JDK 11 with options the suite measured nothing for: %v %v, want JDK 11's 6%%", n.SD, n.JDKs)
	}
	// Options of the side's own beside the suite's keep the suite's figure.
	if n := Of(cfg, "2.6.1", "2.6.1", JDK{Major: 11, Options: []string{"-XX:-TieredCompilation", "-Xmx2g"}}); math.Abs(n.SD[metric.CPUPerOp]-0.013) > 1e-12 {
		t.Errorf("with -Xmx2g besides: %v, want 1.3%%", n.SD)
	}
	if n := Of(cfg, "2.6.1", "2.6.1", JDK{}); math.Abs(n.SD[metric.CPUPerOp]-0.013) > 1e-12 || n.JDKs != nil {
		t.Errorf("no JDK recorded: %v %v, want the line's figure alone", n.SD, n.JDKs)
	}
	bad := Figures{ByJDK: map[string]map[string]float64{"11 TieredCompilation": {metric.CPUPerOp: 0.06}}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "then any JVM options") {
		t.Errorf("an option without its dash: %v, want refused", err)
	}
}
