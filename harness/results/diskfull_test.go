package results

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestDiskFullNamesTheStoreAndWhatToDo(t *testing.T) {
	s := &Store{root: "/data/baselines"}
	enospc := &fs.PathError{Op: "write", Path: "/data/baselines/x/.manifest.json.tmp-1", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		name string
		err  error
		full bool
	}{
		{"nil", nil, false},
		{"no space, wrapped", fmt.Errorf("append trial t1: write manifest: %w", enospc), true},
		{"already said", &DiskFullError{Root: "/data/baselines", Err: enospc}, true},
		{"another error", fmt.Errorf("write: %w", syscall.EACCES), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := s.diskFull(tc.err)
			var dfe *DiskFullError
			if errors.As(got, &dfe) != tc.full {
				t.Fatalf("diskFull(%v) = %v, want a DiskFullError: %v", tc.err, got, tc.full)
			}
			if !tc.full {
				if got != tc.err {
					t.Errorf("diskFull changed %v into %v", tc.err, got)
				}
				return
			}
			msg := got.Error()
			if strings.Count(msg, "disk is full") != 1 || !errors.Is(got, syscall.ENOSPC) {
				t.Errorf("message %q: want it once, wrapping ENOSPC", msg)
			}
			for _, want := range []string{"no space left on device", "free space on the disk holding /data/baselines", "--store", "trials stored before are intact"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}

// TestFullDiskKeepsWhatWasStored fills a small tmpfs holding a store so a
// trial's write fails at each step (its .hlog, then its manifest): the
// error says the disk is full, the trials stored before read back intact,
// and no temporary file or unnamed .hlog is left. It mounts the tmpfs
// (root, Linux); where that is impossible it fails saying so.
func TestFullDiskKeepsWhatWasStored(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a tmpfs (root); skipped under -short")
	}
	const page = 4096
	hlog := bytes.Repeat([]byte("x"), 2*page) // two pages
	for _, tc := range []struct {
		name string
		// free is the space left for the second trial's write.
		free int
		// failed names the file whose write ran out of space.
		failed string
	}{
		{"no space for the log", 0, "t2.hlog"},
		{"space for the log, not the manifest", 2 * page, manifestFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
				t.Fatalf("this test needs a 1 MiB tmpfs and could not mount one on %s (%v: %s): run it as root on Linux", dir, err, strings.TrimSpace(string(out)))
			}
			t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
			s, err := Open(filepath.Join(dir, "store"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Ensure(testManifest())
			if err != nil {
				t.Fatal(err)
			}
			k := KeyOf(m)
			if _, err := s.AppendTrial(k, testTrial("t1", 0), bytes.NewReader(hlog)); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(filepath.Join(s.Dir(k), manifestFile))
			if err != nil {
				t.Fatal(err)
			}
			fillBut(t, dir, tc.free)
			_, err = s.AppendTrial(k, testTrial("t2", 1), bytes.NewReader(hlog))
			var dfe *DiskFullError
			if !errors.As(err, &dfe) || !strings.Contains(err.Error(), "the store's disk is full") {
				t.Fatalf("append on a full disk: %v, want a DiskFullError", err)
			}
			if !strings.Contains(err.Error(), "write "+filepath.Join(s.Dir(k), tc.failed)) && !strings.Contains(err.Error(), "write "+filepath.Join(s.Dir(k), trialsDir, tc.failed)) {
				t.Errorf("%v: want the write of %s to have failed", err, tc.failed)
			}
			after, err := os.ReadFile(filepath.Join(s.Dir(k), manifestFile))
			if err != nil || !bytes.Equal(before, after) {
				t.Errorf("the manifest changed (%v)", err)
			}
			got, err := s.Load(k)
			if err != nil || len(got.Trials) != 1 {
				t.Fatalf("after the failed write: %v, %+v; want the first trial alone", err, got)
			}
			if b, err := s.ReadHlog(k, got.Trials[0]); err != nil || !bytes.Equal(b, hlog) {
				t.Errorf("the first trial's log: %v", err)
			}
			var files []string
			_ = filepath.WalkDir(s.Root(), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					files = append(files, strings.TrimPrefix(p, s.Root()))
				}
				return nil
			})
			want := []string{"/.lock", strings.TrimPrefix(filepath.Join(s.Dir(k), manifestFile), s.Root()),
				strings.TrimPrefix(filepath.Join(s.Dir(k), trialsDir, "t1.hlog"), s.Root())}
			slices.Sort(files)
			slices.Sort(want)
			if !slices.Equal(files, want) {
				t.Errorf("the store holds %v, want %v (no temporary file, no unnamed log)", files, want)
			}
		})
	}
}

// fillBut fills the file system of dir until free bytes are left.
func fillBut(t *testing.T, dir string, free int) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	if free > 0 {
		st, _ := f.Stat()
		if err := f.Truncate(st.Size() - int64(free)); err != nil {
			t.Fatal(err)
		}
	}
}
