package main

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

// ourPrefix is the import path prefix of regress's own packages.
const ourPrefix = "github.com/regress-hbase/regress/harness/"

// cliImports is every package of ours the CLI may import, each with the
// reason it is here. The CLI parses flags and calls job; beside job it reads
// only flag-value types, the defaults and choices its flags and help state
// (each a name of the package that owns it), and the exit codes. Three
// commands (ycsb, import-ycsb, worker) are still run straight from their
// packages rather than through a job type. The set may only shrink: a
// command's logic goes into job (or the package that owns it), never a new
// import here; when the CLI stops importing one of these, drop its line.
var cliImports = map[string]string{
	"job":       "what each command runs once its flags are parsed",
	"fault":     "the exit code of each kind of error (main's one mapping)",
	"sut":       "flag-value types: a side's spec and options, the default provider",
	"suite":     "flag-value types: the suite overrides; run.instances' default",
	"cluster":   "defaults its flags state: region server heap, start timeout, cache dir",
	"hbase":     "defaults and value checks: znode parent, quorum, info port",
	"results":   "the default store a flag states",
	"report":    "the report formats and text width a flag states",
	"history":   "history's formats a flag states",
	"capacity":  "capacity's manual, its command's help",
	"loadhosts": "defaults its flags state; the worker command's type, run as is",
	"ycsbfmt":   "import-ycsb's spec and default suite, the command run as is",
	"ycsbmode":  "the ycsb command's phases and help, run as is",
}

// TestCLIImportsJobAndFlagValuesOnly holds the CLI's shape by its imports
// rather than its length: a package of ours it imports must be one of
// cliImports, and every one listed must still be imported, so the list
// stays exact and can only shrink.
func TestCLIImportsJobAndFlagValuesOnly(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ours []string
	for _, imp := range pkg.Imports {
		if name, ok := strings.CutPrefix(imp, ourPrefix); ok {
			ours = append(ours, name)
		}
	}
	if len(ours) == 0 {
		t.Fatalf("found no imports of %s* in harness/cmd/regress (imports %v): is the module path still %q?", ourPrefix, pkg.Imports, ourPrefix)
	}
	for _, name := range ours {
		if _, ok := cliImports[name]; !ok {
			t.Errorf("harness/cmd/regress imports harness/%s, which the CLI may not: it parses flags and calls job; "+
				"put the logic in harness/job (or the package that owns it) and call it from there (docs/development.md)", name)
		}
	}
	for name := range cliImports {
		if !slices.Contains(ours, name) {
			t.Errorf("harness/cmd/regress no longer imports harness/%s: remove it from cliImports so it cannot come back", name)
		}
	}
}
