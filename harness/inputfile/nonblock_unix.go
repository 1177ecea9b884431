//go:build unix

package inputfile

import "syscall"

// openNonBlock opens FIFOs and devices without waiting for a writer.
const openNonBlock = syscall.O_NONBLOCK
