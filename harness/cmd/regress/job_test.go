package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/results"
)

// code returns the exit code main would give for err.
func code(err error) int {
	return codeOf(err)
}

func TestJobBadInputExits2WithAHint(t *testing.T) {
	scen := filepath.Join("..", "..", "..", "scenarios")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no candidate", []string{"--baseline", "2.6.1"}, "--candidate VERSION"},
		{"both version and zk", []string{"--baseline", "2.6.1", "--baseline-zk", "h:1", "--candidate", "2.6.2"}, "exclude each other"},
		{"bad version", []string{"--baseline", "2.6.1;rm", "--candidate", "2.6.2"}, "2.6.1;rm"},
		{"bad format", []string{"--baseline", "2.6.1", "--candidate", "2.6.2", "--format", "pdf"}, `invalid argument "pdf" for "--format" flag: "pdf" is no report format`},
		{"bad conf", []string{"--baseline", "2.6.1", "--candidate", "2.6.2", "--candidate-conf", "novalue"}, "key=value"},
		{"unknown suite", []string{"--baseline", "2.6.1", "--candidate", "2.6.2", "--suite", "nosuch", "--scenarios", scen}, "known suites"},
		{"conf on external", []string{"--baseline-zk", "h:1", "--baseline-conf", "a=b", "--candidate", "2.6.2"}, "only to clusters regress starts"},
		{"unknown flag", []string{"--baselin", "2.6.1"}, "unknown flag"},
		{"reuse without store", []string{"--baseline", "2.6.1", "--candidate", "2.6.2", "--reuse-baseline", "--scenarios", scen, "--store", "REPLACE"}, "no stored trials of 2.6.1"},
		{"run without target", []string{"run"}, "exactly one of --version"},
		{"run zk without label", []string{"run", "--zk", "h:1"}, "--label"},
		{"run label not a store name", []string{"run", "--zk", "h:1", "--label", "a/b"}, "cannot name a store directory"},
		{"compare without sides", []string{"compare", "--baseline", "x"}, "--candidate"},
		{"repo without version", []string{"--baseline", "2.6.0", "--candidate-repo", "file:///tmp/r"}, "--candidate-repo needs --candidate VERSION"},
		{"repo not a URL", []string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--candidate-repo", "staging"}, "file:///path/to/repo"},
		{"home and repo", []string{"--baseline", "2.6.0", "--candidate-home", "/x", "--candidate-repo", "file:///r"}, "exclude each other"},
		{"home and zk", []string{"--baseline", "2.6.0", "--candidate-home", "/x", "--candidate-zk", "h:1"}, "exclude each other"},
		{"java home on external", []string{"--baseline", "2.6.0", "--candidate-zk", "h:1", "--candidate-java-home", "/j"}, "only to clusters regress starts"},
		{"label not a store name", []string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--candidate-label", "rc/1"}, "cannot name a store directory"},
		{"one label on both sides", []string{"--baseline", "2.6.0", "--baseline-label", "same", "--candidate", "2.6.1", "--candidate-label", "same", "--scenarios", scen},
			"--baseline-label and --candidate-label are both \"same\""},
		{"home that does not exist", []string{"--baseline-home", "/nonexistent/hbase", "--candidate-home", "/nonexistent/hbase2", "--scenarios", scen}, "not an HBase home"},
		{"region servers out of range", []string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--scenarios", scen, "--region-servers", "99"}, "--region-servers/--rs-heap: region servers: 99 is out of range"},
		{"rs heap without unit", []string{"run", "--version", "2.6.1", "--scenarios", scen, "--rs-heap", "2"}, "512m or 2g"},
		{"info port zero", []string{"--baseline", "2.6.0", "--candidate-zk", "h:1", "--candidate-info-port", "0"}, `invalid argument "0" for "--candidate-info-port" flag`},
		{"info port past 65535", []string{"--baseline-zk", "h:1", "--baseline-info-port", "65536", "--candidate", "2.6.1"}, "1 to 65535"},
		{"info port not a number", []string{"run", "--zk", "h:1", "--label", "prod", "--info-port", "https"}, `invalid argument "https" for "--info-port" flag`},
		{"info port on a side regress starts", []string{"--baseline", "2.6.0", "--baseline-info-port", "8443", "--candidate", "2.6.1"},
			"--baseline-info-port applies only to a running cluster (--baseline-zk): for one regress starts, use --baseline-conf hbase.regionserver.info.port=8443"},
		{"run info port with a version", []string{"run", "--version", "2.6.1", "--info-port", "16030"}, "use --conf hbase.regionserver.info.port=16030"},
		{"doctor info port out of range", []string{"doctor", "--zk", "127.0.0.1:1", "--info-port", "70000"}, `invalid argument "70000" for "--info-port" flag`},
		{"compare nothing stored", []string{"compare", "--baseline", "1.0", "--candidate", "2.0", "--store", "REPLACE"}, "nothing stored for \"1.0\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string(nil), c.args...)
			for i, a := range args {
				if a == "REPLACE" {
					args[i] = t.TempDir()
				}
			}
			start := time.Now()
			_, err := runRegress(t, args...)
			if code(err) != exitUsage || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("exit %d, err %v; want exit 2 and a message containing %q", code(err), err, c.want)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("bad input took %v to refuse", time.Since(start))
			}
		})
	}
}

// storeSide writes a manifest of k interleaved trials of one workload whose
// READ latencies are scaled by factor, with the given run id.
func storeSide(t *testing.T, st *results.Store, name string, factor float64, k int, order int) {
	t.Helper()
	storeSideAt(t, st, name, factor, k, order, 1)
}

