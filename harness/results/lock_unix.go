//go:build unix

package results

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/inputfile"
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
	if fi, lerr := os.Lstat(path); err != nil && lerr == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("lock results store: %s is %s, where the store's lock file belongs: delete it (rm -rf %s) and regress makes the file again", path, inputfile.Kind(fi.Mode()), shellQuote(path))
	}
	if err != nil {
		return nil, fmt.Errorf("lock results store: %w (check %s is writable)", err, s.root)
	}
	if err := s.flockWait(f, path, syscall.LOCK_EX, "writing"); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// readLock takes the store's lock shared, for a reader that must not see a
// writer's half-done work (`results check` during `results remove`): writers
// wait for it and it for them, readers not for each other. A store whose lock
// file cannot be opened or created (read-only, or no store yet) has no
// writer to wait for: it returns a no-op.
func (s *Store) readLock() (func(), error) {
	path := filepath.Join(s.root, lockFile)
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		f, err = os.OpenFile(path, os.O_CREATE|os.O_RDWR|openNonBlock, 0o644)
	}
	if err != nil {
		return func() {}, nil
	}
	if err := s.flockWait(f, path, syscall.LOCK_SH, "changing"); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// flockWait takes flock how on f, polling, saying once (after a second) that
// another process is doing what with the store, until s's context ends.
func (s *Store) flockWait(f *os.File, path string, how int, what string) error {
	said, start := false, time.Now()
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return fmt.Errorf("lock results store %s: %w", path, err)
		}
		if !said && time.Since(start) >= time.Second {
			slog.Warn("results: another regress process is "+what+" the store; waiting for its lock", "lock", path)
			said = true
		}
		var done <-chan struct{}
		if s.ctx != nil {
			done = s.ctx.Done()
		}
		select {
		case <-done:
			return fmt.Errorf("waiting for the lock of results store %s (held by another regress process): %w; nothing was written", path, s.ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}
