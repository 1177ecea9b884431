package job

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
)

// StopGrace is how long an interrupted command that holds no cluster and
// writes nothing after an interrupt may take to return before the process
// exits anyway (a read stuck in the kernel, say).
const StopGrace = 1500 * time.Millisecond

// StopSignals are the signals that stop a command through WatchSignals:
// interrupt, SIGTERM, SIGQUIT and SIGHUP (a closed terminal or ssh session).
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGHUP}

// WatchSignals cancels the command's context on the first signal and makes
// sure the process ends (exit, with fault.ExitRunFailed): at once on a
// second signal, after StopGrace when quick says the running command holds
// no cluster. Commands that started clusters get the time their teardown
// takes. Its lines on stderr are in the command line's --log-format (PrintError).
func WatchSignals(sigs <-chan os.Signal, cancel context.CancelFunc, quick func() bool, stderr io.Writer, format string, exit func(int)) {
	s := <-sigs
	cancel()
	var deadline <-chan time.Time
	if quick() {
		deadline = time.After(StopGrace)
	}
	select {
	case <-deadline:
		PrintError(stderr, format, fault.ExitRunFailed, fmt.Errorf("%v: stopped before the command finished; nothing more was written", s))
	case s = <-sigs:
		PrintError(stderr, format, fault.ExitRunFailed, fmt.Errorf("second %v: exiting now without cleaning up: the JVMs of clusters this run started die with it (the kernel kills them with their parent), their work dirs (regress-hbase-* in the temp dir) may be left", s))
	}
	exit(fault.ExitRunFailed)
}
