package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// layOutHome builds an HBase home the way the binary tarball lays it out,
// from the release jars in the Maven cache (tarballs are not reachable from
// every machine): lib/ holds the jars, lib/client-facing-thirdparty/ the
// logging ones. The directory name lies about the version on purpose.
func layOutHome(t *testing.T, version string) string {
	t.Helper()
	if _, err := NewLocal("").Resolve(context.Background(), Spec{Version: version}); err != nil {
		t.Fatal(err)
	}
	c, err := NewLocal("").cacheFor(Spec{})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := c.lookup(version)
	if !ok {
		t.Fatalf("%s not in the cache after Resolve", version)
	}
	home := filepath.Join(t.TempDir(), "hbase-0.0.1-not-this")
	for _, sub := range []string{"lib/client-facing-thirdparty", "conf", "bin"} {
		if err := os.MkdirAll(filepath.Join(home, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range e.jars {
		name := filepath.Base(j)
		dst := filepath.Join(home, "lib", name)
		if strings.HasPrefix(name, "log4j-") || strings.HasPrefix(name, "slf4j-") {
			dst = filepath.Join(home, "lib", "client-facing-thirdparty", name)
		}
		if err := os.Symlink(j, dst); err != nil {
			t.Fatal(err)
		}
	}
	// A tarball's own conf must not be used: this one would break the start.
	os.WriteFile(filepath.Join(home, "conf", "hbase-site.xml"), []byte("<configuration><property><name>hbase.cluster.distributed</name><value>true</value></property></configuration>"), 0o644)
	return home
}

func TestHomeStartsAReleaseAndNamesItsDeath(t *testing.T) {
	skipShort(t)
	home := layOutHome(t, testVersion())
	p := NewHome(home, "")
	start := time.Now()
	c, err := p.Start(context.Background(), Spec{Name: "candidate"})
	if err != nil {
		t.Fatalf("starting the home %s: %v", home, err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	t.Logf("HBase %s from a home ready in %s", c.Version(), time.Since(start).Round(time.Millisecond))
	if c.Version() != testVersion() {
		t.Errorf("Version() = %q, want %q read from the jars", c.Version(), testVersion())
	}
	info := c.(Describer).Info()
	if info.Provider != "home" || info.Home != home || info.JDK.Major == 0 || len(info.Checksums) == 0 || info.PID == 0 {
		t.Errorf("Info() = %+v, want provider home, the home, a JDK, checksums and a pid", info)
	}
	if _, ok := info.Checksums["hbase-server-"+testVersion()+".jar"]; !ok {
		t.Errorf("checksums %v lack hbase-server", info.Checksums)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ZNodesReady(ctx, c); err != nil {
		t.Fatalf("home cluster reported ready but: %v", err)
	}

	// kill -9 the JVM, as a crash would: the provider must notice and say so.
	lc := c.(*localCluster)
	if err := syscall.Kill(lc.PGID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w := c.(Watched)
	select {
	case <-w.Exited():
	case <-time.After(30 * time.Second):
		t.Fatal("Exited() not closed 30s after kill -9")
	}
	d := w.Died()
	if d == nil {
		t.Fatal("Died() = nil after kill -9")
	}
	msg := d.Error()
	for _, want := range []string{"candidate", c.Version(), "signal 9", "pid", lc.LogPath()} {
		if !strings.Contains(msg, want) {
			t.Errorf("death report %q does not name %q", msg, want)
		}
	}
	if !errors.Is(d, ErrClusterDied) {
		t.Errorf("DiedError does not match ErrClusterDied")
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Errorf("Stop after death: %v", err)
	}
	assertNoProcessIn(t, lc.WorkDir())
}
