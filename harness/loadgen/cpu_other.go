//go:build !unix

package loadgen

import "time"

// processCPU is not measured outside Unix: Result.Client.CPU is then 0.
func processCPU() time.Duration { return 0 }
