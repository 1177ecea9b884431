package sut

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/servercost"
)

// TestExternalClusterServerCostThroughJMX treats a running cluster as one
// regress did not start (--baseline-zk): its region servers are found in
// ZooKeeper with their info ports, and a window's CPU, heap and GC are read
// through /jmx, the whole JVM's allocation on JDK 14+, and, since this
// server runs regress's agent as a cluster whose operators installed it
// would, the request threads' CPU and allocation too.
func TestExternalClusterServerCostThroughJMX(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real HBase; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cl, err := cluster.NewLocal("").Start(ctx, cluster.Spec{Version: clustertest.Version(), InfoServer: true, Name: "external"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer scancel()
		_ = cl.Stop(sctx)
	}()
	targets, stop, err := Start(ctx, Options{ZNode: "/hbase"}, Spec{Role: Baseline, ZK: cl.ZKAddr()})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	tgt := targets[0]
	if len(tgt.Servers) != 1 || tgt.Servers[0].JMX == "" || tgt.Servers[0].PID != 0 {
		t.Fatalf("servers %+v (%s): want one read through its info server", tgt.Servers, tgt.ServersNote)
	}
	if tgt.ServersNote != "" {
		t.Errorf("note %q: want none (CPU and, on JDK 14+, allocation are read through /jmx)", tgt.ServersNote)
	}
	a, err := tgt.Servers.Read()
	if err != nil {
		t.Fatal(err)
	}
	// Some work for the server: list its tables a few hundred times.
	for i := 0; i < 300; i++ {
		if _, err := tgt.Client.ListTables(ctx); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second)
	b, err := tgt.Servers.Read()
	if err != nil {
		t.Fatal(err)
	}
	c := servercost.Total(tgt.Servers.Since(a, b))
	// The whole JVM's allocation comes from the Threading bean's
	// TotalThreadAllocatedBytes, which JDK 14+ serves (the test's HBase
	// runs on JDK 17 or 11: 11 lacks it).
	d, ok := cl.(cluster.Describer)
	wantAlloc := ok && d.Info().JDK.Major >= 14
	if c.CPU <= 0 || c.AllocKnown != wantAlloc || (wantAlloc && c.Allocated <= 0) {
		t.Errorf("window cost %+v: want CPU read, allocation known %v", c, wantAlloc)
		for _, q := range []string{"java.lang:type=OperatingSystem", "java.lang:type=Memory"} {
			resp, err := http.Get("http://" + tgt.Servers[0].JMX + "/jmx?qry=" + url.QueryEscape(q))
			if err != nil {
				t.Logf("%s: %v", q, err)
				continue
			}
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1500))
			resp.Body.Close()
			t.Logf("%s from %s: %s %s", q, tgt.Servers[0].JMX, resp.Status, b)
		}
	}
	// The cluster's JVM runs regress's agent (local clusters load it): read
	// from the outside, the request threads' figures come with the rest.
	agent := false
	for _, p := range cl.(cluster.Processes).Processes() {
		agent = agent || p.Agent != ""
	}
	if !agent {
		t.Fatalf("the local cluster runs without regress's agent: nothing to read through /jmx")
	}
	if c.RequestCPU <= 0 || c.RequestCPU > c.CPU || !c.RequestAllocKnown || c.RequestAllocated <= 0 {
		t.Errorf("window cost %+v: want the request threads' CPU (above 0, within the process's) and allocation from the agent's bean", c)
	}
	t.Logf("external cluster over %v: CPU %v (request threads %v), %d GCs (%v), request threads allocated %d B, events %+v",
		c.Window, c.CPU, c.RequestCPU, c.GCs, c.GCPause, c.RequestAllocated, c.Events)
}
