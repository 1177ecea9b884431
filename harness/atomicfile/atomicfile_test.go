package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		existing string // "" means no file before the write
		data     string
		perm     os.FileMode
	}{
		{"creates a new file", "", "hello\n", 0o644},
		{"replaces an existing file", "old content that is longer\n", "new\n", 0o644},
		{"writes an empty file", "old\n", "", 0o600},
		{"keeps the requested mode", "", "x", 0o640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.json")
			if tc.existing != "" {
				if err := os.WriteFile(path, []byte(tc.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, []byte(tc.data), tc.perm); err != nil {
				t.Fatalf("WriteFile: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.data {
				t.Errorf("content = %q, want %q", got, tc.data)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != tc.perm {
				t.Errorf("mode = %v, want %v", st.Mode().Perm(), tc.perm)
			}
			assertOnlyFile(t, dir, "f.json")
		})
	}
}

func TestWriteFailureLeavesTheOldFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		fill func(io.Writer) error
	}{
		{"fill fails before writing", func(io.Writer) error { return errors.New("boom") }},
		{"fill fails after writing half", func(w io.Writer) error {
			if _, err := w.Write([]byte("half")); err != nil {
				return err
			}
			return errors.New("boom")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := Write(path, 0o644, tc.fill)
			if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), path) {
				t.Fatalf("error = %v, want one naming %s and the cause", err, path)
			}
			got, _ := os.ReadFile(path)
			if string(got) != "old" {
				t.Errorf("content after a failed write = %q, want the old one", got)
			}
			assertOnlyFile(t, dir, "f")
		})
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f")
	err := WriteFile(path, []byte("x"), 0o644)
	if err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name %s", err, path)
	}
}

// assertOnlyFile fails when dir holds anything but want (a leaked temp file).
func assertOnlyFile(t *testing.T, dir, want string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != want {
		t.Errorf("directory holds %v, want only %s", names, want)
	}
}
