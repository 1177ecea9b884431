package runner

import (
	"context"
	"github.com/regress-hbase/regress/harness/sut"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/lifecycle"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
)

// TestTwoRegionServersRunTheSmokeLifecycleOnBothServers starts a local
// cluster of two region servers the way the job does (sut.Start), runs the
// lifecycle (seed, snapshot, clone, a short workload, drop) and checks that
// every trial's clone had regions on both servers, that the per-server clamp
// counted both, that the manifest and the store target say 2, and that
// stopping leaves no JVM.
func TestTwoRegionServersRunTheSmokeLifecycleOnBothServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	targets, stop, err := sut.Start(ctx, sut.Options{ZNode: "/hbase", Topology: sut.Topology{RegionServers: 2, RSHeap: "512m"}},
		sut.Spec{Role: sut.Run, Version: clustertest.Version()})
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	if err != nil {
		t.Fatal(err)
	}
	tgt := targets[0]
	if !strings.Contains(tgt.Name, "+rs2") || tgt.RegionServers != 2 {
		t.Errorf("target %q with %d region servers: want +rs2 in the store name", tgt.Name, tgt.RegionServers)
	}
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	// 300 ops/s asked, 60 per server allowed: 120 with two servers, 60 with one.
	s, err := suite.Parse([]byte(`
name: tiny-rs2
workloads: [workloadb]
data: {recordcount: 2000, regions: 4}
cluster: {region_servers: 2}
run: {threads: 16, target: 300, per_server_clamp: 60, warmup: 1s, measure: 3s, warmup_rounds: 0}
pairs: {initial: 2}
`), scen)
	if err != nil {
		t.Fatal(err)
	}
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// While each trial runs, read its clone's layout from hbase:meta.
	var mu sync.Mutex
	layouts := map[int]map[string]int{}
	var layoutErr error
	r := &Runner{Suite: s, Store: store, RunID: "rs2", OnEvent: func(e Event) {
		if e.Phase != "trial" || e.Run == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if _, seen := layouts[e.Trial]; seen {
			return
		}
		tables, err := tgt.Client.ListTables(ctx)
		if err != nil {
			layoutErr = err
			return
		}
		for _, tb := range tables {
			if strings.HasPrefix(tb, lifecycle.Prefix+"trial_") {
				l, err := tgt.Client.RegionsPerServer(ctx, tb)
				if err != nil {
					layoutErr = err
					return
				}
				layouts[e.Trial] = l
			}
		}
	}}
	m, err := r.RunSingle(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	if m.RegionServers != 2 || len(m.Trials) != 2 {
		t.Errorf("manifest records %d region servers and %d trials, want 2 and 2", m.RegionServers, len(m.Trials))
	}
	allocRead := false
	for _, tr := range m.Trials {
		if tr.TargetOpsPerSec != 120 {
			t.Errorf("trial %s ran at %.0f ops/s, want 120 (the clamp of 60 per server times 2 live servers)", tr.ID, tr.TargetOpsPerSec)
		}
		// The server cost is read from both region server JVMs. Allocation
		// may be unknown in a window a pause's end split (about 1 in 1,000;
		// servercost's TestAllocationKnownAcrossPauses); at least one trial
		// must have it.
		if sv := tr.Server; sv == nil || sv.Servers != 2 || sv.GrossCPUPerOpMicros <= 0 {
			t.Errorf("trial %s: server cost %+v, want both servers' CPU read", tr.ID, sv)
		} else {
			allocRead = allocRead || sv.AllocPerOpBytes > 0
			checkPerServer(t, tr)
			t.Logf("trial %s: server CPU %.0f us/op (gross %.0f, idle %.1f ms/s), %.0f B/op, %d GCs", tr.ID, sv.CPUPerOpMicros, sv.GrossCPUPerOpMicros, sv.IdleCPUMillisPerSec, sv.AllocPerOpBytes, sv.GCs)
		}
	}
	if !allocRead {
		t.Error("no trial read the servers' allocation")
	}
	mu.Lock()
	if layoutErr != nil {
		t.Errorf("reading a clone's layout: %v", layoutErr)
	}
	if len(layouts) != 2 {
		t.Errorf("saw the layout of %d trials' clones, want 2", len(layouts))
	}
	for trial, l := range layouts {
		t.Logf("trial %d: regions per server %v", trial, l)
		if len(l) != 2 {
			t.Errorf("trial %d: clone regions on %v, want 2 live servers", trial, l)
		}
		for srv, n := range l {
			if n != 2 {
				t.Errorf("trial %d: server %s hosts %d of the clone's 4 regions, want 2 (layout %v)", trial, srv, n, l)
			}
		}
	}
	mu.Unlock()
	tables, _ := tgt.Client.ListTables(ctx)
	for _, tb := range tables {
		if strings.HasPrefix(tb, lifecycle.Prefix+"trial_") {
			t.Errorf("trial table %s left behind", tb)
		}
	}

	// A table crowded onto one server (moved there region by region) is
	// spread again by the master's balancer or the lifecycle's own moves.
	const crowded = lifecycle.Prefix + "trial_crowded"
	if err := tgt.Client.CreateTable(ctx, hbase.TableSpec{Name: crowded, Families: []hbase.FamilySpec{{Name: "f"}},
		SplitKeys: [][]byte{[]byte("b"), []byte("c"), []byte("d")}}); err != nil {
		t.Fatal(err)
	}
	mgr := lifecycle.New(tgt.Client, "crowded", nil)
	defer func() { _ = mgr.Drop(context.Background(), crowded) }()
	regions, err := tgt.Client.TableRegions(ctx, crowded)
	if err != nil {
		t.Fatal(err)
	}
	servers, _ := tgt.Client.LiveRegionServers(ctx)
	for _, reg := range regions {
		if reg.Server != servers[0] {
			if err := tgt.Client.MoveRegion(ctx, crowded, reg, servers[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	var before map[string]int
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
		if before, err = tgt.Client.RegionsPerServer(ctx, crowded); err == nil && before[servers[0]] == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("moving every region of %s to %s: layout %v (%v)", crowded, servers[0], before, err)
		}
	}
	after, err := mgr.Spread(ctx, crowded)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("crowded table: %v before Spread, %v after", before, after)
	if after[servers[0]] != 2 || after[servers[1]] != 2 {
		t.Errorf("after Spread the crowded table's regions lie %v, want 2 on each server", after)
	}

	dir := clusterDir(tgt.ZK)
	if n := len(processesIn(dir)); dir == "" || n != 4 {
		t.Fatalf("found %d JVMs of the cluster in work dir %q, want ZooKeeper, master and 2 region servers", n, dir)
	}
	stop()
	stopped = true
	deadline := time.Now().Add(10 * time.Second)
	for left := processesIn(dir); len(left) > 0; left = processesIn(dir) {
		if time.Now().After(deadline) {
			t.Fatalf("processes %v of the stopped cluster remain", left)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// clusterDir finds the work dir of the local cluster whose ZooKeeper serves
// zk: its ZooKeeper JVM takes the port and <workdir>/zk as arguments.
func clusterDir(zk string) string {
	port := zk[strings.LastIndexByte(zk, ':')+1:]
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		for i, a := range args {
			if strings.HasSuffix(a, "ZooKeeperServerMain") && i+2 < len(args) && args[i+1] == port {
				return filepath.Dir(args[i+2])
			}
		}
	}
	return ""
}

// processesIn lists the pids whose command line names a path inside dir.
func processesIn(dir string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), dir+string(filepath.Separator)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// checkPerServer checks a two-server trial's per-server parts: each server's
// request CPU, and its regions' reads under the same RPC address, adding up
// to the side's figures.
func checkPerServer(t *testing.T, tr results.Trial) {
	t.Helper()
	sv := tr.Server
	if len(sv.PerServer) != 2 {
		t.Errorf("trial %s: per-server parts %+v, want both servers'", tr.ID, sv.PerServer)
		return
	}
	var cpu float64
	for _, p := range sv.PerServer {
		cpu += p.RequestCPUMicros
		if p.RequestCPUMicros <= 0 || p.Address == "" {
			t.Errorf("trial %s: server part %+v, want its request CPU and RPC address", tr.ID, p)
		}
	}
	var ops int64
	for _, o := range tr.Ops {
		ops += o.Count
	}
	if want := sv.CPUPerOpMicros * float64(ops); sv.CPUSource == results.CPUFromRequestThreads && math.Abs(cpu/want-1) > 0.01 {
		t.Errorf("trial %s: the servers' request CPU adds to %.0f us, the side's cpu_per_op x ops to %.0f", tr.ID, cpu, want)
	}
	c := sv.Counts
	if c == nil || !c.RequestsKnown {
		t.Logf("trial %s: no server counts (%v): per-server requests not checked", tr.ID, c)
		return
	}
	var reads int64
	for _, r := range c.PerServer {
		reads += r.Reads
		if !slices.ContainsFunc(sv.PerServer, func(p results.ServerPart) bool { return p.Address == r.Address }) {
			t.Errorf("trial %s: requests counted under %s, which no server part has", tr.ID, r.Address)
		}
	}
	if len(c.PerServer) != 2 || math.Abs(float64(reads-c.ServerReadRequests)) > 2 {
		t.Errorf("trial %s: per-server reads %+v add to %d, the side's %d", tr.ID, c.PerServer, reads, c.ServerReadRequests)
	}
}
