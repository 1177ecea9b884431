//go:build linux

package runner

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPinProcessSetsEveryThread pins a child process to CPU 0 and reads
// the mask back from /proc.
func TestPinProcessSetsEveryThread(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var set unix.CPUSet
	set.Set(0)
	if err := pinProcess(cmd.Process.Pid, &set); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
			if strings.TrimSpace(v) != "0" {
				t.Errorf("allowed CPUs %q after pinning to 0", strings.TrimSpace(v))
			}
			return
		}
	}
	t.Error("no Cpus_allowed_list in /proc status")
}
