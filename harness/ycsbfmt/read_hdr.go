package ycsbfmt

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
)

// Encoding cookies of HdrHistogram's serialised forms (the word-size nibble masked off).
const (
	cookieV0Compressed = 0x1c849309
	cookieV1Compressed = 0x1c849302
	cookieV2Compressed = 0x1c849304
)

var (
	reStartTime = regexp.MustCompile(`^#\[StartTime: ([^\s,\]]+)`)
	reBaseTime  = regexp.MustCompile(`^#\[BaseTime: ([^\s,\]]+)`)
)

// knownOps are YCSB's measurement names, longest first so READ-MODIFY-WRITE wins over READ.
var knownOps = []string{"READ-MODIFY-WRITE", "CLEANUP", "INSERT", "UPDATE", "DELETE", "SCAN", "READ"}

// OpFromHdrName tells the operation from a YCSB .hdr file name: YCSB writes
// hdrhistogram.output.path + NAME + ".hdr", e.g. "run1-READ.hdr" or
// "Intended-UPDATE.hdr". intended reports an "Intended-" log.
func OpFromHdrName(path string) (op string, intended bool, err error) {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, k := range knownOps {
		for _, cand := range []string{"Intended-" + k, k} {
			if strings.HasSuffix(base, cand) {
				return k, strings.HasPrefix(cand, "Intended-"), nil
			}
		}
	}
	return "", false, fmt.Errorf("%s: cannot tell the operation from the file name; YCSB names its logs after the operation (READ.hdr, UPDATE.hdr, READ-MODIFY-WRITE.hdr...): rename the file", path)
}

// ParseHdrLog reads one YCSB HdrHistogram interval log (values in
// microseconds) and merges its intervals into one histogram for op. Lines
// are checked one by one so an error names the line; payloads are decoded
// with hdrhistogram-go, which reads only the V2 encoding: logs from YCSB
// builds that wrote V1 ("HISTggAA...") are refused with a clear error.
func ParseHdrLog(name string, r io.Reader) (*Run, error) {
	op, intended, err := OpFromHdrName(name)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var merged *hdrhistogram.Histogram
	var startSec, baseSec float64
	haveStart, haveBase := false, false
	firstSec, lastEndSec := math.Inf(1), math.Inf(-1)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		perr := func(why string) error { return &ParseError{File: name, Line: n, Text: raw, Why: why} }
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "#"):
			if m := reStartTime.FindStringSubmatch(line); m != nil {
				v, err := strconv.ParseFloat(m[1], 64)
				if err != nil || !epochSeconds(v) {
					return nil, perr(fmt.Sprintf("StartTime %s is no time: give seconds since 1970, before the year 10000", m[1]))
				}
				startSec, haveStart = v, true
			} else if m := reBaseTime.FindStringSubmatch(line); m != nil {
				v, err := strconv.ParseFloat(m[1], 64)
				if err != nil || !epochSeconds(v) {
					return nil, perr(fmt.Sprintf("BaseTime %s is no time: give seconds since 1970, before the year 10000", m[1]))
				}
				baseSec, haveBase = v, true
			}
			continue
		case strings.HasPrefix(line, `"StartTimestamp"`):
			continue // the legend
		}
		if strings.HasPrefix(line, "Tag=") {
			_, after, ok := strings.Cut(line, ",")
			if !ok {
				return nil, perr("Tag= without an interval after it")
			}
			line = after
		}
		f := strings.Split(line, ",")
		if len(f) != 4 {
			return nil, perr("expected start,length,max,payload")
		}
		start, err1 := strconv.ParseFloat(f[0], 64)
		length, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil || !finite(start) || !finite(length) || length < 0 || math.Abs(start) > maxEpochSec || length > maxEpochSec {
			return nil, perr("interval start and length must be numbers of seconds (before the year 10000)")
		}
		h, err := decodePayload(f[3])
		if err != nil {
			return nil, perr(err.Error())
		}
		if merged == nil {
			merged = hdrhistogram.New(h.LowestTrackableValue(), max(h.HighestTrackableValue(), 3_600_000_000), int(h.SignificantFigures()))
		}
		if dropped := merged.Merge(h); dropped > 0 {
			return nil, perr(fmt.Sprintf("%d values beyond the trackable range", dropped))
		}
		firstSec = min(firstSec, start)
		lastEndSec = max(lastEndSec, start+length)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: read: %w", name, n+1, err)
	}
	if merged == nil {
		return nil, fmt.Errorf("%s: no interval histograms in this log; pass a YCSB .hdr log written with hdrhistogram.fileoutput=true", name)
	}
	run := &Run{File: name, Format: FormatHdrLog, Ops: map[string]*Op{}, GC: map[string]float64{}}
	if lastEndSec > firstSec {
		run.RunTimeMillis = int64((lastEndSec - firstSec) * 1000)
		run.ThroughputOpsPerSec = float64(merged.TotalCount()) / (lastEndSec - firstSec)
	}
	// Interval timestamps are relative to StartTime unless a BaseTime says otherwise.
	at, known := 0.0, true
	switch {
	case haveBase:
		at = baseSec + firstSec
	case haveStart:
		at = startSec + firstSec
	default:
		known = false
	}
	if known && !epochSeconds(at) {
		return nil, fmt.Errorf("%s: the log's first interval starts at %g seconds since 1970, no time of a run (before 1970 or after the year 9999): its StartTime, BaseTime or interval starts are damaged", name, at)
	}
	if known {
		run.StartUnixMillis = int64(at * 1000)
	}
	o := opFromHistogram(merged)
	if intended {
		run.Ops[op] = &Op{Statuses: map[string]int64{}, PercentilesMicros: map[float64]float64{}, Intended: o}
	} else {
		run.Ops[op] = o
	}
	return run, nil
}

