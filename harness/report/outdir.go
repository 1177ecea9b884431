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
	// replace says Path holds an earlier run's reports (its Marker), which
	// Commit replaces whole.
	replace bool
	// unlock releases a named directory's reservation (lockParent).
	unlock func()
}

// Marker is the file every report folder holds: a later run whose --out
// names the folder replaces it whole, where a folder holding anything else
// is refused. A fixed --out (a CI workspace's reports/ci) then works run
// after run.
const Marker = ".regress-reports"

// markerText says what the marker is to someone who finds it.
const markerText = "regress wrote the reports in this folder; a later regress run whose --out names it replaces the folder whole.\n"

// HoldsReports says whether dir is a folder of reports regress wrote (it
// holds Marker), which a named --out may replace.
func HoldsReports(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, Marker))
	return err == nil && fi.Mode().IsRegular()
}

// NewOutDir reserves the default report directory base/<prefix><UTC
// timestamp> of a run ending at t, or that name with -2, -3... when a
// comparison of the same second took it: two comparisons never share a folder.
func NewOutDir(base, prefix string, t time.Time) (*OutDir, error) {
	return reserve(filepath.Join(base, prefix+filepath.Base(Timestamped(base, t))), true)
}

// NamedOutDir reserves a report directory the user named (--out): created
// when absent, taken when empty, replaced whole at Commit when it holds an
// earlier run's reports (HoldsReports), and refused (ErrOutTaken) when it
// holds anything else, never written over.
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
		// A named directory may be taken when empty or when it holds an
		// earlier run's reports: only one comparison at a time may find it so.
		unlock = lockParent(parent)
		defer func() {
			if err != nil {
				unlock()
			}
		}()
	}
	name, replace := path, false
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
			if fi, err := os.Lstat(name); err == nil && fi.IsDir() && HoldsReports(name) {
				replace = true
				break
			}
			return nil, fmt.Errorf("--out %s: %w (none of them regress's reports, which a later run replaces): give a new directory, or remove this one first", name, ErrOutTaken)
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
	d := &OutDir{Path: name, Tmp: tmp, replace: replace, unlock: unlock}
	if err := os.Chmod(tmp, 0o755); err != nil {
		d.Abort()
		return nil, fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
		d.Abort()
		return nil, fmt.Errorf("write %s: %w", filepath.Join(tmp, Marker), err)
	}
	return d, nil
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
// rename: a reader sees no report or all of them) and makes it durable. An
// earlier run's reports there are swapped out in one step where the system
// can (Linux's renameat2 exchange), else moved aside first, then removed.
func (d *OutDir) Commit() error {
	defer d.release()
	if d.replace {
		if err := d.swap(); err != nil {
			return err
		}
	} else if err := syscall.Rename(d.Tmp, d.Path); err != nil {
		// os.Rename refuses an existing directory as the target; rename(2)
		// replaces an empty one atomically and refuses one that holds files.
		return fmt.Errorf("rename %s into place as %s: %w (the reports are left in %s)", d.Tmp, d.Path, err, d.Tmp)
	}
	if f, err := os.Open(filepath.Dir(d.Path)); err == nil {
		_ = f.Sync()
		f.Close()
	}
	return nil
}

// exchange swaps two folders in one step where the system can (a test
// takes it away to check the other way).
var exchange = renameExchange

// swap puts the written folder in the place of the earlier reports and
// removes them.
func (d *OutDir) swap() error {
	if err := exchange(d.Tmp, d.Path); err == nil {
		_ = os.RemoveAll(d.Tmp) // now the earlier reports; the new ones are in place
		return nil
	}
	old := d.Tmp + ".old"
	if err := os.Rename(d.Path, old); err != nil {
		return fmt.Errorf("move the earlier reports %s aside: %w (the new ones are left in %s)", d.Path, err, d.Tmp)
	}
	if err := os.Rename(d.Tmp, d.Path); err != nil {
		_ = os.Rename(old, d.Path)
		return fmt.Errorf("rename %s into place as %s: %w (the reports are left in %s)", d.Tmp, d.Path, err, d.Tmp)
	}
	_ = os.RemoveAll(old)
	return nil
}

// Abort removes the temporary folder and the reserved directory, when no
// report could be written; an earlier run's reports it would have replaced stay.
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
