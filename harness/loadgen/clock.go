package loadgen

import (
	"context"
	"time"
)

// clock is what the dispatcher waits on. Waiting must never hold an OS
// thread with a Go scheduler P: a response that has arrived would then wait
// for the sleeper to wake before its reader goroutine could run (measured:
// p95 10-20 ms at 1k ops/s on 2 cores with 32 workers in nanosleep).
type clock interface {
	Now() time.Time
	// SleepUntil returns at t, at once when t is not in the future, or
	// earlier with false when ctx ends.
	SleepUntil(ctx context.Context, t time.Time) bool
	// Close releases what the clock holds.
	Close() error
}

// timerClock waits on a Go timer: portable, and it parks the goroutine, but
// on Linux it wakes on the netpoller's millisecond timeout, so a slot starts
// about 0.5-1 ms late. newClock prefers a precise clock where there is one.
type timerClock struct{ t *time.Timer }

func newTimerClock() *timerClock {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &timerClock{t: t}
}

func (c *timerClock) Now() time.Time { return time.Now() }

func (c *timerClock) SleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	c.t.Reset(d)
	select {
	case <-c.t.C:
		return ctx.Err() == nil
	case <-ctx.Done():
		c.t.Stop()
		return false
	}
}

func (c *timerClock) Close() error { c.t.Stop(); return nil }
