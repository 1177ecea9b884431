package clustertest

import (
	"os/exec"
	"syscall"
	"time"
)

// StopChild stops a child process a test started: SIGTERM, then SIGKILL
// when it has not exited within grace, and waits for it.
func StopChild(cmd *exec.Cmd, grace time.Duration) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-done
	}
}
