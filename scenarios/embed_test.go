package scenarios

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryFileShips: each file of this folder (but the Go files) is in
// FS with the same bytes, so the binary runs the suites and workloads the
// repository holds.
func TestEveryFileShips(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := fs.ReadFile(FS(), filepath.ToSlash(p))
		if err != nil {
			t.Errorf("%s is not built in: %v", p, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s built in differs from the file", p)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(FS(), "suites/release.yaml"); err != nil || n < 10 {
		t.Errorf("%d files built in, suites/release.yaml: %v", n, err)
	}
}
