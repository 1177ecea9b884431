//go:build linux

package cluster

import "syscall"

// sysProcAttr puts the JVM in its own process group (so Stop can signal all of
// it and a terminal's Ctrl-C does not reach it first) and has the kernel kill
// it if this process dies without stopping it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
