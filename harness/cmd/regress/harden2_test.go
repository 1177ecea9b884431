package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test when it has not returned after d (a hang).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

func TestYCSBRefusesAPropertyFileThatIsAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, phase := range []string{"run", "load", "create-table"} {
		within(t, 10*time.Second, "ycsb "+phase+" -P FIFO", func() {
			_, _, err := runCLI(t, "ycsb", phase, "-P", fifo, "--zk", "localhost:2181")
			if code(err) != exitUsage || !strings.Contains(err.Error(), "a named pipe (FIFO), not a regular file") {
				t.Errorf("ycsb %s -P FIFO: %v, want exit 2 naming the pipe", phase, err)
			}
		})
	}
}

func TestWorkerRefusesANonPositiveZKTimeout(t *testing.T) {
	for _, v := range []string{"0", "-1s"} {
		within(t, 10*time.Second, "worker --zk-timeout "+v, func() {
			_, _, err := runCLI(t, "worker", "--zk", "localhost:2181", "--zk-timeout", v)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "--zk-timeout") {
				t.Errorf("--zk-timeout %s: %v, want exit 2", v, err)
			}
		})
	}
}

func TestEveryZooKeeperFlagRefusesABadAddressAtParsing(t *testing.T) {
	for _, args := range [][]string{
		{"--baseline", "2.6.0", "--candidate-zk", "ZK"},
		{"--baseline-zk", "ZK", "--candidate", "2.6.1"},
		{"--baseline", "2.6.0", "--candidate", "2.6.1", "--load-hosts", "1", "--load-hosts-zk", "ZK"},
		{"run", "--zk", "ZK", "--label", "x"},
		{"capacity", "--baseline-zk", "ZK", "--candidate", "2.6.1"},
		{"worker", "--zk", "ZK"},
		{"doctor", "--zk", "ZK"},
		{"ycsb", "run", "--zk", "ZK", "-p", "columnfamily=f"},
		{"ycsb", "load", "--zk", "ZK", "-p", "columnfamily=f"},
		{"ycsb", "create-table", "--zk", "ZK", "-p", "columnfamily=f"},
	} {
		for _, bad := range []string{"127.0.0.1:x", ":99999", "a:2181,,b:2181"} {
			a := make([]string, len(args))
			for i, s := range args {
				a[i] = strings.ReplaceAll(s, "ZK", bad)
			}
			within(t, 5*time.Second, strings.Join(a, " "), func() {
				_, _, err := runCLI(t, a...)
				if code(err) != exitUsage || !strings.Contains(err.Error(), "give host:port") {
					t.Errorf("regress %s: %v, want exit 2 saying what a quorum is", strings.Join(a, " "), err)
				}
			})
		}
	}
}

// noTools leaves the test without mvn and java on PATH, so a check missing
// from flag validation fails the test at once instead of starting anything.
func noTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	t.Setenv("REGRESS_CACHE_DIR", t.TempDir())
}

func TestFlagsAreCheckedBeforeAnythingStarts(t *testing.T) {
	noTools(t)
	scen := filepath.Join("..", "..", "..", "scenarios")
	store := filepath.Join(t.TempDir(), "store")
	pair := []string{"--baseline", "2.6.0", "--candidate", "2.6.1", "--scenarios", scen, "--store", store}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"open-ended range", []string{"history", "--versions", "2.6.0..", "--scenarios", scen, "--store", store}, "a range needs both ends"},
		{"range without a start", []string{"history", "--versions", "..2.6.1", "--scenarios", scen, "--store", store}, "a range needs both ends"},
		{"range backwards", []string{"history", "--versions", "2.6.1..2.6.0", "--scenarios", scen, "--store", store}, "runs backwards"},
		{"bisect range backwards", []string{"bisect", "--good", "2.6.0", "--bad", "2.6.2", "--versions", "2.6.2..2.6.0", "--workload", "workloadc", "--metric", "READ/p95", "--scenarios", scen, "--store", store}, "runs backwards"},
		{"home that does not exist", []string{"--baseline", "2.6.0", "--candidate-home", "/nonexistent", "--scenarios", scen, "--store", store}, "--candidate-home /nonexistent is not an HBase home"},
		{"java home that does not exist", append(pair, "--candidate-java-home", "/nonexistent"), "--candidate-java-home /nonexistent: no JDK there"},
		{"empty JVM option", append(pair, "--candidate-jvm-opt", ""), "a JVM option starts with a dash"},
		{"JVM option without a dash", append(pair, "--baseline-jvm-opt", "Xmx1g"), "a JVM option starts with a dash"},
		{"heap beyond the machine", append(pair, "--rs-heap", "99999999g"), "more than this machine's memory"},
		{"no region servers", append(pair, "--region-servers", "0"), "give a whole number of at least 1"},
		{"run with no region servers", []string{"run", "--version", "2.6.1", "--region-servers", "0"}, "give a whole number of at least 1"},
		{"negative load hosts timeout", append(pair, "--load-hosts-timeout", "-1s"), "--load-hosts-timeout -1s"},
		{"znode without a slash", append(pair, "--znode", "noslash"), `--znode "noslash"`},
		{"doctor znode without a slash", []string{"doctor", "--zk", "localhost:1", "--znode", "hbase"}, `--znode "hbase"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			within(t, 10*time.Second, c.name, func() {
				_, _, err := runCLI(t, c.args...)
				if code(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
					t.Errorf("regress %s: %v, want exit 2 with %q", strings.Join(c.args, " "), err, c.want)
				}
			})
		})
	}
}
