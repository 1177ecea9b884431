package loadgen

import (
	"bytes"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// payload encodes a histogram of the given geometry as an interval log does.
func payload(t testing.TB, lowest, highest int64, digits int) string {
	t.Helper()
	h := hdr.New(lowest, highest, digits)
	_ = h.RecordValue(lowest)
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCountsLenIsHdrHistogramsOwn(t *testing.T) {
	for _, g := range []struct {
		lo, hi int64
		d      int
	}{{1, 60_000_000, 3}, {1, 3_600_000_000, 5}, {1000, 1 << 40, 2}, {1, 2, 1}, {7, 1 << 50, 4}} {
		h := hdr.New(g.lo, g.hi, g.d)
		// Export carries the counts array the histogram allocated.
		if got, want := countsLen(g.lo, g.hi, int32(g.d)), int64(len(h.Export().Counts)); got != want {
			t.Errorf("countsLen(%d, %d, %d) = %d, want %d", g.lo, g.hi, g.d, got, want)
		}
	}
}

func TestHostileHistogramGeometryIsRefusedBeforeDecoding(t *testing.T) {
	if err := CheckHistogramPayload(payload(t, 1, 60_000_000, 3)); err != nil {
		t.Errorf("regress's own geometry refused: %v", err)
	}
	if err := CheckHistogramPayload(payload(t, 1, 3_600_000_000, 5)); err != nil {
		t.Errorf("1 µs .. 1 h at 5 digits refused: %v", err)
	}
	// 1..2^62 at 5 digits: 6 million counts, 48 MiB for each interval.
	bad := payload(t, 1, 1<<62, 5)
	if err := CheckHistogramPayload(bad); err == nil || !strings.Contains(err.Error(), "significant digits needs") {
		t.Errorf("1..2^62 at 5 digits: %v, want refused", err)
	}
	log := "#[StartTime: 0.000 (seconds since epoch)]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n" +
		"Tag=READ.service,0.000,1.000,1.000," + payload(t, 1, 60_000_000, 3) + "\n" +
		"Tag=READ.service,1.000,1.000,1.000," + bad + "\n"
	if err := CheckHlog([]byte(log)); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("CheckHlog: %v, want line 4 refused", err)
	}
	if _, err := ReadHlog(bytes.NewReader([]byte(log))); err == nil || !strings.Contains(err.Error(), "significant digits needs") {
		t.Errorf("ReadHlog: %v, want the geometry refused", err)
	}
}

func FuzzCheckHlog(f *testing.F) {
	f.Add([]byte("Tag=READ.service,0.000,1.000,1.000," + payload(f, 1, 60_000_000, 3) + "\n"))
	f.Add([]byte("Tag=READ.service,0.000,1.000,1.000," + payload(f, 1, 1<<62, 5) + "\n"))
	f.Add([]byte("#c\n\"a\",\"b\"\n0.0,1.0,1.0,HISTFAAAAB\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		if err := CheckHlog(log); err != nil {
			return
		}
		// What passes the check decodes within the bound, or fails cleanly.
		hs, _ := ReadHlog(bytes.NewReader(log))
		for _, h := range hs {
			if n := len(h.Export().Counts); n > MaxHistogramCounts {
				t.Fatalf("a histogram of %d counts passed the check", n)
			}
		}
	})
}
