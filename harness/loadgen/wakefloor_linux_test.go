package loadgen

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWakeFloor measures what one timed wait costs this machine in CPU,
// the floor under every paced operation: a goroutine waiting 1 ms on the
// timerfd clock the workers use, and the same wait as a bare nanosleep (no
// Go scheduler involved). On a virtual machine a sleep and wake-up of a
// thread costs far more than on bare metal.
func BenchmarkWakeFloor(b *testing.B) {
	const waits = 2000
	b.Run("clock=timerfd", func(b *testing.B) {
		ctx := context.Background()
		clk := newClock(ctx)
		defer clk.Close()
		for range b.N {
			cpu0 := processCPU()
			for range waits {
				clk.SleepUntil(ctx, time.Now().Add(time.Millisecond))
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/waits, "cpu_ns/wait")
		}
	})
	b.Run("clock=nanosleep", func(b *testing.B) {
		for range b.N {
			cpu0 := processCPU()
			for range waits {
				ts := syscall.NsecToTimespec(int64(time.Millisecond))
				_ = syscall.Nanosleep(&ts, nil)
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/waits, "cpu_ns/wait")
		}
	})
}
