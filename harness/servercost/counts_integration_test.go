package servercost_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/runner"
	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestTrialCountsMatchTheClient runs a workload C trial on a local cluster
// regress starts (its info server on) and checks the window's counts: the
// reads the trial table's regions counted are the client's reads, within
// the few operations in flight at the window's edges, and the block cache
// saw lookups. It also measures what the counts cost an idle server: one
// /prometheus read (which samples every metrics source).
func TestTrialCountsMatchTheClient(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	targets, stop, err := sut.Start(ctx, sut.Options{ZNode: "/hbase", Keep: os.Getenv("REGRESS_TEST_KEEP") != ""}, sut.Spec{Role: sut.Baseline, Version: clustertest.Version()})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	tgt := targets[0]
	infos, err := tgt.Client.InfoServers(ctx)
	if err != nil || len(infos) != 1 || infos[0].Info == "" {
		t.Fatalf("info servers %+v (%v): want the one region server's", infos, err)
	}
	s := countsSuite(t)
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Suite: s, Store: store, RunID: "counts"}
	// A probe beside the trials: how often /prometheus answers without
	// the region server's record, and what such an answer looks like.
	probeDone := make(chan struct{})
	probed := make(chan [2]int, 1)
	go func() {
		good, bad := 0, 0
		defer func() { probed <- [2]int{good, bad} }()
		for {
			select {
			case <-probeDone:
				return
			case <-time.After(700 * time.Millisecond):
			}
			resp, err := http.Get("http://" + infos[0].Info + "/prometheus?qry=server_block_cache_")
			if err != nil {
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), "server_block_cache_hit_count{") {
				good++
				continue
			}
			if bad++; bad <= 2 {
				head, tail := string(b), string(b)
				head, tail = head[:min(len(head), 300)], tail[max(0, len(tail)-300):]
				t.Logf("probe: /prometheus answered %s, %d bytes, without the record: head %q ... tail %q", resp.Status, len(b), head, tail)
			}
		}
	}()
	m, err := r.RunSingle(ctx, tgt)
	close(probeDone)
	if pr := <-probed; true {
		t.Logf("probe during the trials: %d answers with the record, %d without", pr[0], pr[1])
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Trials) != 2 {
		t.Fatalf("%d trials, want 2", len(m.Trials))
	}
	known := 0
	for _, tr := range m.Trials {
		if checkCounts(t, tr) {
			known++
		}
	}
	t.Logf("block cache counts read in %d of %d trial windows", known, len(m.Trials))
	// The counters move with reads: 500 Gets by hand between two readings,
	// each reading retried while /prometheus answers empty (it does so in
	// bursts around table creation and deletion).
	read := func() servercost.BlockCache {
		for range 20 {
			if bc, err := servercost.ReadBlockCache(ctx, http.DefaultClient, infos[0].Info); err == nil {
				return bc
			} else {
				t.Logf("block cache reading: %v", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatal("no block cache reading in 2 s")
		return servercost.BlockCache{}
	}
	const table = "regress_counts_probe"
	fam := []byte("f")
	if err := tgt.Client.CreateTable(ctx, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := tgt.Client.Put(ctx, table, []byte(fmt.Sprintf("row%03d", i)), fam, []hbase.Column{{Qualifier: []byte("q"), Value: []byte("v")}}, hbase.UseDefault); err != nil {
			t.Fatal(err)
		}
	}
	if err := tgt.Client.FlushTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	before := read()
	for i := range 500 {
		if _, err := tgt.Client.Get(ctx, table, []byte(fmt.Sprintf("row%03d", i%100)), fam, nil); err != nil {
			t.Fatal(err)
		}
	}
	after := read()
	if n := after.Hits + after.Misses - before.Hits - before.Misses; n < 500 {
		t.Errorf("500 Gets of flushed rows moved the block cache counters by %d lookups, want 500 or more", n)
	} else {
		t.Logf("500 Gets of flushed rows: %d hits, %d misses", after.Hits-before.Hits, after.Misses-before.Misses)
	}
	if t.Failed() {
		// What the server logged about its metrics sources, if anything.
		if log, err := os.ReadFile(tgt.Servers[0].Log); err == nil {
			n := 0
			lines := strings.Split(string(log), "\n")
			for i, l := range lines {
				if strings.Contains(l, "metrics") && (strings.Contains(l, "ERROR") || strings.Contains(l, "WARN")) && n < 3 {
					n++
					t.Logf("server log: %s", strings.Join(lines[i:min(len(lines), i+6)], "\n"))
				}
			}
		}
		// The names HBase gave the block cache counters, should they differ.
		if resp, err := http.Get("http://" + infos[0].Info + "/prometheus"); err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
			resp.Body.Close()
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(strings.ToLower(l), "block_cache_hit") || strings.Contains(strings.ToLower(l), "block_cache_miss") {
					t.Logf("/prometheus: %s", l)
				}
			}
		}
	}
	// What the counts cost the idle server: its CPU over 10 s alone, beside
	// a cluster started without the info server over the same 10 s; then
	// over 20 /prometheus reads and 20 GetRegionLoad rounds.
	plain, err := cluster.NewLocal("").Start(ctx, cluster.Spec{Version: clustertest.Version(), Name: "no-info-server"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer scancel()
		_ = plain.Stop(sctx)
	}()
	plainPID := 0
	if ps, ok := plain.(cluster.Processes); ok && len(ps.Processes()) > 0 {
		plainPID = ps.Processes()[0].PID
	}
	time.Sleep(15 * time.Second) // past the fresh JVM's start-up work
	pid := tgt.Servers[0].PID
	idleA, plainA := cpuOf(t, pid), cpuOf(t, plainPID)
	time.Sleep(10 * time.Second)
	idleB, plainB := cpuOf(t, pid), cpuOf(t, plainPID)
	idleRate := float64(idleB-idleA) / 10 / 1e6
	t.Logf("idle over 10 s: %.1f ms CPU/s with the info server on, %.1f ms CPU/s for a cluster without it", idleRate, float64(plainB-plainA)/10/1e6)
	const n = 20
	for _, probe := range []struct {
		what string
		do   func() error
	}{
		{"/prometheus read", func() error {
			_, err := servercost.ReadBlockCache(ctx, http.DefaultClient, infos[0].Info)
			return err
		}},
		{"GetRegionLoad of the table", func() error {
			// The trial tables are gone; hbase:meta's region stands in.
			rs, err := tgt.Client.LiveRegionServers(ctx)
			if err == nil {
				var got []hbase.RegionRequests
				if got, err = tgt.Client.TableRequests(ctx, "hbase:meta", rs); err == nil && len(got) == 0 {
					err = fmt.Errorf("no region of hbase:meta on %v", rs)
				}
			}
			return err
		}},
	} {
		a := cpuOf(t, pid)
		start := time.Now()
		for range n {
			if err := probe.do(); err != nil {
				t.Logf("%s: %v", probe.what, err)
				break
			}
		}
		took := time.Since(start)
		per := (float64(cpuOf(t, pid)-a)/1e6 - idleRate*took.Seconds()) / n
		t.Logf("one %s: %.2f ms server CPU net of idle, %v wall", probe.what, per, took/n)
	}
	resp, err := http.Get("http://" + infos[0].Info + "/prometheus?qry=server_block_cache_")
	if err == nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		t.Logf("/prometheus?qry=server_block_cache_:\n%s", b)
	}
}

