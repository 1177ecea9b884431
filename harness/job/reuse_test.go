package job

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/sut"
)

// --reuse-baseline reuses the baseline the flags name: its label, its
// settings, JVM options, jars and topology, not the plain version whatever
// they say; what it cannot honour is refused before anything starts, saying
// what to do.
func TestReuseBaselineTakesTheBaselineTheFlagsName(t *testing.T) {
	s, err := LoadSuite("../../scenarios", "smoke")
	if err != nil {
		t.Fatal(err)
	}
	fp, err := s.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	st, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	put := func(version, label string, settings map[string]string, jvm []string) string {
		t.Helper()
		m := &results.Manifest{Version: version, Label: label, Provider: "local", Settings: settings, JVMOpts: jvm,
			Suite: results.SuiteInfo{Name: s.Name, Fingerprint: fp}}
		if _, err := st.Ensure(m); err != nil {
			t.Fatal(err)
		}
		k := results.KeyOf(m)
		tr := results.Trial{ID: "t-" + k.Target, RunID: "r1", Workload: "workloadc", Start: time.Unix(1_700_000_000, 0)}
		if _, err := st.AppendTrial(k, tr, nil); err != nil {
			t.Fatal(err)
		}
		return k.Target
	}
	conf := map[string]string{"hbase.regionserver.handler.count": "60"}
	confName := sut.Name(&sut.Target{Version: "2.6.0", Settings: conf, RegionServers: 1})
	put("2.6.0", "", nil, nil)
	put("2.6.0", confName, conf, nil) // as the job stores a side with settings: its name as label
	put("2.6.0", "mybase", conf, []string{"-XX:+UseG1GC"})
	put("2.6.1", "newer", nil, nil)
	jar := filepath.Join(t.TempDir(), "cp.jar")
	if err := os.WriteFile(jar, []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		spec sut.Spec
		topo sut.Topology
		want string // the target reused, or "error: " and what the refusal says
	}{
		{"the plain version", sut.Spec{Version: "2.6.0"}, sut.Topology{}, "2.6.0"},
		{"settings pick their own trials", sut.Spec{Version: "2.6.0", Conf: []string{"hbase.regionserver.handler.count=60"}}, sut.Topology{}, confName},
		{"other settings have none", sut.Spec{Version: "2.6.0", Conf: []string{"hbase.regionserver.handler.count=90"}}, sut.Topology{}, "error: no stored trials of 2.6.0+conf-"},
		{"a heap is a setting", sut.Spec{Version: "2.6.0"}, sut.Topology{RSHeap: "2g"}, "error: no stored trials of 2.6.0+conf-"},
		{"region servers", sut.Spec{Version: "2.6.0"}, sut.Topology{RegionServers: 3}, "error: no stored trials of 2.6.0+rs3"},
		{"a jar", sut.Spec{Version: "2.6.0", Jars: []string{jar}}, sut.Topology{}, "error: no stored trials of 2.6.0+conf-"},
		{"a label", sut.Spec{Version: "2.6.0", Label: "mybase"}, sut.Topology{}, "mybase"},
		{"a label with its own settings", sut.Spec{Version: "2.6.0", Label: "mybase", Conf: []string{"hbase.regionserver.handler.count=60"}, JVMOpts: []string{"-XX:+UseG1GC"}}, sut.Topology{}, "mybase"},
		{"a label with other settings", sut.Spec{Version: "2.6.0", Label: "mybase", Conf: []string{"hbase.regionserver.handler.count=90"}}, sut.Topology{},
			"error: label mybase's trials ran with settings hbase.regionserver.handler.count=60, not the --baseline-conf given (hbase.regionserver.handler.count=90): drop --baseline-conf"},
		{"a label with other JVM options", sut.Spec{Version: "2.6.0", Label: "mybase", JVMOpts: []string{"-Xint"}}, sut.Topology{}, "error: drop --baseline-jvm-opt"},
		{"a label of another version", sut.Spec{Version: "2.6.0", Label: "newer"}, sut.Topology{}, "error: label newer holds trials of HBase 2.6.1, not --baseline 2.6.0"},
		{"a label with a jar", sut.Spec{Version: "2.6.0", Label: "mybase", Jars: []string{jar}}, sut.Topology{}, "error: drop --baseline-jar"},
		{"a JDK", sut.Spec{Version: "2.6.0", JavaHome: "/jdk"}, sut.Topology{}, "error: drop --baseline-java-home"},
		{"an RC's repository", sut.Spec{Version: "2.6.0", Repo: "file:///r"}, sut.Topology{}, "error: store them under a label"},
		{"a home", sut.Spec{Home: "/hbase"}, sut.Topology{}, "error: give --baseline-label NAME"},
		{"a running cluster", sut.Spec{ZK: "h:2181"}, sut.Topology{}, "error: give --baseline-label NAME"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Role = sut.Baseline
			m, err := findReused(st, tc.spec, tc.topo, s)
			want, refused := strings.CutPrefix(tc.want, "error: ")
			switch {
			case refused && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("reused %v, err %v; want it refused saying %q", target(m), err, want)
			case !refused && (err != nil || target(m) != want):
				t.Errorf("reused %v, err %v; want %s", target(m), err, want)
			}
		})
	}
}

func target(m *results.Manifest) string {
	if m == nil {
		return "nothing"
	}
	return fmt.Sprint(results.KeyOf(m).Target)
}
