// Package inputfile reads the files a user or the results store hands regress:
// regular files only, opened without blocking (a FIFO or device is refused at
// once, never waited on), and never beyond a size bound checked before
// anything is read. Kind says what a file is in words, for messages.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular marks a path that is not a regular file (errors.Is).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge marks a file beyond the bound its reader set (errors.Is).
var ErrTooLarge = errors.New("file too large")

// markedError is a message that already says what its mark says: it is
// the mark (errors.Is) without repeating it ("... not a regular file: not a
// regular file", as messages read before).
type markedError struct {
	msg  string
	mark error
}

func (e *markedError) Error() string { return e.msg }
func (e *markedError) Unwrap() error { return e.mark }

// Kind says what a file mode is, for people: "a regular file", "a directory",
// "a symbolic link", "a named pipe (FIFO)", "a socket", "a device"...
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	case t&fs.ModeIrregular != 0:
		return "an irregular file"
	default:
		return "a special file"
	}
}

// Size says n bytes for people: "2.0 GiB", "73 KiB", "512 B".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	if f < 10 {
		return fmt.Sprintf("%.1f %ciB", f, "KMGT"[i])
	}
	return fmt.Sprintf("%.0f %ciB", f, "KMGT"[i])
}

// Open opens path for reading without blocking and checks that it is a
// regular file of at most limit bytes (limit <= 0: no bound). The errors
// name the path and wrap ErrNotRegular or ErrTooLarge.
func Open(path string, limit int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &markedError{fmt.Sprintf("%s is %s, not a regular file", path, Kind(fi.Mode())), ErrNotRegular}
	}
	if limit > 0 && fi.Size() > limit {
		f.Close()
		return nil, &markedError{fmt.Sprintf("%s is %s, beyond the %s this file may hold", path, Size(fi.Size()), Size(limit)), ErrTooLarge}
	}
	return f, nil
}

// ReadFile is Open and a read of the whole file, still bounded by limit
// should the file grow while it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, &markedError{fmt.Sprintf("%s grew beyond the %s this file may hold while it was read", path, Size(limit)), ErrTooLarge}
	}
	return b, nil
}