// maxEpochSec is the last second of the year 9999, the latest time a
// manifest holds (JSON times end there).
const maxEpochSec = 253402300799

// epochSeconds says whether v is a time a run can start at: seconds since
// 1970, before the year 10000 (1e20 overflowed, -1e18 was stored as the
// year 1).
func epochSeconds(v float64) bool { return finite(v) && v >= 0 && v <= maxEpochSec }

// decodePayload decodes one interval's base64 histogram, naming the encoding when it is one hdrhistogram-go cannot read.
func decodePayload(p string) (*hdrhistogram.Histogram, error) {
	p = strings.TrimSpace(p)
	head, err := base64.StdEncoding.DecodeString(p[:min(len(p), 8)])
	if err != nil || len(head) < 4 {
		return nil, fmt.Errorf("histogram payload is not base64")
	}
	switch binary.BigEndian.Uint32(head) &^ 0xf0 {
	case cookieV2Compressed:
	case cookieV1Compressed, cookieV0Compressed:
		return nil, fmt.Errorf("histogram payload uses HdrHistogram's V1/V0 encoding (\"HISTgg...\", written by old YCSB builds), which hdrhistogram-go cannot decode; use the text output of that run instead, or re-encode the log with HdrHistogram Java 2.1.5+ (HistogramLogProcessor)")
	default:
		return nil, fmt.Errorf("histogram payload is not a compressed HdrHistogram")
	}
	if err := loadgen.CheckHistogramPayload(p); err != nil {
		return nil, err
	}
	h, err := hdrhistogram.Decode([]byte(p))
	if err != nil {
		return nil, fmt.Errorf("decode histogram payload: %v", err)
	}
	return h, nil
}

// opFromHistogram summarises a latency histogram recorded in microseconds.
func opFromHistogram(h *hdrhistogram.Histogram) *Op {
	o := newOp()
	o.Count = h.TotalCount()
	o.Histogram = h
	if o.Count == 0 {
		return o
	}
	o.MeanMicros = h.Mean()
	o.MinMicros = float64(h.Min())
	o.MaxMicros = float64(h.Max())
	for _, p := range []float64{50, 95, 99, 99.9} {
		o.PercentilesMicros[p] = float64(h.ValueAtQuantile(p))
	}
	return o
}
