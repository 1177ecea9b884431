package workload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParsePropertiesSyntax(t *testing.T) {
	in := "# comment\n" +
		"! also a comment\n" +
		"   \n" +
		"a=1\n" +
		"b : 2\n" +
		"c 3\n" +
		"d\t=\t4 \n" +
		"  e=five\\\n" +
		"     six\\\n" +
		"# not a comment inside a continuation\n" +
		"f=a\\=b\\:c\\\\\n" +
		"g\\ key=tab\\there\n" +
		"h=\\u0041\\u00e9\n" +
		"i\n" +
		"j=x=y\r\n" +
		"k=carriage\rl=return\n" +
		"a=override"
	p, err := ParseProperties(strings.NewReader(in), "test.properties")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "override", "b": "2", "c": "3", "d": "4 ",
		"e":     "fivesix# not a comment inside a continuation",
		"f":     `a=b:c\`,
		"g key": "tab\there",
		"h":     "Aé",
		"i":     "",
		"j":     "x=y",
		"k":     "carriage",
		"l":     "return",
	}
	for k, v := range want {
		if got, ok := p.Get(k); !ok || got != v {
			t.Errorf("%q = %q (set %v), want %q", k, got, ok, v)
		}
	}
	if len(p.Keys()) != len(want) {
		t.Errorf("keys %v, want %d of them", p.Keys(), len(want))
	}
	if p.Source("a") != "test.properties" {
		t.Errorf("source of a = %q", p.Source("a"))
	}
}

func TestParsePropertiesErrors(t *testing.T) {
	for _, in := range []string{"k=\\u12\n", "k=\\uzzzz\n", "k=\xff\n"} {
		if _, err := ParseProperties(strings.NewReader(in), "bad"); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func TestTypedGettersReportBadValues(t *testing.T) {
	p := NewProperties()
	p.Set("readproportion", "abc", "workloads/workloada")
	p.Set("recordcount", "1.5", "workloads/workloada")
	p.Set("fieldcount", "99999999999999999999", "x")
	p.Set("readallfields", "ture", OverrideSource)
	p.Set("ok", " 12 ", "x")
	_, err := p.Float64("readproportion", 0)
	if err == nil || err.Error() != "readproportion=abc in workloads/workloada: not a number" {
		t.Errorf("Float64 error = %v", err)
	}
	if _, err := p.Int64("recordcount", 0); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("Int64 of 1.5: %v", err)
	}
	if _, err := p.Int64("fieldcount", 0); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Int64 of a huge number: %v", err)
	}
	if _, err := p.Bool("readallfields", true); err == nil || !strings.Contains(err.Error(), "readallfields=ture in -p") {
		t.Errorf("Bool of ture: %v", err)
	}
	if v, err := p.Int64("ok", 0); err != nil || v != 12 {
		t.Errorf("Int64 of ' 12 ' = %v, %v", v, err)
	}
	if v, err := p.Int64("unset", 7); err != nil || v != 7 {
		t.Errorf("unset Int64 = %v, %v; want the default", v, err)
	}
	if _, err := p.Int("ok", 0, 20, 30); err == nil || !strings.Contains(err.Error(), "between 20 and 30") {
		t.Errorf("Int out of bounds: %v", err)
	}
}

func TestOverridesWin(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w")
	if err := os.WriteFile(path, []byte("recordcount=1000\noperationcount=1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPropertiesFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ParseOverride("recordcount=5000"); err != nil {
		t.Fatal(err)
	}
	if err := p.ParseOverride("noequals"); err == nil {
		t.Error("-p noequals: want an error")
	}
	if v, _ := p.Int64("recordcount", 0); v != 5000 || p.Source("recordcount") != OverrideSource {
		t.Errorf("recordcount = %d from %s, want 5000 from -p", v, p.Source("recordcount"))
	}
	if _, err := LoadPropertiesFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: want an error")
	}
}

func FuzzParseProperties(f *testing.F) {
	for _, s := range []string{"a=b\n", "a b\\\n c\n", "#x\n!y\nk:v", "k=\\u0041", "\\", "k\\", "=v", "a\r\nb\rc\n"} {
		f.Add(s)
	}
	entries, _ := os.ReadDir("../../scenarios")
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join("../../scenarios", e.Name())); err == nil && !e.IsDir() {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ParseProperties(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		// Whatever parsed must survive a round trip through escaped output.
		var b strings.Builder
		for _, k := range p.Keys() {
			v, _ := p.Get(k)
			b.WriteString(escapeForTest(k, true) + "=" + escapeForTest(v, false) + "\n")
		}
		q, err := ParseProperties(strings.NewReader(b.String()), "roundtrip")
		if err != nil {
			t.Fatalf("re-parse of %q: %v", b.String(), err)
		}
		for _, k := range p.Keys() {
			v, _ := p.Get(k)
			if w, ok := q.Get(k); !ok || w != v {
				t.Fatalf("key %q: %q after round trip, want %q (input %q)", k, w, v, in)
			}
		}
		// Typed getters never panic on any value.
		for _, k := range p.Keys() {
			p.Int64(k, 0)
			p.Float64(k, 0)
			p.Bool(k, false)
		}
		New(p)
	})
}

// escapeForTest writes s in .properties syntax (as java.util.Properties.store does).
func escapeForTest(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '=' || r == ':' || r == '#' || r == '!':
			b.WriteString(`\` + string(r))
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestUnsupportedPropertiesAreRefusedByName(t *testing.T) {
	cases := []struct {
		key, value, want string
	}{
		{"dataintegrity", "true", "regress does not support dataintegrity=true (set in -p): regress does not check"},
		{"dataintegrity", "false", ""},
		{"clientbuffering", "TRUE", "regress does not support clientbuffering=TRUE"},
		{"core_workload_insertion_retry_limit", "3", "does not retry a failed insert"},
		{"core_workload_insertion_retry_limit", "0", ""},
		{"measurementtype", "timeseries", "HDR histograms only"},
		{"measurementtype", "hdrhistogram", ""},
	}
	for _, c := range cases {
		p := NewProperties()
		p.Set("recordcount", "10", "test")
		p.Set("operationcount", "10", "test")
		p.Set(c.key, c.value, OverrideSource)
		_, err := NewConfig(p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s=%s refused: %v", c.key, c.value, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s=%s: %v, want an error containing %q", c.key, c.value, err, c.want)
		}
	}
}
