package main

import (
	"context"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
)

func TestClusterUpBadInputExits2(t *testing.T) {
	t.Setenv(cluster.CacheDirEnv, t.TempDir())
	for _, args := range [][]string{
		{"cluster", "up"},
		{"cluster", "up", "--version", "2.6.1;id"},
		{"cluster", "up", "--version", "../../2.6.1"},
		{"cluster", "up", "--version", "2.6.1", "--conf", "novalue"},
		{"cluster", "up", "--version", "2.6.1", "--conf", "=x"},
		{"cluster", "up", "--version", "2.6.1", "extra"},
	} {
		out, err := runRegress(t, args...)
		if exitCode(err) != exitUsage || out != "" {
			t.Errorf("%v: exit %d (%v), stdout %q; want exit 2 and nothing on stdout", args, exitCode(err), err, out)
		}
	}
}

func TestParseConfKVs(t *testing.T) {
	got, err := parseConfKVs([]string{"a.b=1", "c= x=y ", "empty="})
	if err != nil || got["a.b"] != "1" || got["c"] != " x=y " || got["empty"] != "" || len(got) != 3 {
		t.Fatalf("parseConfKVs = %v, %v", got, err)
	}
}

// upLine is the one line `cluster up` prints when HBase is ready.
var upLine = regexp.MustCompile(`^zookeeper=127\.0\.0\.1:(\d+) version=(\S+) log=(\S+)\n$`)

func TestClusterUpPrintsOneLineAndStopsOnSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// main cancels this context on SIGINT/SIGTERM.
		done <- runClusterUp(ctx, pw, cluster.NewLocal(""), cluster.Spec{Version: clustertest.Version(), Conf: map[string]string{"hbase.regionserver.handler.count": "5"}})
		pw.Close()
	}()
	var out strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(out.String(), "\n") {
		n, err := pr.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			t.Fatalf("cluster up ended before printing its line (%v): %v", err, <-done)
		}
	}
	line := out.String()
	m := upLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("cluster up printed %q, want one line zookeeper=127.0.0.1:PORT version=V log=PATH", line)
	}
	if !strings.HasPrefix(m[2], strings.TrimSuffix(clustertest.Version(), "-hadoop3")) {
		t.Errorf("version %s is not the requested %s", m[2], clustertest.Version())
	}
	conn, err := net.DialTimeout("tcp", "127.0.0.1:"+m[1], 5*time.Second)
	if err != nil {
		t.Fatalf("ZooKeeper port %s does not accept TCP: %v", m[1], err)
	}
	conn.Close()
	if _, err := os.Stat(m[3]); err != nil {
		t.Errorf("log %s: %v", m[3], err)
	}
	go io.Copy(io.Discard, pr)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("cluster up after the signal: %v, want a clean exit", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("cluster up did not return within 2 minutes of the signal")
	}
	if _, err := os.Stat(m[3]); !os.IsNotExist(err) {
		t.Errorf("work dir log %s remains after stop without --keep", m[3])
	}
	if _, err := net.DialTimeout("tcp", "127.0.0.1:"+m[1], time.Second); err == nil {
		t.Errorf("ZooKeeper port %s still accepts connections after stop", m[1])
	}
}
