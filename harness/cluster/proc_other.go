//go:build unix && !linux

package cluster

import "syscall"

// sysProcAttr puts the JVM in its own process group so Stop can signal all of it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
