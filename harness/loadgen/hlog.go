package loadgen

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/workload"
)

// Tag returns the interval-log tag of an op's histogram of one outcome and
// kind, e.g. READ.intended or READ-FAILED.service.
func Tag(op workload.Op, o Outcome, k Kind) string { return o.Name(op) + "." + k.String() }

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

// MergeByTag merges interval histograms into one histogram per tag.
func MergeByTag(intervals []*hdr.Histogram) map[string]*hdr.Histogram {
	out := make(map[string]*hdr.Histogram)
	for _, h := range intervals {
		if m, ok := out[h.Tag()]; ok {
			m.Merge(h)
		} else {
			out[h.Tag()] = h.Clone()
		}
	}
	return out
}
