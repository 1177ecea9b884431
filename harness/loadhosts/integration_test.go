package loadhosts_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/workload"
)

// workerEnv makes this test binary a load host (regress worker) serving the
// ZooKeeper it names, so the tests run real worker processes they can kill.
const workerEnv = "REGRESS_TEST_LOADHOST_ZK"

var shared cluster.Cluster

func TestMain(m *testing.M) {
	if zkAddr := os.Getenv(workerEnv); zkAddr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		w := &loadhosts.Worker{ZK: zkAddr, OnRegistered: func(h loadhosts.Host) { fmt.Println("registered", h.ID) }}
		if err := w.Serve(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	clustertest.Main(m, func(c cluster.Cluster) (func(), error) {
		shared = c
		return nil, nil
	})
}

// worker is one `regress worker`-like child process.
type worker struct {
	cmd *exec.Cmd
	id  string
	out *bytes.Buffer
}

// startWorkers starts n worker processes on the shared cluster's ZooKeeper
// and waits until each has registered; they are stopped when the test ends.
func startWorkers(t *testing.T, n int) []*worker {
	t.Helper()
	var ws []*worker
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+shared.ZKAddr())
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		out := &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = pw, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		w := &worker{cmd: cmd, out: out}
		t.Cleanup(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		})
		line := make(chan string, 1)
		go func() {
			var b [256]byte
			k, _ := pr.Read(b[:])
			line <- string(b[:k])
			pr.Close()
		}()
		select {
		case l := <-line:
			w.id = strings.TrimSpace(strings.TrimPrefix(l, "registered "))
		case <-time.After(time.Minute):
			t.Fatalf("worker did not register within a minute: %s", out)
		}
		ws = append(ws, w)
	}
	return ws
}

