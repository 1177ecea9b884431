//go:build unix

package report

import (
	"os"
	"syscall"
)

// lockParent takes an exclusive lock on the directory a named report
// directory lies in, waiting for another comparison writing there to commit
// or abort: two comparisons given one --out then take it one after the
// other, the second finding it holds files (ErrOutTaken), never both
// writing and the loser failing at its rename. A directory that cannot be
// locked (a file system without flock) is written unlocked, as before.
func lockParent(dir string) func() {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
