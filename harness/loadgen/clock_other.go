//go:build !linux

package loadgen

import "context"

// newClock returns a Go-timer clock: elsewhere than Linux there is no timerfd.
func newClock(context.Context) clock { return newTimerClock() }
