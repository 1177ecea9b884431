package report

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
)

// JSONFieldPaths lists every field report.json can hold, from its types:
// "verdict", "metrics[].ci_low", "profiles[].cpu.frames[].frame". The
// capacity section is an interface here (the capacity package marshals
// it): its fields come from a rendered sweep (the external test).
func JSONFieldPaths() []string { return JSONFieldPathsOf(reflect.TypeFor[jsonReport](), "") }

// JSONFieldPathsOf lists the fields of type t's JSON under prefix.
func JSONFieldPathsOf(t reflect.Type, prefix string) []string {
	var out []string
	jsonPaths(t, prefix, &out, map[reflect.Type]bool{})
	return out
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	// jsonMetricRow is what a jsonMetric marshals: compare's row, field for field.
	jsonMetricRow = reflect.TypeFor[compare.MetricResult]()
)

// jsonPaths adds the paths of t's fields under prefix to out.
func jsonPaths(t reflect.Type, prefix string, out *[]string, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeFor[jsonMetric]():
		t = jsonMetricRow
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		jsonPaths(t.Elem(), prefix+"[]", out, seen)
		return
	case t.Kind() == reflect.Map:
		jsonPaths(t.Elem(), prefix+".*", out, seen)
		return
	case t.Kind() != reflect.Struct || t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) || t.PkgPath() == "time":
		return
	}
	if seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" && f.Anonymous {
			jsonPaths(f.Type, prefix, out, seen) // an embedded struct's fields are the outer object's
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := name
		if prefix != "" {
			p = prefix + "." + name
		}
		*out = append(*out, p)
		jsonPaths(f.Type, p, out, seen)
	}
}
