package loadhosts_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/go-zookeeper/zk"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
	"github.com/regress-hbase/regress/harness/workload"
)

// workerEnv makes this test binary a load host (regress worker) serving the
// ZooKeeper it names, so the tests run real worker processes they can kill.
const workerEnv = "REGRESS_TEST_LOADHOST_ZK"

// skewEnv sets such a worker's clock ahead of the machine's (a duration).
const skewEnv = "REGRESS_TEST_LOADHOST_SKEW"

var shared cluster.Cluster

func TestMain(m *testing.M) {
	if zkAddr := os.Getenv(workerEnv); zkAddr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		w := &loadhosts.Worker{ZK: zkAddr, OnRegistered: func(h loadhosts.Host) { fmt.Println("registered", h.ID) }}
		if skew, err := time.ParseDuration(os.Getenv(skewEnv)); err == nil {
			loadhosts.SetClockSkew(w, skew)
		}
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
// env is added to each one's environment.
func startWorkers(t testing.TB, n int, env ...string) []*worker {
	t.Helper()
	var ws []*worker
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(append(os.Environ(), workerEnv+"="+shared.ZKAddr()), env...)
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
			clustertest.StopChild(cmd, 20*time.Second)
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

func tinySuite(t testing.TB, measure string) *suite.Suite {
	return fleetSuite(t, "workloadd", 300, 24, "1s", measure, 0)
}

func fleetSuite(t testing.TB, workload string, rate, threads int, warmup, measure string, rounds int) *suite.Suite {
	t.Helper()
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	s, err := suite.Parse([]byte(fmt.Sprintf(`
name: fleet
workloads: [%s]
data: {recordcount: 2000, regions: 3}
run: {threads: %d, target: %d, warmup: %s, measure: %s, warmup_rounds: %d}
pairs: {initial: 2, max: 2, looks: 1}
`, workload, threads, rate, warmup, measure, rounds)), scen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func setup(t testing.TB, hosts int) (context.Context, *hbase.Client, *loadhosts.Coordinator, *results.Store) {
	t.Helper()
	if testing.Short() {
		t.Skip("talks to a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
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
	m, err := r.RunSingle(ctx, &sut.Target{Name: "fleet", Label: "fleet", Version: shared.Version(), Provider: "local",
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
	byTag := map[string]*hdrhistogram.Histogram{}
	if err := loadgen.MergeByTag(byTag, intervals); err != nil {
		t.Fatal(err)
	}
	if h := byTag[loadgen.Tag(loadgen.Succeeded.Name(workload.Read), loadgen.Intended)]; h == nil || h.TotalCount() != tr.Ops["READ"].Statuses["OK"] {
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
	_, err := r.RunSingle(ctx, &sut.Target{Name: "fleet", Label: "fleet", Version: shared.Version(), Provider: "local",
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

// TestDuetOnLoadHosts runs duet pairs on two load hosts, both sides on the
// shared cluster (the flow is the same as two clusters'): each host runs its
// share of both sides' trials at once, from the instant the coordinator
// agreed through ZooKeeper's clock, so a pair's two windows open together;
// each host's clock is measured against the run's (on one machine the true
// offset is zero, so the bound must hold it), and the region server is read
// at the window's edges as a run from this process reads it; the profiled
// pair is recorded over the window the hosts started.
func TestDuetOnLoadHosts(t *testing.T) {
	ctx, c, co, store := setup(t, 2)
	startWorkers(t, 2)
	if _, err := co.WaitHosts(ctx, 2, time.Minute); err != nil {
		t.Fatal(err)
	}
	// 100 ops/s over 5 s: beside a release run (load 10-15 on 2 cores) a
	// 200 ops/s, 3 s window held 90.5% of its rate, the machine's shortfall.
	const rate = 100
	s := fleetSuite(t, "workloadc", rate, 8, "1s", "5s", 0)
	s.Run.Mode, s.Run.Idle = suite.ModeDuet, time.Second
	servers, note := sut.Servers(shared)
	if len(servers) == 0 {
		t.Fatalf("no region server to read: %s", note)
	}
	r := &runner.Runner{Suite: s, Store: store, RunID: "fleetduet", LoadHosts: co, Profile: true}
	target := func(name string) *sut.Target {
		return &sut.Target{Name: name, Label: name, Version: shared.Version(), Provider: "local",
			Client: c, ZK: shared.ZKAddr(), ZNode: "/hbase", Servers: servers}
	}
	bm, cm, err := r.RunPairs(ctx, target("fleetbase"), target("fleetcand"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bm.Trials) != 2 || len(cm.Trials) != 2 {
		t.Fatalf("%d and %d trials, want 2 pairs", len(bm.Trials), len(cm.Trials))
	}
	for i, bt := range bm.Trials {
		ct := cm.Trials[i]
		if !bt.Duet || !ct.Duet {
			t.Errorf("pair %d: duet %v/%v, want both", bt.Pair, bt.Duet, ct.Duet)
		}
		if !bt.Start.Equal(ct.Start) {
			t.Errorf("pair %d: windows opened at %v and %v, want the agreed instant on both sides", bt.Pair, bt.Start, ct.Start)
		}
		for _, tr := range []results.Trial{bt, ct} {
			if len(tr.LoadHosts) != 2 {
				t.Fatalf("trial %s: %d load hosts, want 2", tr.ID, len(tr.LoadHosts))
			}
			for _, h := range tr.LoadHosts {
				if h.ClockErrorMs <= 0 || h.ClockErrorMs > 1000 || math.Abs(h.ClockAheadMs) > h.ClockErrorMs {
					t.Errorf("trial %s, host %s: clock ahead %.3f ms +- %.3f, want 0 within the bound (one machine, one clock)", tr.ID, h.Host, h.ClockAheadMs, h.ClockErrorMs)
				}
				if h.BarrierLeadMs <= 0 || h.Ops == 0 {
					t.Errorf("trial %s, host %s: saw the barrier %.1f ms before the start, ran %d ops; want in time, some ops", tr.ID, h.Host, h.BarrierLeadMs, h.Ops)
				}
			}
			if sv := tr.Server; sv == nil || sv.CPUPerOpMicros <= 0 || sv.WindowMillis < 4500 {
				t.Errorf("trial %s: server cost %+v, want the region server read over the 5 s window", tr.ID, sv)
			}
			if tr.AchievedOpsPerSec < loadgen.HoldThreshold*rate {
				t.Errorf("trial %s: achieved %.1f of %d ops/s", tr.ID, tr.AchievedOpsPerSec, rate)
			}
		}
	}
	// The profiled pair ran on the hosts too, recorded from the agreed start.
	for _, m := range []*results.Manifest{bm, cm} {
		metas, err := results.ReadProfileMetas(store.Dir(results.KeyOf(m)))
		if err != nil || len(metas) != 1 || metas[0].Ops == 0 {
			t.Errorf("%s: profiles %+v (%v), want the profiled pair's, with its operations; notes %q", m.Label, metas, err, r.ProfileNotes())
		}
	}
	assertNoTrialZNodes(t)
}

// TestHostWithItsOwnClockStartsAtTheAgreedInstant runs a trial on two
// load hosts, one whose clock is 3 s ahead of the machine's: the run
// measures that host's clock 3 s ahead of its own (within the bound it
// reports), and both hosts' measurement windows open at the agreed instant
// on the machine's one clock, the skewed host's too.
func TestHostWithItsOwnClockStartsAtTheAgreedInstant(t *testing.T) {
	ctx, c, co, _ := setup(t, 2)
	const table, skew = "regress_clockskew", 3 * time.Second
	if err := c.CreateTable(ctx, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "family"}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.DisableTable(context.Background(), table)
		_ = c.DeleteTable(context.Background(), table)
	})
	ws := append(startWorkers(t, 1), startWorkers(t, 1, skewEnv+"="+skew.String())...)
	if _, err := co.WaitHosts(ctx, 2, time.Minute); err != nil {
		t.Fatal(err)
	}
	spec, err := fleetSuite(t, "workloadc", 100, 4, "1s", "2s", 0).TrialSpec("workloadc", 1)
	if err != nil {
		t.Fatal(err)
	}
	spec.Workload.Table = table
	p, err := co.Prepare(ctx, loadhosts.Task{Trial: table, ZK: shared.ZKAddr(), ZNode: "/hbase", Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start := time.Now().Add(loadhosts.StartLead)
	tr, err := p.Go(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	window := start.Add(time.Second)
	if !tr.Merged.Start.Equal(window) {
		t.Errorf("the trial's window opened at %v, want the agreed %v", tr.Merged.Start, window)
	}
	for _, h := range tr.Hosts {
		want := time.Duration(0)
		if h.Host.ID == ws[1].id {
			want = skew
		}
		if d := h.ClockAhead - want; d.Abs() > h.ClockError {
			t.Errorf("host %s: clock %v ahead of the run's +- %v, want %v", h.Host.ID, h.ClockAhead, h.ClockError, want)
		}
		// The host's result is on the machine's clock (the skew is its clock's only).
		if d := h.Result.Start.Sub(window); d.Abs() > h.ClockError+10*time.Millisecond {
			t.Errorf("host %s (clock %v ahead): window opened %v after the agreed instant, want within its clock's bound %v", h.Host.ID, want, d, h.ClockError)
		}
		if h.Lead <= 0 || h.Result.Ops == 0 {
			t.Errorf("host %s: saw the barrier %v before the start, ran %d ops", h.Host.ID, h.Lead, h.Result.Ops)
		}
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

// BenchmarkLoadHosts runs workload C at one total rate from this process,
// from one `regress worker` and from three, and prints per trial the
// achieved rate, the fleet's client CPU per operation and READ latencies:
// what splitting the schedule costs. On one machine the hosts share its
// cores with HBase, so this shows overhead, not scale-out. LOADHOSTS_RATE
// (default 1500) and LOADHOSTS_MEASURE (default 10s) set the run.
func BenchmarkLoadHosts(b *testing.B) {
	rate, measure := 1500, "10s"
	if v := os.Getenv("LOADHOSTS_RATE"); v != "" {
		fmt.Sscan(v, &rate)
	}
	if v := os.Getenv("LOADHOSTS_MEASURE"); v != "" {
		measure = v
	}
	for range b.N {
		fmt.Printf("workload C at %d ops/s, 32 threads in all, %s per trial (after a 2 s warm-up and one warm-up trial)\n", rate, measure)
		fmt.Printf("%-18s %6s %10s %9s %10s %12s %12s %12s\n", "load from", "trial", "achieved", "held", "cpu/op us", "READ p50 us", "READ p99 us", "intended p99")
		for _, hosts := range []int{0, 1, 3} {
			ctx, c, co, store := setup(b, hosts)
			r := &runner.Runner{Suite: fleetSuite(b, "workloadc", rate, 32, "2s", measure, 1), Store: store, RunID: fmt.Sprintf("bench%d", hosts)}
			name := "this process"
			if hosts > 0 {
				startWorkers(b, hosts)
				if _, err := co.WaitHosts(ctx, hosts, time.Minute); err != nil {
					b.Fatal(err)
				}
				r.LoadHosts = co
				name = fmt.Sprintf("%d load host(s)", hosts)
			}
			m, err := r.RunSingle(ctx, &sut.Target{Name: "bench", Label: fmt.Sprintf("bench%d", hosts), Version: shared.Version(),
				Provider: "local", Client: c, ZK: shared.ZKAddr(), ZNode: "/hbase"})
			if err != nil {
				b.Fatal(err)
			}
			for i, tr := range m.Trials {
				rd := tr.Ops["READ"]
				fmt.Printf("%-18s %6d %10.1f %8.2f%% %10.1f %12.0f %12.0f %12.0f\n", name, i, tr.AchievedOpsPerSec, 100*tr.AchievedOpsPerSec/tr.TargetOpsPerSec,
					tr.Client.CPUPerOpMicros, rd.Service.P50Micros, rd.Service.P99Micros, rd.Intended.P99Micros)
			}
		}
	}
}

// TestOtherBuildRefused registers a host of another regress build: the
// coordinator refuses to run with it and names it.
func TestOtherBuildRefused(t *testing.T) {
	ctx, _, co, _ := setup(t, 1)
	conn, _, err := zk.Connect([]string{shared.ZKAddr()}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h := loadhosts.Host{ID: "old-host-1", Hostname: "old", PID: 1, Build: "v0.0.1 deadbeef", Protocol: 1, Started: time.Now()}
	data, _ := json.Marshal(h)
	if _, err := conn.Create(loadhosts.DefaultRoot+"/hosts/"+h.ID, data, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	_, err = co.WaitHosts(ctx, 1, 20*time.Second)
	if err == nil || !strings.Contains(err.Error(), "old:1 (old-host-1)") || !strings.Contains(err.Error(), "same regress") {
		t.Errorf("a host of another build: %v, want a refusal naming old:1 (old-host-1)", err)
	}
}
