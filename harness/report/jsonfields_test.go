package report_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/capacity"
	"github.com/regress-hbase/regress/harness/report"
)

var (
	docSpan   = regexp.MustCompile("`([^`]+)`")
	fieldName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	braces    = regexp.MustCompile(`\{([^{}]*)\}`)
)

// expand writes out a documented path's alternatives: "a.{b,c}.d" is
// a.b.d and a.c.d.
func expand(p string) []string {
	m := braces.FindStringSubmatchIndex(p)
	if m == nil {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[m[2]:m[3]], ",") {
		out = append(out, expand(p[:m[0]]+alt+p[m[1]:])...)
	}
	return out
}

// documentedJSONFields reads docs/reports.md's report.json table: each
// object path (the top level as "") and the field names its row gives.
func documentedJSONFields(t *testing.T) map[string]map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "reports.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## report.json\n")
	if !ok {
		t.Fatal("docs/reports.md has no \"## report.json\" section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	doc := map[string]map[string]bool{}
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 2 || !strings.HasPrefix(line, "| ") {
			continue
		}
		var objects []string
		if strings.Contains(cells[0], "(top level)") {
			objects = []string{""}
		}
		for _, m := range docSpan.FindAllStringSubmatch(cells[0], -1) {
			objects = append(objects, expand(m[1])...)
		}
		for _, o := range objects {
			if doc[o] == nil {
				doc[o] = map[string]bool{}
			}
			for _, m := range docSpan.FindAllStringSubmatch(cells[1], -1) {
				if fieldName.MatchString(m[1]) {
					doc[o][m[1]] = true
				}
			}
		}
	}
	return doc
}

// TestJSONFieldsAreDocumented: every field report.json can hold (from its
// types, the capacity sweep's included) is listed in docs/reports.md's
// report.json table under the object it lies in.
func TestJSONFieldsAreDocumented(t *testing.T) {
	doc := documentedJSONFields(t)
	paths := append(report.JSONFieldPaths(), report.JSONFieldPathsOf(reflect.TypeFor[capacity.Sweep](), "capacity")...)
	if len(paths) < 100 {
		t.Fatalf("only %d JSON fields found: the walk over the report's types lost its way", len(paths))
	}
	for _, p := range paths {
		parent, field := "", p
		if i := strings.LastIndex(p, "."); i >= 0 {
			parent, field = p[:i], p[i+1:]
		}
		if !doc[parent][field] {
			where := "(top level)"
			if parent != "" {
				where = "`" + parent + "`"
			}
			t.Errorf("report.json field %s is not documented: add `%s` to the row of %s in docs/reports.md's report.json table", p, field, where)
		}
	}
}
