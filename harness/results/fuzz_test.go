package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// FuzzMergeHlog feeds the store's .hlog reader real interval logs (YCSB's
// .hdr files are the same format) and their mutations: it must return an
// error or histograms, never panic.
func FuzzMergeHlog(f *testing.F) {
	logs, _ := filepath.Glob(filepath.Join("..", "ycsbfmt", "testdata", "ycsb", "*.hdr"))
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("#[StartTime: 12.5 (seconds since epoch)]\n1,2,3,HISTggAA\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := map[string]*hdrhistogram.Histogram{}
		if err := mergeHlog(out, b); err != nil {
			return
		}
		for tag, h := range out {
			if h.TotalCount() < 0 {
				t.Fatalf("%s: negative count", tag)
			}
		}
	})
}

// FuzzSplitSuite: a --suite value splits into a name and a fingerprint
// prefix that join back to it, and a suite file's path is never split.
func FuzzSplitSuite(f *testing.F) {
	for _, v := range []string{"smoke", "smoke@0123456789ab", "scenarios/suites/x@y.yaml", "a@", "@abc", "quick@ab@cd", "smoke@../x"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		name, fp := SplitSuite(v)
		switch {
		case fp == "" && name != v:
			t.Fatalf("SplitSuite(%q) = %q, %q: the name changed without a fingerprint", v, name, fp)
		case fp != "" && (name+"@"+fp != v || name == "" || strings.ContainsAny(fp, "./@")):
			t.Fatalf("SplitSuite(%q) = %q, %q", v, name, fp)
		}
	})
}

func TestSplitSuite(t *testing.T) {
	for v, want := range map[string][2]string{
		"smoke":                            {"smoke", ""},
		"smoke@0123456789ab":               {"smoke", "0123456789ab"},
		"testdata/example-suite.yaml@f00d": {"testdata/example-suite.yaml", "f00d"},
		"dir@x/suite.yaml":                 {"dir@x/suite.yaml", ""},
		"smoke@":                           {"smoke@", ""},
	} {
		if n, fp := SplitSuite(v); n != want[0] || fp != want[1] {
			t.Errorf("SplitSuite(%q) = %q, %q; want %q, %q", v, n, fp, want[0], want[1])
		}
	}
}
