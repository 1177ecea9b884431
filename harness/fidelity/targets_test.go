package fidelity

import (
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/workload"
)

func run(name string, target, achieved float64, p95, p99 int64, cpu time.Duration) Figures {
	return Figures{Case: name, Run: 1, Target: target, Achieved: achieved, CPUPerOp: cpu,
		Ops: map[workload.Op]OpFigures{workload.Read: {Count: 1, Service: Latencies{P95: p95, P99: p99}}}}
}

func TestCheckSaysPassAndMiss(t *testing.T) {
	runs := []Figures{
		run("workloadc@1000", 1000, 1000, 300, 900, 30*time.Microsecond),
		run("workloadc@1000", 1000, 999, 400, 1200, 35*time.Microsecond),
		run("workloada@1000", 1000, 990, 300, 900, 60*time.Microsecond),   // rate -1%, CPU above 50 us
		run("workloada@1000", 1000, 1000, 700, 2000, 40*time.Microsecond), // p95, p99 and spread missed
	}
	got := strings.Join(Check(runs, DefaultTargets), "\n")
	for _, want := range []string{
		"PASS  workloadc@1000 READ service p95 <= 500 us in every run: 300, 400 us",
		"PASS  workloadc@1000 READ service p99 <= 1500 us",
		"PASS  workloadc@1000 largest READ p95 / smallest <= 1.5: 1.33",
		"PASS  workloadc@1000 client CPU/op <= 40 us: 30.0, 35.0 us",
		"PASS  workloadc@1000 achieved rate within 0.5% of target: +0.00%, -0.10%",
		"MISS  workloada@1000 READ service p95 <= 500 us in every run: 300, 700 us",
		"MISS  workloada@1000 READ service p99 <= 1500 us",
		"MISS  workloada@1000 largest READ p95 / smallest <= 1.5: 2.33",
		"MISS  workloada@1000 client CPU/op <= 50 us: 60.0, 40.0 us",
		"MISS  workloada@1000 achieved rate within 0.5% of target: -1.00%, +0.00%",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
