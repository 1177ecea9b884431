package main

import (
	"bytes"
	"context"
	"os"

	"github.com/regress-hbase/regress/harness/results"
	"net"
	"path/filepath"
	"strings"
	"sync"
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

// silentZK accepts TCP connections and never answers, like a ZooKeeper that
// is stuck or a port that is not ZooKeeper's.
func silentZK(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

func TestASilentZooKeeperIsNamedAndGivenUpWithin15s(t *testing.T) {
	zk := silentZK(t)
	scen := filepath.Join("..", "..", "..", "scenarios")
	store := filepath.Join(t.TempDir(), "store")
	var wg sync.WaitGroup
	for _, args := range [][]string{
		{"ycsb", "run", "--zk", zk, "-p", "columnfamily=f", "-p", "operationcount=10", "-p", "recordcount=10"},
		{"run", "--zk", zk, "--label", "silent", "--scenarios", scen, "--store", store, "--quiet"},
		{"--baseline-zk", zk, "--candidate-zk", zk, "--scenarios", scen, "--store", store, "--quiet", "--out", filepath.Join(t.TempDir(), "r")},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			_, errOut, err := runCLI(t, args...)
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), "did not answer within 10s") || !strings.Contains(err.Error(), "regress doctor --zk") {
				t.Errorf("regress %s: %v, want it to say ZooKeeper did not answer", strings.Join(args, " "), err)
			}
			if !strings.Contains(errOut, "waiting for ZooKeeper "+zk+" to answer") {
				t.Errorf("regress %s said nothing while it waited:\n%s", strings.Join(args, " "), errOut)
			}
			if took > 15*time.Second {
				t.Errorf("regress %s: gave up after %v, want within 15s", strings.Join(args, " "), took)
			}
		}()
	}
	wg.Wait()
}

// runCLIIn is runCLI with ctx: a cancelled ctx is a SIGINT or SIGTERM
// received before the command finished.
func runCLIIn(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

func TestSmallerHardeningOfRoundTwo(t *testing.T) {
	dir := t.TempDir()
	st, _ := results.Open(filepath.Join(dir, "store"))
	storeSide(t, st, "base", 1.0, 8, 0)
	storeSide(t, st, "cand", 1.0, 8, 1)
	scen := filepath.Join("..", "..", "..", "scenarios")
	ycsb := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb", "ycsb-0.17-workloada.txt")

	t.Run("out inside the store", func(t *testing.T) {
		for _, out := range []string{filepath.Join(st.Root(), "base", "r"), st.Root()} {
			_, _, err := runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", out)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "lies inside the results store") {
				t.Errorf("--out %s: %v, want exit 2", out, err)
			}
		}
	})
	t.Run("empty store", func(t *testing.T) {
		for _, args := range [][]string{
			{"results", "list", "--store", ""},
			{"compare", "--baseline", "base", "--candidate", "cand", "--store", " "},
			{"import-ycsb", ycsb, "--version", "2.6.0", "--workload", "workloada", "--store", ""},
		} {
			_, _, err := runCLI(t, args...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "results store directory is empty") {
				t.Errorf("%v: %v, want exit 2", args, err)
			}
		}
	})
	// Issue 29's second probe round: --out '' wrote to reports/<timestamp>,
	// a directory the user did not name, where --store '' is refused.
	t.Run("empty out", func(t *testing.T) {
		for _, args := range [][]string{
			{"compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", ""},
			{"compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", " "},
			{"history", "--versions", "2.6.0,2.6.1", "--store", st.Root(), "--out", ""},
		} {
			_, _, err := runCLI(t, args...)
			if code(err) != exitUsage || !strings.Contains(err.Error(), "the report directory is empty") {
				t.Errorf("%v: %v, want exit 2", args, err)
			}
		}
	})
	t.Run("scenarios that are no directory", func(t *testing.T) {
		t.Setenv("REGRESS_SCENARIOS", "/dev/null")
		_, _, err := runCLI(t, "compare", "--baseline", "base", "--candidate", "cand", "--store", st.Root(), "--out", filepath.Join(dir, "r1"))
		if code(err) != exitUsage || !strings.Contains(err.Error(), "scenarios /dev/null is a character device, not a directory") {
			t.Errorf("REGRESS_SCENARIOS=/dev/null: %v, want exit 2", err)
		}
	})
	t.Run("interrupted list", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for _, args := range [][]string{{"results", "list", "--store", st.Root()}, {"results", "check", "--store", t.TempDir()}} { // a store (empty); one that does not exist is exit 2
			if _, _, err := runCLIIn(ctx, args...); code(err) != exitRunFailed {
				t.Errorf("%v interrupted: %v (exit %d), want exit 3", args, err, code(err))
			}
		}
	})
	t.Run("fail on inconclusive without a verdict", func(t *testing.T) {
		for _, v := range []string{"2.6.0", "2.6.1"} {
			if _, _, err := runCLI(t, "import-ycsb", ycsb, "--version", v, "--workload", "workloada", "--store", st.Root()); err != nil {
				t.Fatal(err)
			}
		}
		args := []string{"compare", "--baseline", "2.6.0", "--candidate", "2.6.1", "--store", st.Root(), "--scenarios", scen, "--out", filepath.Join(dir, "r2")}
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatalf("a descriptive comparison: %v, want exit 0", err)
		}
		args[len(args)-1] = filepath.Join(dir, "r3") // a report folder is never written twice
		_, _, err := runCLI(t, append(args, "--fail-on-inconclusive")...)
		if code(err) != exitInconclusive || !strings.Contains(err.Error(), "DESCRIPTIVE") {
			t.Errorf("--fail-on-inconclusive on a descriptive comparison: %v (exit %d), want exit 4", err, code(err))
		}
	})
	t.Run("file kinds in words", func(t *testing.T) {
		link := filepath.Join(st.Root(), "base", "fixture-link")
		if err := os.Symlink(filepath.Join(st.Root(), "cand"), link); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(link)
		_, _, err := runCLI(t, "results", "remove", "base/fixture-link", "--store", st.Root())
		if code(err) != exitUsage || !strings.Contains(err.Error(), "is a symbolic link where an entry directory belongs") || strings.Contains(err.Error(), "L-") {
			t.Errorf("remove of a link: %v", err)
		}
	})
}
