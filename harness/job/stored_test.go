package job

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// TestDifferentEntriesRefusesACopyOfOneEntry: `compare --baseline X
// --candidate COPY`, COPY a `cp -r` of X's entry directory, compared the
// same trials with themselves and said PASS (issue 29 closed the case of
// one directory named twice, not of its copy). A copy is refused as the
// entry itself is; another entry is not.
func TestDifferentEntriesRefusesACopyOfOneEntry(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "store", "example-2.6.0", "example-e0a1b2c3d4e5")
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-r", src, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	read := func(dir string) *results.Manifest {
		t.Helper()
		m, err := results.ReadManifestFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	err := differentEntries("example-2.6.0", cp, read(src), read(cp))
	var ue *fault.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "hold the same results") {
		t.Errorf("an entry and its copy: %v, want a usage error saying they hold the same results", err)
	}
	other := filepath.Join("..", "..", "testdata", "store", "example-2.6.1", "example-e0a1b2c3d4e5")
	if err := differentEntries("example-2.6.0", "example-2.6.1", read(src), read(other)); err != nil {
		t.Errorf("two entries: %v, want them compared", err)
	}
}