// cpuOf is a process's user+system CPU time from /proc.
func cpuOf(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+1:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// countsSuite is one workload C pair's worth of trials on a small table:
// 2,400 reads in an 8 s window.
func countsSuite(t *testing.T) *suite.Suite {
	t.Helper()
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	s, err := suite.Parse([]byte(`
name: counts
workloads: [workloadc]
data: {recordcount: 2000, regions: 2}
run: {threads: 16, target: 300, warmup: 2s, measure: 8s}
pairs: {initial: 2, max: 2, looks: 1}
`), scen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCountsSuiteParses keeps the real test's suite valid without HBase.
func TestCountsSuiteParses(t *testing.T) { countsSuite(t) }

// checkCounts checks one trial's counts against its client's operations:
// requests exact within the edges' slack; block cache lookups, where read,
// more than none, and where not read a note saying why. It reports
// whether the block cache was read.
func checkCounts(t *testing.T, tr results.Trial) bool {
	t.Helper()
	if tr.Server == nil || tr.Server.Counts == nil {
		t.Errorf("trial %s: no server counts (server %+v)", tr.ID, tr.Server)
		return false
	}
	c := tr.Server.Counts
	reads, writes := results.ExpectedServerRequests(tr.Ops)
	t.Logf("trial %s over %d ms: client %d reads, %d writes; servers counted %d reads, %d writes, %d filtered; block cache %d hits, %d misses (ratio %.3f); note %q",
		tr.ID, tr.Server.WindowMillis, reads, writes, c.ServerReadRequests, c.ServerWriteRequests, c.ServerFilteredReads,
		c.BlockCacheHits, c.BlockCacheMisses, c.BlockCacheHitRatio, c.CountsNote)
	if !c.RequestsKnown {
		t.Errorf("requests not known: %+v", c)
	}
	if !c.BlockCacheKnown && !strings.Contains(c.CountsNote, "block cache counts not read") {
		t.Errorf("block cache not known and no note saying why: %+v", c)
	}
	// A read in flight at an edge may fall on either side of it: at 300
	// ops/s and a few ms each, a handful at most.
	slack := max(10, reads/100)
	if d := c.ServerReadRequests - reads; d < -slack || d > slack || reads < 2000 {
		t.Errorf("servers counted %d reads for the client's %d (slack %d)", c.ServerReadRequests, reads, slack)
	}
	if c.ServerWriteRequests != 0 || (c.BlockCacheKnown && c.BlockCacheHits+c.BlockCacheMisses <= 0) {
		t.Errorf("want no writes and, where read, some block cache lookups: %+v", c)
	}
	return c.BlockCacheKnown
}
