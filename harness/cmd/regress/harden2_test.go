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
