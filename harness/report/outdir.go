package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// ErrOutTaken says a report directory the user named already holds files:
// reports are never written over another comparison's.
var ErrOutTaken = errors.New("the report directory already holds files")

// An OutDir is a report directory being written: its name is reserved
// (created empty, exclusively) before anything is rendered, the files go into
// a temporary folder beside it, and Commit renames that folder into place
// whole, so a folder's vote.txt and report.* always come from one comparison.
type OutDir struct {
	// Path is the directory the reports end up in.
	Path string
	// Tmp is where they are written until Commit.
	Tmp string
	// unlock releases a named directory's reservation (lockParent).
	unlock func()
}

// NewOutDir reserves the default report directory base/<prefix><UTC
// timestamp> of a run ending at t, or that name with -2, -3... when a
// comparison of the same second took it: two comparisons never share a folder.
func NewOutDir(base, prefix string, t time.Time) (*OutDir, error) {
	return reserve(filepath.Join(base, prefix+filepath.Base(Timestamped(base, t))), true)
}

// NamedOutDir reserves a report directory the user named (--out): created
// when absent, taken when empty, and refused (ErrOutTaken) when it already
// holds files, never written over.
func NamedOutDir(path string) (*OutDir, error) {
	return reserve(path, false)
}

func reserve(path string, suffix bool) (_ *OutDir, err error) {
	// "DIR/" is DIR: its parent is DIR's, not DIR itself (the reports would
	// be written into a folder inside the one they are renamed onto).
	path = filepath.Clean(path)
	parent := filepath.Dir(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	unlock := func() {}
	if !suffix {
		// A named directory may be taken when empty: only one comparison
		// at a time may find it so.
		unlock = lockParent(parent)
		defer func() {
			if err != nil {
				unlock()
			}
		}()
	}
	name := path
	for n := 2; ; n++ {
		err := os.Mkdir(name, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", name, err)
		}
		if !suffix {
			if empty, _ := isEmptyDir(name); empty {
				break
			}
			return nil, fmt.Errorf("--out %s: %w: give a new directory, or remove this one first", name, ErrOutTaken)
		}
		if n > 10000 {
			return nil, fmt.Errorf("create %s: %d report directories of that second already exist: remove some", path, n)
		}
		name = path + "-" + strconv.Itoa(n)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		_ = os.Remove(name)
		return nil, fmt.Errorf("create a temporary folder beside %s: %w", name, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		_ = os.Remove(tmp)
		_ = os.Remove(name)
		return nil, fmt.Errorf("chmod %s: %w", tmp, err)
	}
	return &OutDir{Path: name, Tmp: tmp, unlock: unlock}, nil
}

// isEmptyDir says whether path is a directory with nothing in it.
func isEmptyDir(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.IsDir() {
		return false, err
	}
	names, err := f.Readdirnames(1)
	return len(names) == 0 && errors.Is(err, io.EOF), nil
}

// Commit renames the written folder over the reserved empty directory (one
// rename: a reader sees no report or all of them) and makes it durable.
func (d *OutDir) Commit() error {
	// os.Rename refuses an existing directory as the target; rename(2)
	// replaces an empty one atomically and refuses one that holds files.
	defer d.release()
	if err := syscall.Rename(d.Tmp, d.Path); err != nil {
		return fmt.Errorf("rename %s into place as %s: %w (the reports are left in %s)", d.Tmp, d.Path, err, d.Tmp)
	}
	if f, err := os.Open(filepath.Dir(d.Path)); err == nil {
		_ = f.Sync()
		f.Close()
	}
	return nil
}

// Abort removes the temporary folder and the reserved directory, when no
// report could be written.
func (d *OutDir) Abort() {
	defer d.release()
	_ = os.RemoveAll(d.Tmp)
	_ = os.Remove(d.Path) // only when still empty
}

// release lets the next comparison given the same --out look at it.
func (d *OutDir) release() {
	if d.unlock != nil {
		d.unlock()
		d.unlock = nil
	}
}
