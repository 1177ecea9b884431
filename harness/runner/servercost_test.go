package runner

import (
	"math"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// TestServerStatsSubtractsPooledBackground: a trial's CPU per operation is
// net of the run's pooled idle rate (the median), so one spiky idle watch
// does not move a trial's figure; allocation is gross, its idle mean recorded.
func TestServerStatsSubtractsPooledBackground(t *testing.T) {
	var bg background
	for _, ms := range []int{20, 30, 400} { // 10, 15 and 200 ms/s over 2 s: one watch met a chore
		bg.add(servercost.Cost{Window: 2 * time.Second, CPU: time.Duration(ms) * time.Millisecond, Allocated: 1 << 20, AllocKnown: true})
	}
	win := servercost.Cost{Window: 8 * time.Second, CPU: 840 * time.Millisecond, Allocated: 40 << 20, AllocKnown: true, GCs: 2}
	st := serverStats(win, &bg, 2400, 1)
	// CPU: 840 ms - 15 ms/s * 8 s = 720 ms over 2400 ops = 300 us; no
	// request threads told apart, so cpu_per_op is the process's.
	if math.Abs(st.CPUPerOpMicros-300) > 1e-9 || math.Abs(st.GrossCPUPerOpMicros-350) > 1e-9 || st.CPUSource != results.CPUFromProcess {
		t.Errorf("CPU per op %.3f net (%s), %.3f gross; want 300 (process) and 350", st.CPUPerOpMicros, st.CPUSource, st.GrossCPUPerOpMicros)
	}
	// With the request threads read, they are cpu_per_op: 480 ms over 2400 ops.
	win.RequestCPU = 480 * time.Millisecond
	if st := serverStats(win, &bg, 2400, 1); st.CPUPerOpMicros != 200 || st.CPUSource != results.CPUFromRequestThreads || math.Abs(st.ProcessCPUPerOpMicros-300) > 1e-9 {
		t.Errorf("with request threads: cpu_per_op %.3f (%s), process %.3f; want 200 (request threads), 300", st.CPUPerOpMicros, st.CPUSource, st.ProcessCPUPerOpMicros)
	}
	// Allocation keeps its background (recorded beside it): 40 MiB over 2400 ops.
	if want := float64(40<<20) / 2400; math.Abs(st.AllocPerOpBytes-want) > 1e-6 || st.IdleAllocBytesPerSec != 1<<19 {
		t.Errorf("alloc per op %.1f, idle %.0f B/s; want %.1f and %d", st.AllocPerOpBytes, st.IdleAllocBytesPerSec, want, 1<<19)
	}
	if st.IdleCPUMillisPerSec != 15 || st.GCs != 2 || st.WindowMillis != 8000 {
		t.Errorf("idle %.1f ms/s, %d GCs, window %d ms; want 15, 2, 8000", st.IdleCPUMillisPerSec, st.GCs, st.WindowMillis)
	}
	// No watch yet: gross figures; allocation unknown stays 0.
	st = serverStats(servercost.Cost{Window: time.Second, CPU: 100 * time.Millisecond}, &background{}, 1000, 1)
	if st.CPUPerOpMicros != 100 || st.AllocPerOpBytes != 0 || st.IdleCPUMillisPerSec != 0 {
		t.Errorf("without a background: %+v", st)
	}
	// A background above the window's rate never gives a negative cost.
	if st := serverStats(servercost.Cost{Window: time.Second, CPU: time.Millisecond}, &bg, 10, 1); st.CPUPerOpMicros != 0 {
		t.Errorf("negative net cost not clamped: %v", st.CPUPerOpMicros)
	}
}

func TestCPUSettled(t *testing.T) {
	for _, tc := range []struct {
		prev, cur map[string]float64
		want      bool
	}{
		{map[string]float64{"0/c": 600}, map[string]float64{"0/c": 320}, false},
		{map[string]float64{"0/c": 320, "1/c": 300}, map[string]float64{"0/c": 300, "1/c": 310}, true},
		// One workload moved 14%, the side's mean 2%: settled.
		{map[string]float64{"0/a": 300, "0/b": 300, "0/c": 300, "0/d": 300, "0/e": 300, "0/f": 300},
			map[string]float64{"0/a": 342, "0/b": 290, "0/c": 280, "0/d": 300, "0/e": 295, "0/f": 310}, true},
		// Every workload of side 1 cheaper by a quarter: still warming up.
		{map[string]float64{"0/a": 300, "1/a": 400, "1/b": 400}, map[string]float64{"0/a": 300, "1/a": 300, "1/b": 300}, false},
		{map[string]float64{"0/c": 320}, map[string]float64{"0/c": 300, "1/c": 310}, false},
		{map[string]float64{}, map[string]float64{}, false},
		{map[string]float64{"0/c": 0}, map[string]float64{"0/c": 0}, false},
	} {
		if got := cpuSettled(tc.prev, tc.cur); got != tc.want {
			t.Errorf("cpuSettled(%v, %v) = %v, want %v", tc.prev, tc.cur, got, tc.want)
		}
	}
}
