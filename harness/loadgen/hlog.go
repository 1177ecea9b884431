package loadgen

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// ReadHlog reads an HdrHistogram interval log and returns its interval
// histograms in order, each with its Tag and absolute start/end times (ms).
func ReadHlog(r io.Reader) (out []*hdr.Histogram, err error) {
	// A damaged log must give an error, never crash the caller, whatever the
	// decoder underneath does with it.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("read interval log after %d intervals: damaged input: %v", len(out), p)
		}
	}()
	// The whole log is checked before any of it is decoded: a hostile
	// geometry must not allocate (CheckHlog).
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read interval log: %w", err)
	}
	if err := CheckHlog(b); err != nil {
		return nil, fmt.Errorf("read interval log: %w", err)
	}
	lr := hdr.NewHistogramLogReader(bytes.NewReader(b))
	for {
		h, err := lr.NextIntervalHistogram()
		if err != nil {
			hint := ""
			if strings.Contains(err.Error(), "only V2 is supported") {
				hint = " (V1-encoded logs from old YCSB versions cannot be decoded by hdrhistogram-go)"
			}
			return out, fmt.Errorf("read interval log after %d intervals: %w%s", len(out), err, hint)
		}
		if h == nil {
			return out, nil
		}
		out = append(out, h)
	}
}

// MergeByTag merges interval histograms into into, one histogram per tag
// (the first interval of a tag is cloned, never aliased). Values beyond the
// tag's trackable range are an error naming the interval: they would be
// lost from the merged distribution.
func MergeByTag(into map[string]*hdr.Histogram, intervals []*hdr.Histogram) error {
	for i, h := range intervals {
		m, ok := into[h.Tag()]
		if !ok {
			into[h.Tag()] = h.Clone()
			continue
		}
		if dropped := m.Merge(h); dropped > 0 {
			return fmt.Errorf("interval %d (%s): %d values beyond the trackable range", i+1, h.Tag(), dropped)
		}
	}
	return nil
}
