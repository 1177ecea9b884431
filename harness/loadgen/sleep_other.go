//go:build !linux

package loadgen

import "time"

// preciseSleep sleeps d; outside Linux it is time.Sleep.
func preciseSleep(d time.Duration) { time.Sleep(d) }
