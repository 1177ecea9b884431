package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scenariosWith makes a scenarios dir holding the named (empty) workload files.
func scenariosWith(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("recordcount=1000\noperationcount=1000\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const minimal = `
workloads: [workloada]
data: {recordcount: 1000}
`

func TestParseAppliesDefaults(t *testing.T) {
	s, err := Parse([]byte(minimal), scenariosWith(t, "workloada"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Data.FieldCount != 10 || s.Data.FieldLength != 100 || s.Data.Regions != 8 || s.Data.ColumnFamily != "family" {
		t.Errorf("data defaults not applied: %+v", s.Data)
	}
	if s.Run.WarmupRounds != 1 {
		t.Errorf("run.warmup_rounds default %d, want 1", s.Run.WarmupRounds)
	}
	if s.Pairs.Initial != 5 || s.Pairs.Max != 5 || s.Compare.Alpha != 0.05 {
		t.Errorf("pairs/compare defaults not applied: %+v %+v", s.Pairs, s.Compare)
	}
	if s.Compare.Tolerances["p99"] != 0.10 || len(s.Compare.Gate) != 2 {
		t.Errorf("tolerance defaults not applied: %+v", s.Compare)
	}
	if s.Compare.PrimaryTolerances != nil {
		t.Errorf("primary tolerances without a primary_tolerances section: %v", s.Compare.PrimaryTolerances)
	}
	p, err := Parse([]byte(minimal+"compare: {primary_tolerances: {cpu_per_op: 3%}}"), scenariosWith(t, "workloada"))
	if err != nil || p.Compare.PrimaryTolerances["cpu_per_op"] != 0.03 || len(p.Compare.PrimaryTolerances) != 1 {
		t.Errorf("compare.primary_tolerances {cpu_per_op: 3%%}: %v, %v", p.Compare.PrimaryTolerances, err)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	cases := []struct {
		name, yaml, want string
	}{
		{"unknown workload", "workloads: [nosuch]\ndata: {recordcount: 10}", `unknown workload file "nosuch"`},
		{"negative rate", minimal + "run: {target: -5}", "cannot be negative"},
		{"negative warm-up rounds", minimal + "run: {warmup_rounds: -1}", "run.warmup_rounds: must be 0 or more"},
		{"tolerance not a percentage", minimal + "compare: {tolerances: {p99: 0.1}}", "not a percentage"},
		{"unknown metric", minimal + "compare: {tolerances: {p42: 10%}}", `unknown metric "p42"`},
		{"unknown gate", minimal + "compare: {gate: [latency]}", `unknown metric "latency"`},
		{"primary tolerance of throughput", minimal + "compare: {primary_tolerances: {throughput: 3%}}", `"throughput" has no primary row`},
		{"primary tolerance not a percentage", minimal + "compare: {primary_tolerances: {cpu_per_op: 0.03}}", "compare.primary_tolerances.cpu_per_op"},
		{"bad duration", minimal + "run: {measure: forever}", "not a duration"},
		{"one pair", minimal + "pairs: {initial: 1}", "at least 2 pairs"},
		{"max below initial", minimal + "pairs: {initial: 5, max: 3}", "pairs.max"},
		{"typo key", minimal + "rn: {threads: 3}", "field rn not found"},
		{"codec", "workloads: [workloada]\ndata: {recordcount: 10, compression: brotli}", "not an HBase codec"},
		{"no rows", "workloads: [workloada]\ndata: {recordcount: 0}", "data.recordcount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml), dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestFingerprintTracksWhatMakesResultsComparable(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	a, _ := Parse([]byte(minimal), dir)
	b, _ := Parse([]byte(minimal+"pairs: {initial: 7}\ncompare: {tolerances: {p99: 30%}}"), dir)
	c, _ := Parse([]byte(minimal+"run: {target: 123}"), dir)
	fa, _ := a.Fingerprint()
	fb, _ := b.Fingerprint()
	fc, _ := c.Fingerprint()
	if fa != fb {
		t.Errorf("pairs and tolerances changed the fingerprint: %s vs %s", fa, fb)
	}
	if fa == fc {
		t.Errorf("a different target rate kept the fingerprint %s", fa)
	}
	if p, _ := Parse([]byte(minimal+"run: {prewarm: true}"), dir); p == nil {
		t.Error("run.prewarm refused")
	} else if fp, _ := p.Fingerprint(); fp == fa {
		t.Errorf("prewarmed trials kept the fingerprint %s", fa)
	}
	if err := os.WriteFile(filepath.Join(dir, "workloada"), []byte("readproportion=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _ := Parse([]byte(minimal), dir)
	if fd, _ := d.Fingerprint(); fd == fa {
		t.Error("editing the workload file kept the fingerprint")
	}
	// A suite hashes the files it read, the ones its trials run: an edit
	// after it loaded is the next run's.
	if again, _ := a.Fingerprint(); again != fa {
		t.Errorf("a loaded suite's fingerprint moved with an edit made after it loaded: %s, then %s", fa, again)
	}
}

func TestShippedSuitesLoad(t *testing.T) {
	scen := Folder(filepath.Join("..", "..", "scenarios"))
	names := scen.Names()
	for _, want := range []string{"smoke", "quick", "rc", "pe", "ltt"} {
		s, err := Named(scen, want)
		if err != nil {
			t.Fatalf("shipped suite %s does not load: %v", want, err)
		}
		if s.Name != want {
			t.Errorf("suite %s has name %q", want, s.Name)
		}
		// Every shipped suite profiles its extra pair: measured to fit
		// smoke's budget too (docs/profiles.md).
		if !s.Run.Profile {
			t.Errorf("shipped suite %s does not set run.profile", want)
		}
	}
	if len(names) < 3 {
		t.Errorf("Names found %v", names)
	}
	rc, _ := Named(scen, "rc")
	if rc.Data.RecordCount != 100_000_000 || rc.Run.Threads != 32 || rc.Run.TargetOpsPerSec != 50000 || rc.Run.PerServerClampOpsPerSec != 10000 || rc.Run.OperationCount != 10_000_000 {
		t.Errorf("rc suite is not at the published scale: %+v %+v", rc.Data, rc.Run)
	}
	if _, err := Named(scen, "nosuch"); err == nil || !strings.Contains(err.Error(), "smoke") {
		t.Errorf("unknown suite error should list the known ones, got %v", err)
	}
}

// TestGateSelectorsAsCompareReadsThem: a suite accepts every selector the
// comparison does (op/metric, workload/op/metric), since both parse them
// with metric.ParseSelector.
func TestGateSelectorsAsCompareReadsThem(t *testing.T) {
	s, err := Parse([]byte(minimal+"compare: {gate: [READ/p95, workloada/UPDATE/p99, '*/ALL/throughput']}"), scenariosWith(t, "workloada"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Compare.Gate) != 3 || s.Compare.Gate[0] != "READ/p95" {
		t.Errorf("gate = %v", s.Compare.Gate)
	}
	if _, err := Parse([]byte(minimal+"compare: {gate: [READ/p42]}"), scenariosWith(t, "workloada")); err == nil || !strings.Contains(err.Error(), `unknown metric "p42"`) {
		t.Errorf("READ/p42: %v, want an unknown-metric error", err)
	}
}

// TestClusterSectionValidates checks the section's keys; its values are
// checked by sut.CheckSuite (harness/sut), where clusters are started.
func TestClusterSectionValidates(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	parse := func(section string) (*Suite, error) {
		return Parse([]byte("workloads: [workloada]\ndata: {recordcount: 1000, regions: 4}\n"+section), scen)
	}
	for _, tc := range []struct {
		section, wantErr string
		wantN            int
	}{
		{"", "", 0},
		{"cluster: {region_servers: 2, rs_heap: 2g}", "", 2},
		{"cluster: {region_servers: 4}", "", 4},
		{"cluster: {regionservers: 2}", "field regionservers not found", 0},
		{"cluster: {region_servers: 2, jvm_opts_by_jdk: {\"11\": [-XX:-TieredCompilation]}}", "", 2},
		{"cluster: {jvm_opts_by_jdk: {jdk11: [-XX:-TieredCompilation]}}", `key "jdk11": key each JDK's options by its major version`, 0},
		{"cluster: {jvm_opts_by_jdk: {\"11\": [\"-Xss1m -Xmx2g\"]}}", `"-Xss1m -Xmx2g" is not one JVM option`, 0},
		{"cluster: {jvm_opts_by_jdk: {\"11\": [TieredCompilation]}}", `"TieredCompilation" is not one JVM option`, 0},
	} {
		s, err := parse(tc.section)
		if tc.wantErr == "" {
			if err != nil || s.Cluster.RegionServers != tc.wantN {
				t.Errorf("%q: %v, region servers %+v, want %d", tc.section, err, s, tc.wantN)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%q: err = %v, want one containing %q", tc.section, err, tc.wantErr)
		}
	}
}

func TestClusterSectionChangesTheFingerprintOnlyWhenSet(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	fp := func(section string) string {
		t.Helper()
		s, err := Parse([]byte("workloads: [workloada]\ndata: {recordcount: 1000, regions: 4}\n"+section), scen)
		if err != nil {
			t.Fatal(err)
		}
		f, err := s.Fingerprint()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	none, one, two, heap := fp(""), fp("cluster: {region_servers: 1}"), fp("cluster: {region_servers: 2}"), fp("cluster: {region_servers: 2, rs_heap: 2g}")
	if none != one {
		t.Errorf("region_servers: 1 (the default) changed the fingerprint: %s vs %s", none, one)
	}
	if two == none || heap == two {
		t.Errorf("fingerprints none=%s two=%s two+heap=%s: a 2-server or heap change must change it", none, two, heap)
	}
	// JVM options per JDK name themselves in each side's JDK label, not in
	// the fingerprint: stored results of the suite stay comparable.
	if opts := fp("cluster: {region_servers: 2, jvm_opts_by_jdk: {\"11\": [-XX:-TieredCompilation]}}"); opts != two {
		t.Errorf("jvm_opts_by_jdk changed the fingerprint: %s vs %s", opts, two)
	}
}

// TestPerWorkloadTargets: run.targets sets a workload's own rate, the
// others keep run.target; it changes the fingerprint, and names a workload
// of the suite with a rate of 0 or more, or the suite is refused.
func TestPerWorkloadTargets(t *testing.T) {
	dir := scenariosWith(t, "workloada", "workloade")
	const two = "workloads: [workloada, workloade]\ndata: {recordcount: 1000}\n"
	plain, err := Parse([]byte(two+"run: {target: 1000}"), dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte(two+"run: {target: 1000, targets: {workloade: 400}}"), dir)
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]float64{"workloada": 1000, "workloade": 400} {
		l, err := s.TrialSpec(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		if l.Schedule.TargetRate != want || l.Schedule.Rate != want {
			t.Errorf("%s: target %g rate %g, want %g", w, l.Schedule.TargetRate, l.Schedule.Rate, want)
		}
	}
	fp, _ := plain.Fingerprint()
	fs, _ := s.Fingerprint()
	if fp == fs {
		t.Error("a workload's own target kept the fingerprint")
	}
	for _, bad := range []string{"run: {targets: {workloadz: 10}}", "run: {targets: {workloade: -1}}"} {
		if _, err := Parse([]byte(two+bad), dir); err == nil || !strings.Contains(err.Error(), "run.targets") {
			t.Errorf("%s: err %v, want a run.targets error", bad, err)
		}
	}
}

// A suite is one YAML document of a bounded size with a bounded pairs.max:
// a second document was ignored without a word, a 55 MB file loaded and
// pairs.max 1e12 was accepted.
func TestSuiteFileBounds(t *testing.T) {
	dir := scenariosWith(t, "workloada")
	for _, tc := range []struct{ name, yaml, want string }{
		{"a second document", minimal + "---\npairs: {initial: 2, max: 2}\n", "second YAML document"},
		{"a second document that is no YAML", minimal + "---\n[: x\n", "second YAML document"},
		{"pairs.max beyond bound", minimal + "pairs: {initial: 5, max: 1000000000000}\n", "pairs.max (1000000000000) is beyond 1000"},
	} {
		if _, err := Parse([]byte(tc.yaml), dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, ok := range []string{minimal, "---\n" + minimal, minimal + "---\n", minimal + "pairs: {initial: 5, max: 1000}\n"} {
		if _, err := Parse([]byte(ok), dir); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(minimal+"#"+strings.Repeat("x", MaxSuiteBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, dir); err == nil || !strings.Contains(err.Error(), "a suite file takes a few KiB") {
		t.Errorf("a suite file beyond %d bytes: %v", MaxSuiteBytes, err)
	}
}
