package suite

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// near says two parsed percentages are one figure (1.3/100 is not 0.013 exactly).
func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestInstanceSDByLineParses(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       map[string]map[string]float64
	}{
		{"quoted lines", `compare:
  instance_sd: {cpu_per_op: 1.3%}
  instance_sd_by_line:
    "2.6": {cpu_per_op: 1.3%, alloc_per_op: 1.2%}
    "2.4": {cpu_per_op: 3.5%}
`, map[string]map[string]float64{"2.6": {"cpu_per_op": 0.013, "alloc_per_op": 0.012}, "2.4": {"cpu_per_op": 0.035}}},
		// YAML reads 2.10 as a number; the key keeps its text, not 2.1.
		{"unquoted lines keep their text", "compare: {instance_sd_by_line: {2.10: {cpu_per_op: 2%}, 1.7: {alloc_per_op: 5%}}}",
			map[string]map[string]float64{"2.10": {"cpu_per_op": 0.02}, "1.7": {"alloc_per_op": 0.05}}},
		{"absent", "compare: {instance_sd: {cpu_per_op: 1%}}", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse([]byte(minimal+c.yaml), scenariosWith(t, "workloada"))
			if err != nil {
				t.Fatal(err)
			}
			got := s.Compare.InstanceSDByLine
			if len(got) != len(c.want) {
				t.Fatalf("by line %v, want %v", got, c.want)
			}
			for line, sd := range c.want {
				for k, v := range sd {
					if !near(got[line][k], v) || len(got[line]) != len(sd) {
						t.Errorf("line %s: %v, want %v", line, got[line], sd)
					}
				}
			}
		})
	}
}

