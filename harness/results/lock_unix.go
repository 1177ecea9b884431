//go:build unix

package results

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lock takes the store's single-writer lock. flock is released by the kernel
// when the process dies, so a crashed writer never leaves a stale lock.
func (s *Store) lock() (func(), error) {
	path := filepath.Join(s.root, lockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock results store: %w (check %s is writable)", err, s.root)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock results store %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
