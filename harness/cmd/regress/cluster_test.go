package main

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/sut"
	"github.com/regress-hbase/regress/harness/version"
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
		{"cluster", "up", "--version", "2.6.1", "--region-servers", "-1"},
		{"cluster", "up", "--version", "2.6.1", "--rs-heap", "lots"},
	} {
		out, err := runRegress(t, args...)
		if exitCode(err) != exitUsage || out != "" {
			t.Errorf("%v: exit %d (%v), stdout %q; want exit 2 and nothing on stdout", args, exitCode(err), err, out)
		}
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
		// The CLI's --start-timeout default: job.ClusterUp refuses none.
		done <- job.ClusterUp(ctx, pw, sut.Spec{Version: clustertest.Version(), Conf: []string{"hbase.regionserver.handler.count=5"}}, sut.Options{StartTimeout: cluster.DefaultStartTimeout})
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

func TestClusterVersionsListsCacheWithoutMaven(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"2.6.1-hadoop3", "2.5.11-hadoop3"} {
		lib := filepath.Join(root, v, "lib")
		if err := os.MkdirAll(lib, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(lib, "x.jar"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, v, "classpath.txt"), []byte("x.jar\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "not-a-version;x"), 0o755)
	t.Setenv("PATH", t.TempDir()) // no mvn: the cache must still answer
	out, err := runRegress(t, "cluster", "versions", "--cache-dir", root)
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[1] != "cached" {
			t.Errorf("line %q: want VERSION cached JDK", l)
			continue
		}
		got = append(got, f[0])
	}
	if err != nil || !slices.Equal(got, []string{"2.5.11-hadoop3", "2.6.1-hadoop3"}) {
		t.Fatalf("cluster versions = %q, %v; want the two cached versions, sorted", out, err)
	}
}

func TestClusterVersionsAsksMaven(t *testing.T) {
	if testing.Short() {
		t.Skip("asks Maven's repositories; skipped under -short")
	}
	out, err := runRegress(t, "cluster", "versions", "--cache-dir", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		lines = append(lines, strings.Fields(l)[0])
	}
	if !slices.Contains(lines, "2.6.1-hadoop3") || !slices.Contains(lines, "2.5.11-hadoop3") {
		t.Fatalf("cluster versions lists %d versions without 2.6.1-hadoop3 or 2.5.11-hadoop3", len(lines))
	}
	for i := 1; i < len(lines); i++ {
		if version.Compare(lines[i-1], lines[i]) >= 0 {
			t.Errorf("versions not sorted or duplicated: %s before %s", lines[i-1], lines[i])
		}
	}
}
