package loadgen

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
)

// Bounds of a histogram read from a file (a stored .hlog, an imported YCSB
// .hdr log): its geometry is checked before the decoder allocates its
// counts, so a small hostile file cannot make a reader allocate gigabytes.
const (
	// MaxSignificantDigits is the most significant digits a histogram read
	// may have (HdrHistogram's own maximum; regress records 3, YCSB too).
	MaxSignificantDigits = 5
	// MaxHistogramCounts bounds the counts array a histogram read may need
	// (8 bytes each: 16 MiB): enough for 1 µs .. 1 hour at 5 significant
	// digits, or 1 µs .. 2^62 at 3.
	MaxHistogramCounts = 1 << 21
)

// v2 cookies of an encoded histogram (low nibble masked off).
const (
	v2CompressedCookie = 0x1c849304
	v2EncodingCookie   = 0x1c849303
)

// CheckHistogramPayload reads the header of one base64 V2-compressed
// histogram, as interval logs hold them, and refuses a geometry beyond the
// bounds above before anything decodes its counts. Payloads it cannot read
// are left to the decoder, which reports them.
func CheckHistogramPayload(payload string) error {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(payload))
	if err != nil || len(b) < 8 || binary.BigEndian.Uint32(b)&^0xf0 != v2CompressedCookie {
		return nil
	}
	z, err := zlib.NewReader(bytes.NewReader(b[8:]))
	if err != nil {
		return nil
	}
	defer z.Close()
	var h [40]byte
	if _, err := io.ReadFull(z, h[:]); err != nil || binary.BigEndian.Uint32(h[:])&^0xf0 != v2EncodingCookie {
		return nil
	}
	digits := int32(binary.BigEndian.Uint32(h[12:]))
	lowest := int64(binary.BigEndian.Uint64(h[16:]))
	highest := int64(binary.BigEndian.Uint64(h[24:]))
	return CheckHistogramGeometry(lowest, highest, digits)
}

// CheckHistogramGeometry refuses a histogram of lowest..highest at digits
// significant digits whose counts would exceed MaxHistogramCounts, or whose
// digits exceed MaxSignificantDigits.
func CheckHistogramGeometry(lowest, highest int64, digits int32) error {
	if digits < 0 || digits > MaxSignificantDigits {
		return fmt.Errorf("histogram of %d significant digits: at most %d are read (regress and YCSB record 3)", digits, MaxSignificantDigits)
	}
	if lowest < 1 {
		lowest = 1
	}
	if highest < 2*lowest {
		return nil // the decoder refuses it
	}
	if n := countsLen(lowest, highest, digits); n > MaxHistogramCounts {
		return fmt.Errorf("histogram of %d..%d at %d significant digits needs %d counts (%d MiB), beyond the %d this reader allows: record with fewer digits or a smaller range", lowest, highest, digits, n, n*8>>20, MaxHistogramCounts)
	}
	return nil
}

// countsLen is the length of the counts array HdrHistogram allocates for a
// geometry (its own arithmetic, in int64 so nothing overflows).
func countsLen(lowest, highest int64, digits int32) int64 {
	largest := 2 * int64(math.Pow10(int(digits)))
	subMag := int64(math.Ceil(math.Log2(float64(largest))))
	halfMag := max(subMag-1, 0)
	unitMag := max(int64(math.Floor(math.Log2(float64(lowest)))), 0)
	subCount := int64(1) << (halfMag + 1)
	if unitMag+halfMag+1 >= 63 {
		return math.MaxInt64
	}
	smallestUntrackable := subCount << unitMag
	buckets := int64(1)
	for smallestUntrackable <= highest { // <=, as HdrHistogram counts them
		if smallestUntrackable > math.MaxInt64/2 {
			buckets++
			break
		}
		smallestUntrackable <<= 1
		buckets++
	}
	return (buckets + 1) * (subCount / 2)
}

// CheckHlog checks every interval histogram of an interval log (see
// CheckHistogramPayload) before the log is decoded. Line numbers are 1-based.
func CheckHlog(log []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, len(log)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '"' {
			continue
		}
		i := strings.LastIndexByte(line, ',')
		if i < 0 {
			continue
		}
		if err := CheckHistogramPayload(line[i+1:]); err != nil {
			return fmt.Errorf("interval log line %d: %w", n, err)
		}
	}
	return nil
}
