package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/proctest"
)

// The versions the integration tests start: the suite's version and one other
// line, to prove two releases run side by side.
func testVersion() string  { return envOr("REGRESS_TEST_HBASE_VERSION", "2.6.1-hadoop3") }
func otherVersion() string { return envOr("REGRESS_TEST_HBASE_OTHER_VERSION", "2.5.11-hadoop3") }

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
}

// assertNoProcessIn fails t when a process of the work dir survives a short grace.
func assertNoProcessIn(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Fatalf("cannot check for leftover processes without /proc: %v", err)
	}
	var left []string
	for range 50 {
		if left = proctest.ProcessesIn(dir); len(left) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("processes %v of work dir %s remain", left, dir)
}

func TestLocalTwoVersionsSideBySide(t *testing.T) {
	skipShort(t)
	p := NewLocal("")
	var extraCalls atomic.Int32
	// A second check after the znodes proves the readiness chain is pluggable.
	p.Ready = append(DefaultReadyChecks(), func(ctx context.Context, c Cluster) error {
		extraCalls.Add(1)
		return nil
	})
	keptDir := filepath.Join(t.TempDir(), "kept")
	ctxA := context.Background()
	ctxB, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	// The suite's options for the JDK each runs on: a's on its command
	// line and named in its Info; b's own option of the same name wins.
	byJDK := map[string][]string{"11": {"-Dregress.jdkopt=suite"}, "17": {"-Dregress.jdkopt=suite"}}
	specs := []Spec{
		{Version: testVersion(), JVMOptsByJDK: byJDK},
		{Version: otherVersion(), WorkDir: keptDir, Keep: true, JVMOptsByJDK: byJDK, JVMOpts: []string{"-Dregress.jdkopt=mine"}},
	}
	ctxs := []context.Context{ctxA, ctxB}
	clusters := make([]Cluster, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			clusters[i], errs[i] = p.Start(ctxs[i], specs[i])
			if errs[i] == nil {
				t.Logf("HBase %s ready in %s (side by side) at %s", clusters[i].Version(), time.Since(start).Round(time.Millisecond), clusters[i].ZKAddr())
			}
		}()
	}
	wg.Wait()
	for i, c := range clusters {
		if c != nil {
			t.Cleanup(func() { _ = c.Stop(context.Background()) })
		}
		if errs[i] != nil {
			t.Fatalf("Start(%s): %v", specs[i].Version, errs[i])
		}
	}
	a, b := clusters[0].(*localCluster), clusters[1].(*localCluster)
	if a.ZKAddr() == b.ZKAddr() || a.WorkDir() == b.WorkDir() {
		t.Fatalf("clusters share ZooKeeper %s/%s or work dir %s/%s", a.ZKAddr(), b.ZKAddr(), a.WorkDir(), b.WorkDir())
	}
	if extraCalls.Load() < 2 {
		t.Errorf("the extra readiness check ran %d times, want once per cluster at least", extraCalls.Load())
	}
	for _, c := range []*localCluster{a, b} {
		if !strings.HasPrefix(c.Version(), strings.TrimSuffix(c.Version(), "-hadoop3")) || !strings.HasPrefix(c.ZKAddr(), "127.0.0.1:") {
			t.Errorf("cluster reports version %q zk %q", c.Version(), c.ZKAddr())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := ZNodesReady(ctx, c); err != nil {
			t.Errorf("HBase %s reported ready but: %v", c.Version(), err)
		}
		cancel()
		if !pgidAlive(c.PGID()) {
			t.Errorf("HBase %s: process group %d gone while running", c.Version(), c.PGID())
		}
	}

	for i, c := range []*localCluster{a, b} {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", c.PGID()))
		if err != nil {
			t.Fatal(err)
		}
		want, notWant := "-Dregress.jdkopt=suite", "-Dregress.jdkopt=mine"
		if i == 1 {
			want, notWant = notWant, want
		}
		args := strings.Split(string(cmdline), "\x00")
		if !slices.Contains(args, want) || slices.Contains(args, notWant) {
			t.Errorf("HBase %s runs with %q, want %s and not %s", c.Version(), args, want, notWant)
		}
		if got := c.Info().JDKOpts; i == 0 && !slices.Equal(got, []string{"-Dregress.jdkopt=suite"}) || i == 1 && got != nil {
			t.Errorf("HBase %s: Info().JDKOpts %q", c.Version(), got)
		}
	}

	// Stop a explicitly; stop b by cancelling the context it was started with.
	stopStart := time.Now()
	if err := a.Stop(context.Background()); err != nil {
		t.Fatalf("Stop(%s): %v", a.Version(), err)
	}
	t.Logf("HBase %s stopped in %s", a.Version(), time.Since(stopStart).Round(time.Millisecond))
	if pgidAlive(a.PGID()) {
		t.Errorf("HBase %s: process group %d has processes after Stop", a.Version(), a.PGID())
	}
	if _, err := os.Stat(a.WorkDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("work dir %s remains after Stop without Keep (stat: %v)", a.WorkDir(), err)
	}
	cancelB()
	select {
	case <-b.done:
	case <-time.After(DefaultStopGrace + 10*time.Second):
		t.Fatalf("HBase %s still runs after its start context was cancelled", b.Version())
	}
	if err := b.Stop(context.Background()); err != nil {
		t.Fatalf("Stop(%s) after cancel: %v", b.Version(), err)
	}
	if pgidAlive(b.PGID()) {
		t.Errorf("HBase %s: process group %d has processes after cancel", b.Version(), b.PGID())
	}
	if _, err := os.Stat(b.LogPath()); err != nil {
		t.Errorf("log of kept cluster: %v", err)
	}
	assertNoProcessIn(t, keptDir)
}

