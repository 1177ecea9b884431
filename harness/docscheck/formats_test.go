package docscheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// formatValues are --format values written after the flag: "--format json", "[--format text|csv]".
	formatValues = regexp.MustCompile("--format[ =]`?([A-Za-z][A-Za-z0-9.|]*)")
	// formatSpans are the values a line lists in code spans after "`--format`" (a flag table's row, "also accepts ...").
	formatSpans = regexp.MustCompile("`--format`(?: \\|| also accepts)(.*)")
	codeSpan    = regexp.MustCompile("`([A-Za-z][A-Za-z0-9.]*)`")
)

// TestDocsFormatsAreAccepted: every --format value the docs name (a name,
// an alias, a case) is accepted by the commands the line is about: history
// and bisect lines by `regress history`, the others by the main job,
// compare and capacity. A value is checked at parse time, so
// `regress CMD --format V --help` exits 2 for a refused one and runs nothing.
func TestDocsFormatsAreAccepted(t *testing.T) {
	root := repoRoot(t)
	bin := regressBinary(t)
	checked := 0
	for _, file := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			var values []string
			for _, m := range formatValues.FindAllStringSubmatch(line, -1) {
				values = append(values, strings.Split(strings.Trim(m[1], "."), "|")...)
			}
			if m := formatSpans.FindStringSubmatch(line); m != nil {
				for _, s := range codeSpan.FindAllStringSubmatch(m[1], -1) {
					values = append(values, s[1])
				}
			}
			cmds := [][]string{{}, {"compare"}, {"capacity"}}
			if strings.Contains(line, "history") || file == filepath.Join("docs", "history.md") {
				cmds = [][]string{{"history"}}
			}
			for _, v := range values {
				if v == "F" || v == "" { // the synopsis's placeholder
					continue
				}
				for _, c := range cmds {
					checked++
					args := append(append([]string{}, c...), "--format", v, "--help")
					if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
						t.Errorf("%s:%d names --format %s, which regress %s refuses: %v\n%s", file, i+1, v, strings.Join(c, " "), err, tail(string(out)))
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d --format values checked: the patterns no longer find the docs' values", checked)
	}
}
