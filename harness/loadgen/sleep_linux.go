package loadgen

import (
	"syscall"
	"time"
)

// preciseSleep sleeps d on this OS thread. Go's timers wake through
// epoll_wait, whose timeout is in whole milliseconds, so a sub-millisecond
// time.Sleep overshoots by about 0.5 ms on average, and every op of an
// open-loop run would carry that into its intended latency; nanosleep
// overshoots by tens of µs.
func preciseSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem
	}
}
