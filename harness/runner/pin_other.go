//go:build !linux

package runner

import "errors"

// pinSides needs Linux's per-thread CPU masks.
func pinSides([]*side) error {
	return errors.New("run.pin: pinning a side's region servers to CPUs needs Linux")
}
