//go:build !unix

package results

// openNonBlock is 0 where O_NONBLOCK is unavailable.
const openNonBlock = 0

// lock is a no-op where flock is unavailable: only one regress process may
// write a store at a time there.
func (s *Store) lock() (func(), error) { return func() {}, nil }

// readLock is a no-op where flock is unavailable.
func (s *Store) readLock() (func(), error) { return func() {}, nil }