// storeSideAt stores k trials of name achieving held times the 1000 ops/s target.
func storeSideAt(t *testing.T, st *results.Store, name string, factor float64, k int, order int, held float64) {
	t.Helper()
	m := &results.Manifest{Version: "2.6.1", Label: name, Provider: "local", Source: "regress",
		Suite: results.SuiteInfo{Name: "fixture", Fingerprint: "fp0123456789abcd", DataSpec: "rows=1000"}}
	if _, err := st.Ensure(m); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range k {
		noise := 1 + 0.01*float64((i*7)%5-2)
		lat := results.Latency{P50Micros: 1000 * factor * noise, P95Micros: 3000 * factor * noise, P99Micros: 5000 * factor * noise,
			P999Micros: 9000 * factor * noise, MaxMicros: 20000 * factor, MinMicros: 100, MeanMicros: 1300 * factor * noise}
		o := (order + i) % 2
		tr := results.Trial{ID: fmt.Sprintf("%s-%d", name, i), RunID: "run1", Workload: "workloadc", Pair: i, Order: o,
			Start: base.Add(time.Duration(2*i+o) * time.Minute), DurationMillis: 60000,
			TargetOpsPerSec: 1000, AchievedOpsPerSec: 1000 * held * (1 - 0.01*float64(i%3)),
			Ops: map[string]results.OpStats{"READ": {Count: 60000, Statuses: map[string]int64{"OK": 60000}, Intended: lat, Service: lat}}}
		if _, err := st.AppendTrial(results.KeyOf(m), tr, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCompareStoredResultsExitCodesAndReports(t *testing.T) {
	cases := []struct {
		name     string
		factor   float64
		wantCode int
		verdict  string
	}{
		{"same", 1.0, exitOK, "PASS"},
		{"twice as slow", 2.0, exitRegression, "REGRESSION"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			st, _ := results.Open(filepath.Join(dir, "store"))
			storeSide(t, st, "base", 1.0, 8, 0)
			storeSide(t, st, "cand", c.factor, 8, 1)
			out := filepath.Join(dir, "reports")
			stdout, err := runRegress(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", out, "--format", "json")
			if code(err) != c.wantCode {
				t.Fatalf("exit %d (%v), want %d", code(err), err, c.wantCode)
			}
			var got struct {
				Verdict string           `json:"verdict"`
				Metrics []map[string]any `json:"metrics"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
			}
			if got.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s", got.Verdict, c.verdict)
			}
			for _, f := range []string{"report.txt", "report.md", "report.json", "junit.xml", "report.html"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("report %s not written: %v", f, err)
				}
			}
		})
	}
}

// TestSameVersionBothSidesEndToEnd is the must-show at a small scale:
// the whole job on the embedded default, the same version on both sides.
func TestSameVersionBothSidesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two real HBase clusters; skipped under -short")
	}
	dir := t.TempDir()
	v := clustertest.Version()
	stdout, err := runRegress(t, "--baseline", v, "--candidate", v, "--suite", filepath.Join("testdata", "aa.yaml"),
		"--scenarios", filepath.Join("..", "..", "..", "scenarios"), "--store", filepath.Join(dir, "store"),
		"--out", filepath.Join(dir, "reports"), "--format", "json", "--quiet")
	if code(err) != exitOK {
		// Say what regressed: the metrics and held-rate checks the JSON names.
		var rep struct {
			Metrics  []map[string]any `json:"metrics"`
			HeldRate []map[string]any `json:"held_rate"`
		}
		if json.Unmarshal([]byte(stdout), &rep) == nil {
			for _, m := range rep.Metrics {
				if m["status"] == "REGRESSED" {
					t.Logf("REGRESSED: %v %v %v ratio %v [%v, %v] values %v / %v", m["workload"], m["op"], m["metric"], m["ratio"], m["ci_low"], m["ci_high"], m["baseline_values"], m["candidate_values"])
				}
			}
			for _, h := range rep.HeldRate {
				t.Logf("held rate: %v", h)
			}
		}
		t.Fatalf("exit %d: %v", code(err), err)
	}
	var got struct {
		Verdict string           `json:"verdict"`
		Metrics []map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if got.Verdict == "" || got.Verdict == "REGRESSION" || len(got.Metrics) == 0 {
		t.Fatalf("verdict %q with %d metrics", got.Verdict, len(got.Metrics))
	}
	for _, f := range []string{"workload", "op", "metric", "baseline", "candidate", "ratio", "ci_low", "ci_high", "tolerance", "status", "gated"} {
		if _, ok := got.Metrics[0][f]; !ok {
			t.Errorf("metric entry lacks %q: %v", f, got.Metrics[0])
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "store"))
	if err != nil || len(entries) < 2 {
		t.Errorf("store holds %d entries (%v), want both sides", len(entries), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "reports", "hgrm")); err != nil {
		t.Errorf("no .hgrm files: %v", err)
	}
}

func TestRunFailureNamesADeadCluster(t *testing.T) {
	ctx, died := context.WithCancelCause(context.Background())
	d := &cluster.DiedError{Side: "candidate", Version: "2.6.1-hadoop3", PID: 4242, Exit: "was killed by signal 9 (killed)", LogPath: "/tmp/x/hbase.log"}
	died(d)
	err := job.RunFailure(ctx, errors.New("hbase: getProcedureResult failed after 16 attempts"))
	if code(err) != exitRunFailed || !errors.Is(err, cluster.ErrClusterDied) {
		t.Fatalf("exit %d, err %v; want exit 3 and ErrClusterDied", code(err), err)
	}
	msg := err.Error()
	for _, want := range []string{"candidate HBase 2.6.1-hadoop3 died", "pid 4242", "signal 9", "/tmp/x/hbase.log"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.HasPrefix(msg, "interrupted") {
		t.Errorf("a death is reported as an interruption: %q", msg)
	}
}
