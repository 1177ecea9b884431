package cluster

import (
	"context"
	"os"
	"testing"
	"time"
)

// testVersion is the HBase version integration tests start.
func testVersion() string {
	if v := os.Getenv("REGRESS_TEST_HBASE_VERSION"); v != "" {
		return v
	}
	return "2.6.1-hadoop3"
}

// startStop starts version, asserts readiness, stops it and asserts that no
// process of its group remains.
func startStop(t *testing.T, p *Local, version string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := p.Start(ctx, Spec{Version: version})
	if err != nil {
		t.Fatalf("Start(%s): %v", version, err)
	}
	lc := c.(*localCluster)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	t.Logf("HBase %s ready in %s at %s, log %s", c.Version(), time.Since(start).Round(time.Millisecond), c.ZKAddr(), c.LogPath())
	if err := ZNodesReady(ctx, c); err != nil {
		t.Fatalf("cluster reported ready but znodes are missing: %v", err)
	}
	if !pgidAlive(lc.PGID()) {
		t.Fatalf("process group %d is gone while the cluster should run", lc.PGID())
	}
	stopStart := time.Now()
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	t.Logf("stopped in %s", time.Since(stopStart).Round(time.Millisecond))
	if pgidAlive(lc.PGID()) {
		t.Fatalf("process group %d still has processes after Stop", lc.PGID())
	}
	if _, err := os.Stat(lc.WorkDir()); !os.IsNotExist(err) {
		t.Fatalf("work dir %s still exists after Stop without Keep (stat err %v)", lc.WorkDir(), err)
	}
}

func TestLocalStartStop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	startStop(t, NewLocal(""), testVersion())
}
