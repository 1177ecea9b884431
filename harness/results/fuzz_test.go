package results

import (
	"os"
	"path/filepath"
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