func TestInstanceSDByLineRefusesWhatItCannotUse(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	cases := []struct{ name, yaml, want string }{
		{"a release for a line", `compare: {instance_sd_by_line: {"2.4.18": {cpu_per_op: 4%}}}`,
			`compare.instance_sd_by_line: "2.4.18" is no HBase line: key each figure by major.minor, quoted ("2.4": {cpu_per_op: 4%})`},
		{"a word for a line", `compare: {instance_sd_by_line: {default: {cpu_per_op: 4%}}}`, `"default" is no HBase line`},
		{"unknown metric", `compare: {instance_sd_by_line: {"2.4": {cpu: 4%}}}`, `compare.instance_sd_by_line.2.4: unknown metric "cpu"`},
		{"not a percentage", `compare: {instance_sd_by_line: {"2.4": {cpu_per_op: 0.04}}}`, "compare.instance_sd_by_line.2.4.cpu_per_op: \"0.04\" is not a percentage"},
		{"above 100%", `compare: {instance_sd_by_line: {"2.4": {cpu_per_op: 140%}}}`, "compare.instance_sd_by_line.2.4.cpu_per_op: must lie between 0% and 100%"},
		{"no figure", `compare: {instance_sd_by_line: {"2.4": {}}}`, "compare.instance_sd_by_line.2.4: no figure; give the sd measured on 2.4"},
		{"fewer metrics than the default", `compare: {instance_sd: {cpu_per_op: 1.3%, alloc_per_op: 1.2%}, instance_sd_by_line: {"2.4": {cpu_per_op: 4%}}}`,
			"compare.instance_sd_by_line.2.4: no alloc_per_op, which compare.instance_sd gives"},
		{"a flat map", `compare: {instance_sd_by_line: {cpu_per_op: 4%}}`, "cannot unmarshal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(minimal+c.yaml), dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestShippedInstanceNoise: the release and symmetry suites carry 2.6 as
// measured (also their default), 2.4's as measured on JDK 11 without tiered
// compilation (which they start it with) and JDK 11's with it, and leave
// 1.7 and 2.5 to the default (issue 43).
func TestShippedInstanceNoise(t *testing.T) {
	scen := filepath.Join("..", "..", "scenarios")
	for _, name := range []string{"release", "symmetry"} {
		s, err := Load(filepath.Join(scen, "suites", name+".yaml"), scen)
		if err != nil {
			t.Fatal(err)
		}
		c := s.Compare
		if !near(c.InstanceSD["cpu_per_op"], 0.013) || !near(c.InstanceSD["alloc_per_op"], 0.012) {
			t.Errorf("%s: instance_sd %v, want 2.6.1's 1.3%% and 1.2%%", name, c.InstanceSD)
		}
		by := c.InstanceSDByLine
		if !near(by["2.6"]["cpu_per_op"], 0.013) || !near(by["2.6"]["alloc_per_op"], 0.012) || !near(by["2.4"]["cpu_per_op"], 0.013) || !near(by["2.4"]["alloc_per_op"], 0.012) {
			t.Errorf("%s: instance_sd_by_line %v, want 2.6 and 2.4 (JDK 11 without tiered compilation) at 1.3%%/1.2%%", name, by)
		}
		const notiered = "11 -XX:-TieredCompilation"
		if jdk := c.InstanceSDByJDK; !near(jdk["11"]["cpu_per_op"], 0.06) || !near(jdk["11"]["alloc_per_op"], 0.02) || !near(jdk[notiered]["cpu_per_op"], 0.013) || !near(jdk[notiered]["p50"], 0.013) || len(jdk) != 2 {
			t.Errorf("%s: instance_sd_by_jdk %v, want JDK 11 at 6%%/2%% (tiered: 20 instance pairs of 2.4.18 and 2.6.1) and without tiered compilation 1.3%% (rel3n)", name, jdk)
		}
		// The servers on JDK 11 start without tiered compilation, the
		// figure keyed by it then applies (docs/noise.md).
		if opts := s.Cluster.JVMOpts(11); !slices.Equal(opts, []string{"-XX:-TieredCompilation"}) || s.Cluster.JVMOpts(17) != nil {
			t.Errorf("%s: cluster.jvm_opts_by_jdk %v, want JDK 11 alone without tiered compilation", name, s.Cluster.JVMOptsByJDK)
		}
		if _, ok := by["2.5"]; ok {
			t.Errorf("%s: 2.5 has a figure, but no 2.5 A/A was measured", name)
		}
		if _, ok := by["1.7"]; ok {
			t.Errorf("%s: 1.7 has a figure, but no 1.7 A/A was measured", name)
		}
	}
}

func TestInstanceSDByJDKParsesAndRefuses(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	s, err := Parse([]byte(minimal+`compare: {instance_sd_by_jdk: {"11": {cpu_per_op: 6%}, 17: {cpu_per_op: 1.3%, alloc_per_op: 1.2%}}}`), dir)
	if err != nil {
		t.Fatal(err)
	}
	by := s.Compare.InstanceSDByJDK
	if len(by) != 2 || !near(by["11"]["cpu_per_op"], 0.06) || len(by["11"]) != 1 || !near(by["17"]["alloc_per_op"], 0.012) {
		t.Errorf("by JDK %v, want 11 at cpu 6%% alone and 17 at 1.3%%/1.2%%", by)
	}
	for _, c := range []struct{ name, yaml, want string }{
		{"a version for a JDK", `compare: {instance_sd_by_jdk: {"11.0.13": {cpu_per_op: 6%}}}`, `compare.instance_sd_by_jdk: "11.0.13" is no JDK major version`},
		{"a word", `compare: {instance_sd_by_jdk: {jdk11: {cpu_per_op: 6%}}}`, `"jdk11" is no JDK major version`},
		{"unknown metric", `compare: {instance_sd_by_jdk: {"11": {cpu: 6%}}}`, `compare.instance_sd_by_jdk.11: unknown metric "cpu"`},
		{"no figure", `compare: {instance_sd_by_jdk: {"11": {}}}`, "compare.instance_sd_by_jdk.11: no figure"},
		{"not a percentage", `compare: {instance_sd_by_jdk: {"11": {cpu_per_op: 0.06}}}`, "is not a percentage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(minimal+c.yaml), dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
