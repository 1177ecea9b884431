package runner

import (
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
)

// TestDifferentSourcesStopTheRunAtTheFirstTrial: the first trials of a
// workload on both sides say how each reads its gated server cost; a
// figure read from the request threads on one side and the process on the
// other in two such pairs in a row (here: two workloads' first) stops the
// run there, not after the whole suite.
func TestDifferentSourcesStopTheRunAtTheFirstTrial(t *testing.T) {
	req, proc := costSources{cpu: results.CPUFromRequestThreads, alloc: results.AllocFromRequestThreads}, costSources{cpu: results.CPUFromRequestThreads, alloc: results.AllocFromProcess}
	tests := []struct {
		name       string
		gate       []string
		base, cand costSources
		wantErr    string // "" for none
	}{
		{"same sources", []string{"cpu_per_op", "alloc_per_op"}, req, req, ""},
		{"alloc gated, read differently", []string{"p99", "cpu_per_op", "alloc_per_op"}, req, proc, "alloc_per_op from 2.6.1's request threads but 2.6.3's process"},
		{"alloc not gated", []string{"p99", "cpu_per_op"}, req, proc, ""},
		{"every metric gated", []string{"*"}, req, proc, "alloc_per_op from"},
		{"gated in another workload only", []string{"workloadb/ALL/alloc_per_op"}, req, proc, ""},
		{"gated in these workloads", []string{"workloada/ALL/alloc_per_op", "workloadb/ALL/alloc_per_op"}, req, proc, "workload workloada reads alloc_per_op"},
		{"cpu read differently", []string{"cpu_per_op"}, req, costSources{cpu: results.CPUFromProcess}, "cpu_per_op from 2.6.1's request threads but 2.6.3's process, net of idle"},
		{"a side's source unknown", []string{"alloc_per_op"}, req, costSources{cpu: results.CPUFromRequestThreads}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Runner{Suite: &suite.Suite{Compare: suite.Compare{Gate: tt.gate}}, slots: slots{paired: true}}
			bs, cs := &side{t: &sut.Target{Name: "2.6.1"}}, &side{t: &sut.Target{Name: "2.6.3"}}
			trial := func(src costSources) *measured {
				return &measured{server: &results.ServerStats{CPUSource: src.cpu, AllocSource: src.alloc}}
			}
			// The candidate's trial is noted first: the message names the sides in one order all the same.
			if err := r.checkSources(cs, "workloada", trial(tt.cand)); err != nil {
				t.Fatalf("one side noted: %v", err)
			}
			if err := r.checkSources(bs, "workloada", trial(tt.base)); err != nil {
				t.Fatalf("first pair: %v; want the next one checked before the run stops", err)
			}
			if err := r.checkSources(bs, "workloadb", trial(tt.base)); err != nil {
				t.Fatalf("one side noted: %v", err)
			}
			err := r.checkSources(cs, "workloadb", trial(tt.cand))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
			case tt.wantErr != "" && (!errors.Is(err, ErrRunFailed) || !errors.Is(err, ErrSourcesDiffer)):
				t.Fatalf("err = %v, want ErrRunFailed and ErrSourcesDiffer", err)
			}
			if tt.wantErr != "" {
				return
			}
			// Checked once a workload: later trials are compare's to judge.
			if err := r.checkSources(bs, "workloada", trial(costSources{cpu: "x", alloc: "y"})); err != nil {
				t.Errorf("second check of workloada: %v", err)
			}
		})
	}
	// One pair that differed (an agent read timed out), then pairs that
	// agree: the run goes on.
	r := &Runner{Suite: &suite.Suite{Compare: suite.Compare{Gate: []string{"alloc_per_op"}}}, slots: slots{paired: true}}
	bs, cs := &side{t: &sut.Target{Name: "b"}}, &side{t: &sut.Target{Name: "c"}}
	for i, alloc := range []string{results.AllocFromProcess, results.AllocFromRequestThreads, results.AllocFromRequestThreads} {
		for _, s := range []*side{bs, cs} {
			src := results.AllocFromRequestThreads
			if s == cs {
				src = alloc
			}
			if err := r.checkSources(s, "workloada", &measured{server: &results.ServerStats{AllocSource: src}}); err != nil {
				t.Fatalf("pair %d: %v; want a lone difference forgiven", i, err)
			}
		}
	}
	single := &Runner{Suite: &suite.Suite{Compare: suite.Compare{Gate: []string{"*"}}}}
	for _, n := range []string{"a", "b"} {
		if err := single.checkSources(&side{t: &sut.Target{Name: n}}, "w", &measured{server: &results.ServerStats{AllocSource: n}}); err != nil {
			t.Errorf("a single target's run checks nothing: %v", err)
		}
	}
}
