//go:build linux

package runner

import (
	"fmt"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinSides gives each side's region server JVMs their own half of the
// machine's CPUs (run.pin: the CPU isolation between a duet's two sides of
// Japke et al.): side 0 the first half, side 1 the second. The load
// generator stays on every CPU. Threads a JVM starts later inherit the mask
// of the thread that starts them, so pinning every thread once suffices.
func pinSides(sides []*side) error {
	n := runtime.NumCPU()
	if n < 2 {
		return fmt.Errorf("run.pin: this machine has %d CPU; pinning two sides apart needs 2 or more", n)
	}
	for i, s := range sides {
		var set unix.CPUSet
		lo, hi := i*n/len(sides), (i+1)*n/len(sides)
		for c := lo; c < hi; c++ {
			set.Set(c)
		}
		if len(s.t.Servers) == 0 {
			return fmt.Errorf("run.pin: %s runs no region server this machine can pin (a cluster regress started is needed)", s.t.Name)
		}
		for _, srv := range s.t.Servers {
			if srv.PID <= 0 {
				return fmt.Errorf("run.pin: %s is read through /jmx, not a process here", srv.Name)
			}
			if err := pinProcess(srv.PID, &set); err != nil {
				return fmt.Errorf("run.pin: %s %s (pid %d) to CPUs %d-%d: %w", s.t.Name, srv.Name, srv.PID, lo, hi-1, err)
			}
		}
	}
	return nil
}

// pinProcess sets the CPU mask of every thread of pid.
func pinProcess(pid int, set *unix.CPUSet) error {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
			return err
		}
	}
	return nil
}
