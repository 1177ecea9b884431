//go:build unix

package results

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// openNonBlock opens FIFOs and devices without waiting for a writer.
const openNonBlock = syscall.O_NONBLOCK

// lockPoll is how often a waiting writer tries the store lock again.
const lockPoll = 50 * time.Millisecond

// lock takes the store's single-writer lock. flock is released by the kernel
// when the process dies, so a crashed writer never leaves a stale lock. While
// another process holds it, lock says so once (after a second) and waits, until s's context
// (WithContext) ends.
func (s *Store) lock() (func(), error) {
	path := filepath.Join(s.root, lockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|openNonBlock, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock results store: %w (check %s is writable)", err, s.root)
	}
	said, start := false, time.Now()
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock results store %s: %w", path, err)
		}
		if !said && time.Since(start) >= time.Second {
			slog.Warn("results: another regress process is writing the store; waiting for its lock", "lock", path)
			said = true
		}
		var done <-chan struct{}
		if s.ctx != nil {
			done = s.ctx.Done()
		}
		select {
		case <-done:
			f.Close()
			return nil, fmt.Errorf("waiting for the lock of results store %s (held by another regress process): %w; nothing was written", path, s.ctx.Err())
		case <-time.After(lockPoll):
		}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
