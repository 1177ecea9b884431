package inputfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestKindSaysWhatAFileIsInWords(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		0o644:                             "a regular file",
		fs.ModeDir | 0o755:                "a directory",
		fs.ModeSymlink | 0o777:            "a symbolic link",
		fs.ModeNamedPipe | 0o644:          "a named pipe (FIFO)",
		fs.ModeSocket:                     "a socket",
		fs.ModeDevice | fs.ModeCharDevice: "a character device",
		fs.ModeDevice:                     "a block device",
	} {
		if got := Kind(m); got != want {
			t.Errorf("Kind(%v) = %q, want %q", m, got, want)
		}
	}
}

func TestReadFileRefusesFIFOsDevicesAndLargeFilesAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := ReadFile(fifo, 1024); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe (FIFO)") {
			t.Errorf("FIFO: %v", err)
		} else if n := strings.Count(err.Error(), "not a regular file"); n != 1 {
			// Issue 29's second probe round: "... not a regular file: not a regular file".
			t.Errorf("FIFO: %q says it %d times, want once", err, n)
		}
		if _, err := ReadFile("/dev/zero", 1024); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a character device") {
			t.Errorf("/dev/zero: %v", err)
		}
		if _, err := ReadFile(big, 1024); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2.0 KiB") || strings.Contains(err.Error(), "may hold: file too large") {
			t.Errorf("big: %v", err)
		}
		if b, err := ReadFile(small, 1024); err != nil || string(b) != "ok" {
			t.Errorf("small: %q %v", b, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a FIFO blocked the reader")
	}
}

func TestSizeSaysBytesForPeople(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 2048: "2.0 KiB", 73 << 10: "73 KiB", 2 << 30: "2.0 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