func TestLocalStartFailureShowsLogTail(t *testing.T) {
	skipShort(t)
	wd := t.TempDir()
	_, err := NewLocal("").Start(context.Background(), Spec{Version: testVersion(), WorkDir: wd,
		JVMOpts: []string{"-XX:+RegressNoSuchOption"}})
	var se *StartError
	if !errors.As(err, &se) || !errors.Is(err, ErrStartFailed) {
		t.Fatalf("err = %v, want a StartError", err)
	}
	if se.LogPath != filepath.Join(wd, "logs", "hbase.log") || !strings.Contains(err.Error(), se.LogPath) {
		t.Errorf("error names log %q, want the work dir's logs/hbase.log in the message", se.LogPath)
	}
	if len(se.Tail) == 0 || len(se.Tail) > logTailLines || !strings.Contains(strings.Join(se.Tail, "\n"), "RegressNoSuchOption") {
		t.Errorf("tail = %q, want up to %d lines showing the JVM's complaint", se.Tail, logTailLines)
	}
	assertNoProcessIn(t, wd)
}

func TestLocalStartTimeoutLeavesNoProcess(t *testing.T) {
	skipShort(t)
	if _, err := NewLocal("").Resolve(context.Background(), Spec{Version: testVersion()}); err != nil {
		t.Fatal(err)
	}
	// With the version cached, a start must not need mvn: PATH holds java only.
	jdk, err := DefaultJDK(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(jdk.Java, filepath.Join(bin, "java")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	wd := t.TempDir()
	_, err = NewLocal("").Start(context.Background(), Spec{Version: testVersion(), WorkDir: wd, StartTimeout: 1500 * time.Millisecond})
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(se.Reason, "not ready after") {
		t.Fatalf("err = %v, want a StartError for the timeout", err)
	}
	assertNoProcessIn(t, wd)
}

func TestLocalCancelDuringStartLeavesNoProcess(t *testing.T) {
	skipShort(t)
	wd := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	p := NewLocal("")
	// Cancel from the first readiness poll: the JVM is running by then.
	p.Ready = []ReadyCheck{func(context.Context, Cluster) error { cancel(); return errors.New("not yet") }}
	_, err := p.Start(ctx, Spec{Version: testVersion(), WorkDir: wd})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	assertNoProcessIn(t, wd)
	if _, err := os.Stat(filepath.Join(wd, "logs")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an interrupted start left its files in %s (stat logs: %v)", wd, err)
	}
}

// childEnv makes the test binary act as a parent that dies without Stop.
const childEnv = "REGRESS_CLUSTER_TEST_CHILD_WORKDIR"

func TestMain(m *testing.M) {
	if wd := os.Getenv(childEnv); wd != "" {
		p := NewLocal("")
		p.Ready = []ReadyCheck{func(context.Context, Cluster) error {
			os.Exit(7) // die with the JVM running and no Stop
			return nil
		}}
		_, err := p.Start(context.Background(), Spec{Version: testVersion(), WorkDir: wd})
		fmt.Fprintln(os.Stderr, "child: Start returned", err)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestLocalParentDeathKillsJVM(t *testing.T) {
	skipShort(t)
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Fatalf("needs Linux /proc (Pdeathsig): %v", err)
	}
	wd := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+wd)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("child exited with %v, want 7 (died while HBase ran); output:\n%s", err, out)
	}
	assertNoProcessIn(t, wd)
}

func TestLocalVersionNotOnMavenCentral(t *testing.T) {
	skipShort(t)
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.99"})
	var nf *VersionNotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, ErrVersionNotFound) {
		t.Fatalf("err = %v, want VersionNotFoundError", err)
	}
	if nf.Version != "2.6.99" || len(nf.Nearest) == 0 {
		t.Fatalf("error %q: want version 2.6.99 and the nearest published versions", err)
	}
	for _, v := range nf.Nearest {
		if !strings.HasPrefix(v, "2.6.") {
			t.Errorf("nearest version %s is not on the 2.6 line: %v", v, nf.Nearest)
		}
	}
	t.Log(err)
}