func tinySuite(t *testing.T, measure string) *suite.Suite {
	t.Helper()
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	s, err := suite.Parse([]byte(`
name: fleet
workloads: [workloadd]
data: {recordcount: 2000, regions: 3}
run: {threads: 24, target: 300, warmup: 1s, measure: `+measure+`, warmup_rounds: 0}
pairs: {initial: 2, max: 2, looks: 1}
`), scen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func setup(t *testing.T, hosts int) (context.Context, *hbase.Client, *loadhosts.Coordinator, *results.Store) {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	t.Cleanup(cancel)
	c, err := hbase.Connect(ctx, shared.ZKAddr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	co, err := loadhosts.Connect(ctx, shared.ZKAddr(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(co.Close)
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ctx, c, co, store
}

// TestThreeLoadHostsRunAsOneClient runs a workload D trial (reads and
// run-phase inserts) on three worker processes: the stored trial is one
// client's, its counts are the sum of the hosts', the rate holds, and the
// stored interval log adds up to the same histograms.
func TestThreeLoadHostsRunAsOneClient(t *testing.T) {
	ctx, c, co, store := setup(t, 3)
	startWorkers(t, 3)
	if _, err := co.WaitHosts(ctx, 3, time.Minute); err != nil {
		t.Fatal(err)
	}
	s := tinySuite(t, "5s")
	r := &runner.Runner{Suite: s, Store: store, RunID: "fleet1", LoadHosts: co}
	m, err := r.RunSingle(ctx, &runner.Target{Name: "fleet", Label: "fleet", Version: shared.Version(), Provider: "local",
		Client: c, ZK: shared.ZKAddr(), ZNode: "/hbase"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Trials) != 2 {
		t.Fatalf("%d trials stored, want 2", len(m.Trials))
	}
	for _, tr := range m.Trials {
		checkFleetTrial(t, store, m, tr)
	}
	assertNoTrialZNodes(t)
}

func checkFleetTrial(t *testing.T, store *results.Store, m *results.Manifest, tr results.Trial) {
	t.Helper()
	if len(tr.LoadHosts) != 3 {
		t.Fatalf("trial has %d load hosts, want 3: %+v", len(tr.LoadHosts), tr.LoadHosts)
	}
	var hostOps int64
	for i, h := range tr.LoadHosts {
		if h.Share != i || h.Ops == 0 || h.TargetOpsPerSec < 99 || h.TargetOpsPerSec > 101 {
			t.Errorf("load host %d: %+v, want share %d, some ops, a third of 300 ops/s", i, h, i)
		}
		hostOps += h.Ops
	}
	var trialOps int64
	for _, o := range tr.Ops {
		trialOps += o.Count
	}
	if trialOps != hostOps {
		t.Errorf("trial counts %d operations, its hosts %d: the merged trial must be their sum", trialOps, hostOps)
	}
	if tr.TargetOpsPerSec != 300 || tr.AchievedOpsPerSec < loadgen.HoldThreshold*300 {
		t.Errorf("trial paced %.0f ops/s and achieved %.1f, want 300 held", tr.TargetOpsPerSec, tr.AchievedOpsPerSec)
	}
	if ins := tr.Ops["INSERT"]; ins.Count == 0 || ins.Errors != 0 {
		t.Errorf("inserts %+v: want some, none failed (hosts' insert keys must not collide)", ins)
	}
	if rd := tr.Ops["READ"]; rd.Statuses["NOT_FOUND"] != 0 {
		t.Errorf("%d reads found no row: a host read a key it had not acknowledged", rd.Statuses["NOT_FOUND"])
	}
	raw, err := store.ReadHlog(results.KeyOf(m), tr)
	if err != nil {
		t.Fatal(err)
	}
	intervals, err := loadgen.ReadHlog(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	byTag := loadgen.MergeByTag(intervals)
	if h := byTag[loadgen.Tag(workload.Read, loadgen.Succeeded, loadgen.Intended)]; h == nil || h.TotalCount() != tr.Ops["READ"].Statuses["OK"] {
		t.Errorf("interval log READ.intended holds %v values, the trial %d OK reads", h, tr.Ops["READ"].Statuses["OK"])
	}
}

// TestKilledLoadHostFailsTheTrial kills one of three workers mid-trial: the
// trial fails naming that host, the clone is dropped, no trial znode is left,
// and the two others still serve.
func TestKilledLoadHostFailsTheTrial(t *testing.T) {
	ctx, c, co, store := setup(t, 3)
	ws := startWorkers(t, 3)
	if _, err := co.WaitHosts(ctx, 3, time.Minute); err != nil {
		t.Fatal(err)
	}
	victim := ws[1]
	var once sync.Once
	killed := make(chan time.Time, 1)
	r := &runner.Runner{Suite: tinySuite(t, "30s"), Store: store, RunID: "fleet2", LoadHosts: co,
		OnEvent: func(e runner.Event) {
			if e.Phase == "trial" && e.Trial == 1 && e.Run == nil {
				once.Do(func() {
					go func() {
						time.Sleep(4 * time.Second)
						_ = victim.cmd.Process.Kill()
						killed <- time.Now()
					}()
				})
			}
		}}
	_, err := r.RunSingle(ctx, &runner.Target{Name: "fleet", Label: "fleet", Version: shared.Version(), Provider: "local",
		Client: c, ZK: shared.ZKAddr(), ZNode: "/hbase"})
	failed := time.Now()
	var he *loadhosts.HostError
	if !errors.As(err, &he) {
		t.Fatalf("run with a killed load host: err %v, want a HostError", err)
	}
	if he.Host.ID != victim.id {
		t.Errorf("the error names host %s, the killed one is %s: %v", he.Host.ID, victim.id, err)
	}
	select {
	case at := <-killed:
		if took := failed.Sub(at); took > 25*time.Second {
			t.Errorf("the trial failed %s after the kill, as late as its 30 s window: the death was not noticed", took.Round(time.Second))
		}
	default:
		t.Fatal("the run failed before the load host was killed")
	}
	t.Logf("error: %v", err)
	assertNoTrialZNodes(t)
	tables, err := c.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if strings.Contains(tb, "fleet2") {
			t.Errorf("table %s left after the failed trial", tb)
		}
	}
	// The two others still serve: a coordinator finds them again.
	if _, err := co.WaitHosts(ctx, 2, 30*time.Second); err != nil {
		t.Errorf("the surviving load hosts: %v", err)
	}
}

// assertNoTrialZNodes checks that no trial znode is left behind.
func assertNoTrialZNodes(t *testing.T) {
	t.Helper()
	conn, _, err := zk.Connect([]string{shared.ZKAddr()}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	kids, _, err := conn.Children(loadhosts.DefaultRoot + "/trials")
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != 0 {
		t.Errorf("trial znodes left: %v", kids)
	}
}
