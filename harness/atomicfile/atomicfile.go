// Package atomicfile writes files so that a reader, or the next run after a
// crash, sees either the old content or the new, never half of one: write a
// temporary file in the same directory, fsync it, rename it over the target,
// then fsync the directory so the rename itself survives a power loss.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// Write creates or replaces path with what fill writes, atomically and
// durably, with permissions perm. The directory of path must exist. On any
// error path is left as it was and the temporary file is removed.
func Write(path string, perm os.FileMode, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: create a temporary file in %s: %w", path, dir, err)
	}
	name := tmp.Name()
	defer os.Remove(name) // fails harmlessly once the rename has happened
	if err := fill(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; give it the mode the caller asked for.
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: chmod %s: %w", path, name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: fsync %s: %w", path, name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: close %s: %w", path, name, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: rename %s into place: %w", path, name, err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write %s: the file is in place but fsync of directory %s failed: %w", path, dir, err)
	}
	return nil
}

// WriteFile is Write for content already in memory, shaped like os.WriteFile.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir makes a rename in dir durable. Some file systems cannot fsync a
// directory and say so with EINVAL; there is nothing more to do on those.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
