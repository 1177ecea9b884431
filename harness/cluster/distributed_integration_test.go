package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLocalTwoRegionServersStartAndStopLeavingNoJVM starts a pseudo-distributed
// cluster with two region servers, checks its four JVMs (own process groups,
// logs and ports), that both servers registered, and that Stop leaves no process.
func TestLocalTwoRegionServersStartAndStopLeavingNoJVM(t *testing.T) {
	skipShort(t)
	wd := t.TempDir()
	start := time.Now()
	cl, err := NewLocal("").Start(context.Background(), Spec{Version: testVersion(), WorkDir: wd, RegionServers: 2, RSHeap: "512m", StartTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Stop(context.Background()) })
	t.Logf("2 region servers ready in %s", time.Since(start).Round(time.Millisecond))
	c := cl.(*localCluster)
	procs := c.Processes()
	var roles []string
	for _, p := range procs {
		roles = append(roles, p.Role)
	}
	if got, want := strings.Join(roles, ","), "zookeeper,master,region server 1,region server 2"; got != want {
		t.Fatalf("JVM roles = %s, want %s", got, want)
	}
	logs := map[string]bool{}
	for _, p := range procs {
		if !pgidAlive(p.PID) {
			t.Errorf("%s JVM (pgid %d) is not running", p.Role, p.PID)
		}
		if logs[p.LogPath] {
			t.Errorf("%s shares log %s", p.Role, p.LogPath)
		}
		logs[p.LogPath] = true
		if st, err := os.Stat(p.LogPath); err != nil || st.Size() == 0 {
			t.Errorf("%s log %s is missing or empty (%v)", p.Role, p.LogPath, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(procs[2].PID), "cmdline")); err != nil || !strings.Contains(string(b), "-Xmx512m") {
		t.Errorf("region server 1 command line lacks -Xmx512m (--rs-heap): %q %v", b, err)
	}
	if c.Info().RegionServers != 2 || c.RegionServers() != 2 {
		t.Errorf("Info().RegionServers = %d, RegionServers() = %d, want 2", c.Info().RegionServers, c.RegionServers())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := RegionServersReady(2)(ctx, c); err != nil {
		t.Fatalf("after a ready start: %v", err)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	for _, p := range procs {
		if pgidAlive(p.PID) {
			t.Errorf("%s process group %d has processes after Stop", p.Role, p.PID)
		}
	}
	assertNoProcessIn(t, wd)
}

// TestLocalRegionServerDeathNamesItAndKillsTheRest kills one region server
// of a running two-server cluster: the death names that server, and the
// other JVMs are killed so none outlives the cluster.
func TestLocalRegionServerDeathNamesItAndKillsTheRest(t *testing.T) {
	skipShort(t)
	wd := t.TempDir()
	cl, err := NewLocal("").Start(context.Background(), Spec{Version: testVersion(), WorkDir: wd, RegionServers: 2, RSHeap: "512m", StartTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Stop(context.Background()) })
	c := cl.(*localCluster)
	victim := c.Processes()[3]
	if err := syscall.Kill(victim.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Exited():
	case <-time.After(60 * time.Second):
		t.Fatal("the cluster's other JVMs still run 60s after a region server died")
	}
	d := c.Died()
	if d == nil || d.Role != "region server 2" || d.PID != victim.PID || !errors.Is(d, ErrClusterDied) {
		t.Fatalf("Died() = %+v, want region server 2 (pid %d)", d, victim.PID)
	}
	if !strings.Contains(d.Error(), "region server 2 JVM") || !strings.Contains(d.Error(), "signal 9") || d.LogPath != victim.LogPath {
		t.Errorf("death message %q (log %s) should name region server 2, signal 9 and log %s", d.Error(), d.LogPath, victim.LogPath)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop after the death: %v", err)
	}
	assertNoProcessIn(t, wd)
}

// TestHomeStartsTwoRegionServers starts a release home (laid out from the
// release jars) as a two-server cluster: the home provider shares the
// local provider's launch, so a home gets the same JVMs.
func TestHomeStartsTwoRegionServers(t *testing.T) {
	skipShort(t)
	home := layOutHome(t, testVersion())
	wd := t.TempDir()
	cl, err := NewHome(home, "").Start(context.Background(), Spec{WorkDir: wd, RegionServers: 2, RSHeap: "512m", StartTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatalf("starting the home %s with 2 region servers: %v", home, err)
	}
	t.Cleanup(func() { _ = cl.Stop(context.Background()) })
	c := cl.(*localCluster)
	if n := len(c.Processes()); n != 4 || c.Info().Provider != "home" {
		t.Fatalf("%d JVMs from provider %q, want 4 from home", n, c.Info().Provider)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := RegionServersReady(2)(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertNoProcessIn(t, wd)
}
