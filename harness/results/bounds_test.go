package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// hostileHlog is an interval log whose every interval declares a histogram
// of 1..2^62 at 5 significant digits (48 MiB of counts each) in ~80 bytes.
func hostileHlog(t *testing.T, intervals int) string {
	t.Helper()
	h := hdrhistogram.New(1, 1<<62, 5)
	_ = h.RecordValue(1000)
	p, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("#[Histogram log format version 1.3]\n")
	for i := range intervals {
		fmt.Fprintf(&b, "Tag=READ.intended,%d.000,1.000,1.000,%s\n", i, p)
	}
	return b.String()
}

func TestAHostileHlogIsRefusedBeforeItsHistogramsAllocate(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	k := KeyOf(m)
	tr, err := s.AppendTrial(k, testTrial("t1", 0), strings.NewReader(hostileHlog(t, 300)))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err = s.Histograms(k, []Trial{tr})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "significant digits needs") {
		t.Fatalf("Histograms of a hostile log: %v, want it refused as damaged", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 || took > 2*time.Second {
		t.Errorf("refusing it took %v and %d MiB", took, alloc>>20)
	}
}

func TestAManifestBeyondItsBoundIsRefusedUnread(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	// 2 GiB of zeros, sparse: it costs no disk, and must cost no memory.
	if err := os.Truncate(filepath.Join(s.Dir(KeyOf(m)), manifestFile), 2<<30); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, bad, err := s.Scan()
	runtime.ReadMemStats(&after)
	if err != nil || len(bad) != 1 || !errors.Is(bad[0].Err, ErrCorrupt) || !strings.Contains(bad[0].Err.Error(), "2.0 GiB, beyond the 256 MiB") {
		t.Fatalf("scan of a 2 GiB manifest: %v %+v", err, bad)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("refusing it allocated %d KiB", alloc>>10)
	}
}
