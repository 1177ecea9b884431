package runner

import (
	"context"
	"sync"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestInstancesStartEachSideAfresh: with run.instances 2 the first half of
// the pairs runs on the sides' first clusters and the second half on fresh
// ones (started through sut.Renew, seeded, warmed), every trial recording
// its instance; each side is renewed once, into a cluster of its own.
func TestInstancesStartEachSideAfresh(t *testing.T) {
	ctx, c := connect(t)
	store, err := results.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := tinySuite(t)
	s.Workloads = []string{"workloadc"}
	s.Pairs.Initial, s.Pairs.Max, s.Pairs.Looks = 4, 4, 1
	s.Run.Instances = 2
	servers, _ := sut.Servers(shared)
	noStop := func(context.Context) error { return nil } // the shared cluster outlives the test
	base := &sut.Target{Name: "base", Label: "base", Version: shared.Version(), Provider: "local", Client: c, Servers: servers, Stop: noStop}
	cand := &sut.Target{Name: "cand", Label: "cand", Version: shared.Version(), Provider: "local", Client: c, Servers: servers, Stop: noStop}
	var mu sync.Mutex
	renewed := map[int]*sut.Target{}
	r := &Runner{Suite: s, Store: store, RunID: "inst"}
	r.Renew = func(ctx context.Context, side int, old *sut.Target) (*sut.Target, error) {
		role := []string{sut.Baseline, sut.Candidate}[side]
		nt, stop, err := sut.Renew(ctx, sut.Options{ZNode: "/hbase"}, sut.Spec{Role: role, Version: clustertest.Version()}, old)
		t.Cleanup(stop)
		mu.Lock()
		defer mu.Unlock()
		if renewed[side] != nil {
			t.Errorf("side %d renewed twice", side)
		}
		renewed[side] = nt
		return nt, err
	}
	bm, cm, err := r.RunPairs(ctx, base, cand, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(renewed) != 2 {
		t.Fatalf("%d sides renewed, want both", len(renewed))
	}
	if renewed[0].ZK == renewed[1].ZK || renewed[0].ZK == shared.ZKAddr() {
		t.Errorf("fresh instances at %s and %s (first at %s): want a cluster each", renewed[0].ZK, renewed[1].ZK, shared.ZKAddr())
	}
	if renewed[0].Name != "base" || renewed[1].Name != "cand" {
		t.Errorf("renewed targets named %q and %q, want the sides' names kept", renewed[0].Name, renewed[1].Name)
	}
	if len(renewed[0].Servers) == 0 || len(servers) == 0 || renewed[0].Servers[0].PID == servers[0].PID {
		t.Errorf("the fresh baseline's servers %+v, want another JVM than %+v", renewed[0].Servers, servers)
	}
	for _, m := range []*results.Manifest{bm, cm} {
		if len(m.Trials) != 4 {
			t.Fatalf("%s: %d trials, want 4", m.Label, len(m.Trials))
		}
		for _, tr := range m.Trials {
			if want := tr.Pair / 2; tr.Instance != want {
				t.Errorf("%s pair %d: instance %d, want %d", m.Label, tr.Pair, tr.Instance, want)
			}
			if tr.Pair >= 2 && (tr.Server == nil || tr.Server.CPUPerOpMicros <= 0) {
				t.Errorf("%s pair %d: no server cost read on the fresh instance: %+v", m.Label, tr.Pair, tr.Server)
			}
		}
	}
}
