package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

// mainArgsEnv makes this test binary run regress itself with the arguments
// it holds (separated by newlines), so tests can start `regress worker` processes.
const mainArgsEnv = "REGRESS_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(mainArgsEnv); args != "" {
		os.Args = append([]string{"regress"}, strings.Split(args, "\n")...)
		main()
		return
	}
	os.Exit(m.Run())
}

// startRegress starts `regress args...` as a child process, stopped (SIGTERM) when the test ends.
func startRegress(t *testing.T, args ...string) *bytes.Buffer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\n"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		clustertest.StopChild(cmd, 20*time.Second)
		if t.Failed() {
			t.Logf("regress %v:\n%s", args, out.String())
		}
	})
	return &out
}

func TestWorkerNeedsZK(t *testing.T) {
	if _, _, err := runCLI(t, "worker"); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--zk") {
		t.Errorf("worker without --zk: %v, want exit 2 asking for --zk", err)
	}
	if _, _, err := runCLI(t, "ycsb", "load", "--zk", "h:1", "--load-hosts", "2"); exitCode(err) != exitUsage || !strings.Contains(err.Error(), "ycsb run") {
		t.Errorf("ycsb load --load-hosts: %v, want exit 2 saying it is for ycsb run", err)
	}
	if _, _, err := runCLI(t, "ycsb", "run", "--zk", "h:1", "--load-hosts", "0"); exitCode(err) != exitUsage {
		t.Errorf("--load-hosts 0: %v, want exit 2", err)
	}
}

// TestYCSBRunOnThreeLoadHosts runs workload C's reads on three `regress
// worker` processes: the YCSB output is one client's, every read counted
// once, at the target rate.
func TestYCSBRunOnThreeLoadHosts(t *testing.T) {
	c := clustertest.Start(t)
	zk := c.ZKAddr()
	wlc := filepath.Join("..", "..", "..", "scenarios", "workloadc")
	if out, _, err := runCLI(t, "ycsb", "create-table", "--zk", zk, "-p", "columnfamily=family", "-p", "regions=3", "-P", wlc, "-p", "recordcount=3000"); err != nil {
		t.Fatalf("create-table: %v\n%s", err, out)
	}
	if out, _, err := runCLI(t, "ycsb", "load", "--zk", zk, "-P", wlc, "-p", "columnfamily=family", "-p", "recordcount=3000", "-threads", "4"); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	for range 3 {
		startRegress(t, "worker", "--zk", zk)
	}
	out, errOut, err := runCLI(t, "ycsb", "run", "--zk", zk, "--load-hosts", "3", "-P", wlc, "-p", "columnfamily=family",
		"-p", "recordcount=3000", "-p", "operationcount=4500", "-threads", "9", "-target", "450")
	if err != nil {
		t.Fatalf("run on load hosts: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("merged output:\n%s", out)
	if ops, ok := field(t, out, "READ", "Operations"), field(t, out, "READ", "Return=OK"); ops != "4500" || ok != "4500" {
		t.Errorf("[READ] Operations %s, Return=OK %s: want 4500 each (1500 per host)", ops, ok)
	}
	runs, err := ycsbfmt.ParseText("run", strings.NewReader(out))
	if err != nil || len(runs) != 1 {
		t.Fatalf("merged output does not read back: %v (%d runs)", err, len(runs))
	}
	if tput := runs[0].ThroughputOpsPerSec; math.Abs(tput-450)/450 > 0.03 {
		t.Errorf("[OVERALL] Throughput(ops/sec) %v, want within 3%% of 450", tput)
	}
}
