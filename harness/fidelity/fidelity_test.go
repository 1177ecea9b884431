package fidelity

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/workload"
)

// env starts a real HBase with its region server's info port, connects, and
// loads a table of rows rows for the fidelity runs.
func env(tb testing.TB, rows int64) (*hbase.Client, *JMX, func(name string) workload.Properties) {
	tb.Helper()
	c := clustertest.StartSpec(tb, cluster.Spec{InfoServer: true})
	ctx := context.Background()
	client, err := hbase.Connect(ctx, c.ZKAddr())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { client.Close() })
	var jmx *JMX
	if ia, ok := c.(interface{ InfoAddr() string }); ok && ia.InfoAddr() != "" {
		jmx = &JMX{Addr: ia.InfoAddr()}
	} else {
		tb.Fatalf("the local provider's cluster exposes no region server info address (%T)", c)
	}
	props := func(name string) workload.Properties {
		p, err := workload.LoadPropertiesFile(filepath.Join("..", "..", "scenarios", name))
		if err != nil {
			tb.Fatal(err)
		}
		p.Set("table", "fidelity", "test")
		p.Set("columnfamily", "family", "test")
		p.Set("recordcount", strconv.FormatInt(rows, 10), "test")
		return p
	}
	if err := Prepare(ctx, client, props("workloada"), 8); err != nil {
		tb.Fatal(err)
	}
	return client, jmx, props
}

// TestFidelityPathAgainstHBase runs the fidelity path at a small size
// against a real HBase: every operation is counted, the region server saw at
// least as many calls over the runs as the client made (its /jmx is read
// once before and, past its cache period, once after), and the table prints.
// No timing is asserted: figures belong to BenchmarkFidelity.
func TestFidelityPathAgainstHBase(t *testing.T) {
	client, jmx, props := env(t, 2000)
	ctx := context.Background()
	// A fresh server's metrics beans appear with the metrics system's first
	// snapshot: wait for them, for at most 30 s.
	var before ServerSnapshot
	for deadline := time.Now().Add(30 * time.Second); ; {
		var err error
		if before, err = jmx.Snapshot(ctx); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
	}
	var runs []Figures
	var calls int64 // client RPCs: a read-modify-write makes two
	for _, wl := range []string{"workloadc", "workloada", "workloadf"} {
		f, err := Run(ctx, client, Case{Name: wl, Props: props(wl), Rate: 200, Workers: 8, Duration: 2 * time.Second, Warmup: 200 * time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ops int64
		for op, o := range f.Ops {
			if op != workload.ReadModifyWrite {
				ops += o.Count
			}
		}
		if ops == 0 || f.Achieved <= 0 || f.CPUPerOp <= 0 {
			t.Errorf("%s: ops %d, achieved %.1f, CPU/op %v: want all positive", wl, ops, f.Achieved, f.CPUPerOp)
		}
		calls += ops
		runs = append(runs, f)
	}
	time.Sleep(max(0, CacheTTL-time.Since(before.At)))
	// HBase's /jmx serves the metrics system's last snapshot, taken every
	// 10 s and cached 10 s more: read until it has caught up, for at most 45 s.
	var after ServerSnapshot
	for deadline := time.Now().Add(45 * time.Second); ; {
		var err error
		if after, err = jmx.Snapshot(ctx); err != nil {
			t.Fatal(err)
		}
		if after.Since(before).Calls >= calls || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if got := after.Since(before); got.Calls < calls {
		t.Errorf("the region server processed %d calls during runs in which the client made %d measured ones", got.Calls, calls)
	}
	runs[0].Server = &ServerFigures{Calls: after.Calls - before.Calls, Process: after.Process}
	if err := WriteTable(os.Stdout, runs); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkFidelity is make bench-fidelity: workloads C and A at 1k and 5k
// ops/s with 32 workers, 5 back-to-back runs each, against a real local
// HBase; it prints every run and checks the targets.
func BenchmarkFidelity(b *testing.B) {
	rows := int64(100_000)
	client, jmx, props := env(b, rows)
	runs, perRun := 5, 15*time.Second
	if v := os.Getenv("FIDELITY_RUNS"); v != "" {
		runs, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("FIDELITY_DURATION"); v != "" {
		perRun, _ = time.ParseDuration(v)
	}
	var all []Figures
	for range b.N {
		// The region server's first run after the load pays for its JIT and
		// block cache (p99 several ms): one run per workload, printed as run
		// 0 and left out of the targets, warms it.
		for _, wl := range []string{"workloadc", "workloada"} {
			f, err := Run(context.Background(), client, Case{
				Name: wl + "@1000", Props: props(wl), Rate: 1000, Workers: 32, Duration: perRun, Warmup: 2 * time.Second,
			}, jmx)
			if err != nil {
				b.Fatal(err)
			}
			all = append(all, f)
		}
		for _, wl := range []string{"workloadc", "workloada"} {
			for _, rate := range []float64{1000, 5000} {
				for run := 1; run <= runs; run++ {
					f, err := Run(context.Background(), client, Case{
						Name: fmt.Sprintf("%s@%.0f", wl, rate), Props: props(wl), Rate: rate, Workers: 32,
						Duration: perRun, Warmup: 2 * time.Second,
					}, jmx)
					if err != nil {
						b.Fatal(err)
					}
					f.Run = run
					all = append(all, f)
				}
			}
		}
	}
	b.StopTimer()
	fmt.Println()
	if err := WriteTable(os.Stdout, all); err != nil {
		b.Fatal(err)
	}
	fmt.Println()
	for _, c := range Check(all, DefaultTargets) {
		fmt.Println(c)
	}
}
