//go:build !unix

package fidelity

import "time"

// processCPU is not measured on this platform: CPU per operation reads 0.
func processCPU() time.Duration { return 0 }
