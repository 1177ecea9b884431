package runner

import (
	"context"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestAllocPerOpIsTheRequestThreadsAlone runs workload C trials on the
// shared cluster twice: quietly, and while a prober reads the region
// server's info server ten times a second (/jmx whole, /prometheus, which
// samples every metrics source, and the agent's bean), far more than regress's own two
// readings a trial. alloc_per_op comes from the request threads, so it must
// not move beyond the trials' noise; the whole JVM's allocation (the GC
// log's figure, kept as process_alloc_per_op) must grow with the prober's
// cost, or the test proved nothing.
func TestAllocPerOpIsTheRequestThreadsAlone(t *testing.T) {
	ctx, c := connect(t)
	servers, note := sut.Servers(shared)
	if len(servers) == 0 {
		t.Fatalf("no region server to read: %s", note)
	}
	wantSource := results.AllocFromRequestThreads
	if servers[0].Agent == "" {
		// A line whose jars serve no info server (its web resources
		// missing) runs without the agent: the figure must then say it is
		// the whole process's, which is what this run can check.
		t.Logf("HBase %s runs no info server, so no agent: checking the process figure is labelled so", shared.Version())
		wantSource = results.AllocFromProcess
	}
	s := tinySuite(t)
	s.Workloads = []string{"workloadc"}
	s.Run.TargetOpsPerSec, s.Run.Measure, s.Run.Idle, s.Pairs.Initial = 500, 3*time.Second, time.Second, 4
	run := func(probe bool) (req, proc []float64) {
		store, err := results.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		if probe {
			wg.Go(func() { hammer(ctx, servers[0].Agent, stop) })
		}
		r := &Runner{Suite: s, Store: store, RunID: "probe"}
		m, err := r.RunSingle(ctx, &sut.Target{Name: "t", Label: "t", Version: shared.Version(), Provider: "local", Client: c, Servers: servers})
		close(stop)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range m.Trials {
			sv := tr.Server
			if sv == nil || sv.AllocSource != wantSource {
				t.Fatalf("trial %s: server stats %+v; want alloc_per_op from %s", tr.ID, sv, wantSource)
			}
			req = append(req, sv.AllocPerOpBytes)
			if sv.ProcessAllocPerOpBytes > 0 {
				proc = append(proc, sv.ProcessAllocPerOpBytes)
			}
			t.Logf("probe=%v trial %s: request threads %.0f B/op, process %.0f B/op, cpu %.1f us/op", probe, tr.ID, sv.AllocPerOpBytes, sv.ProcessAllocPerOpBytes, sv.CPUPerOpMicros)
		}
		return req, proc
	}
	quietReq, quietProc := run(false)
	if wantSource != results.AllocFromRequestThreads {
		return
	}
	loudReq, loudProc := run(true)
	q, l := median(quietReq), median(loudReq)
	if l > q*1.15 || l < q/1.15 {
		t.Errorf("request threads' alloc_per_op moved with the prober: %.0f B/op quiet, %.0f probed (want within 15%%)", q, l)
	}
	if len(quietProc) > 0 && len(loudProc) > 0 && median(loudProc) < 1.5*median(quietProc) {
		t.Errorf("the whole JVM's allocation did not grow with the prober (%.0f -> %.0f B/op): the prober cost nothing, the test proves nothing",
			median(quietProc), median(loudProc))
	}
}

// hammer reads the info server at addr ten times a second until stop.
func hammer(ctx context.Context, addr string, stop <-chan struct{}) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		// /jmx with no query serialises every bean: a costly answer on
		// every HBase line (/prometheus exists from 2.6 only).
		for _, path := range []string{"/jmx", "/prometheus", "/jmx?qry=" + servercost.AgentBean} {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+path, nil)
			if err != nil {
				return
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
