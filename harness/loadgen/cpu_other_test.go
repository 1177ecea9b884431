//go:build !unix

package loadgen

import "time"

// processCPU is not measured outside Unix; the benchmark then reports 0.
func processCPU() time.Duration { return 0 }
