package results

import (
	"errors"
	"fmt"
	"syscall"
)

// DiskFullError is a store write that found no space left on the store's
// disk. The write left nothing behind (every file is written to a temporary
// file and renamed, and the temporary file is removed on failure), so what
// was stored before is intact.
type DiskFullError struct {
	// Root is the store's directory.
	Root string
	Err  error
}

func (e *DiskFullError) Error() string {
	return fmt.Sprintf("the store's disk is full (%v): free space on the disk holding %s, or give --store a directory on another disk, and run again; "+
		"nothing was half written: the manifest and the trials stored before are intact", e.Err, e.Root)
}

func (e *DiskFullError) Unwrap() error { return e.Err }

// diskFull turns a write error that ran out of space into a DiskFullError
// naming the store; any other error (and nil) is returned as it is.
func (s *Store) diskFull(err error) error {
	var dfe *DiskFullError
	if err == nil || errors.As(err, &dfe) || !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	return &DiskFullError{Root: s.root, Err: err}
}
