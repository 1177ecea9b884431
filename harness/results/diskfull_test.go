package results

import (
	"errors"
	"fmt"
	"io/fs"
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
