package docscheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCLILines bounds harness/cmd/regress's code (tests aside): the CLI
// parses flags and wires packages, and logic that grows there belongs in
// harness/job or the package that owns it (docs/development.md).
const maxCLILines = 800

func TestCLIStaysWiring(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "harness", "cmd", "regress")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines > maxCLILines {
		t.Errorf("harness/cmd/regress holds %d lines of code, more than %d: move logic into harness/job or the package that owns it", lines, maxCLILines)
	}
	t.Logf("harness/cmd/regress: %d lines", lines)
}
