package loadgen

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// timerfdClock waits on a Linux timerfd read through Go's netpoller: the
// kernel's high-resolution timer wakes it within tens of µs (Go timers round
// sub-millisecond waits up to the netpoller's 1 ms), and the waiting
// goroutine is parked, holding neither an OS thread nor a P, so every other
// goroutine, and every response reader, runs while it waits.
type timerfdClock struct {
	fd       int
	f        *os.File
	buf      [8]byte
	stop     func() bool
	fallback *timerClock // used from the first timerfd failure on
}

// newClock returns the precise clock, or a Go-timer clock when a timerfd
// cannot be had (a sandbox that forbids it).
func newClock(ctx context.Context) clock {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return newTimerClock()
	}
	c := &timerfdClock{fd: fd, f: os.NewFile(uintptr(fd), "loadgen-timerfd")}
	// A cancelled run wakes the sleeper at once by firing the timer.
	c.stop = context.AfterFunc(ctx, func() { _ = c.arm(time.Nanosecond) })
	return c
}

func (c *timerfdClock) arm(d time.Duration) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	return unix.TimerfdSettime(c.fd, 0, &spec, nil)
}

func (c *timerfdClock) Now() time.Time { return time.Now() }

func (c *timerfdClock) SleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	if c.fallback != nil {
		return c.fallback.SleepUntil(ctx, t)
	}
	if err := c.arm(d); err != nil {
		return c.fail(ctx, t, fmt.Errorf("arm: %w", err))
	}
	// Checked after arming: a cancellation that fired the timer before this
	// arm was overwritten by it, but then ctx is already done here.
	if ctx.Err() != nil {
		return false
	}
	if _, err := c.f.Read(c.buf[:]); err != nil {
		return c.fail(ctx, t, fmt.Errorf("read: %w", err))
	}
	return ctx.Err() == nil
}

// fail switches to Go timers for the rest of the run: slots then start up to
// about 1 ms late, which intended latency shows, but the run goes on.
func (c *timerfdClock) fail(ctx context.Context, t time.Time, err error) bool {
	slog.Warn("loadgen: timerfd failed; pacing on Go timers (about 1 ms coarser) for the rest of the run", "err", err)
	c.fallback = newTimerClock()
	return c.fallback.SleepUntil(ctx, t)
}

func (c *timerfdClock) Close() error {
	c.stop()
	return c.f.Close()
}
