package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
)

// TestProcessesInFindsOnlyTheDirsProcesses: a process whose command line
// names a path inside dir is listed; one naming a sibling directory whose
// name starts the same is not.
func TestProcessesInFindsOnlyTheDirsProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Fatalf("ProcessesIn reads /proc: %v", err)
	}
	dir := t.TempDir()
	// sh keeps the path as its $0 while it waits (two commands: no exec of the last).
	start := func(arg0 string) int {
		c := exec.Command("sh", "-c", "sleep 30; :", arg0)
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Kill(-c.Process.Pid, syscall.SIGKILL); c.Wait() })
		return c.Process.Pid
	}
	in, sibling := start(filepath.Join(dir, "work", "x")), start(dir+"-other/x")
	got := ProcessesIn(dir)
	if !slices.Contains(got, strconv.Itoa(in)) {
		t.Errorf("ProcessesIn(%s) = %v, want it to hold %d", dir, got, in)
	}
	if slices.Contains(got, strconv.Itoa(sibling)) {
		t.Errorf("ProcessesIn(%s) = %v, holds %d, which names a sibling directory", dir, got, sibling)
	}
}
