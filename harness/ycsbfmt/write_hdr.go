package ycsbfmt

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// Splitter reads the load generator's interval log as it is written (it is
// an io.Writer for loadgen.Config.Hlog) and hands each interval histogram on
// under its YCSB measurement name (READ, Intended-READ...). The load
// generator writes the log on its collector tick, from the goroutine that
// called Run, just before it calls Progress; calling Flush from the Progress
// callback therefore sees every interval of that tick. Not safe for
// concurrent use.
type Splitter struct {
	iv     Interval
	sink   func(name string, h *hdr.Histogram) error
	buf    []byte
	baseMs int64
	lineNo int
	err    error
}

// NewSplitter passes the intervals iv reports to sink; a sink error stops
// the splitting and is returned by Flush.
func NewSplitter(iv Interval, sink func(name string, h *hdr.Histogram) error) *Splitter {
	return &Splitter{iv: iv, sink: sink}
}

// Write buffers log text; it never fails, so a problem with the .hdr files
// or the status output cannot abort the run itself. Flush reports it.
func (s *Splitter) Write(p []byte) (int, error) {
	if s.err == nil {
		s.buf = append(s.buf, p...)
	}
	return len(p), nil
}

// Flush decodes every complete line written so far and passes its interval on.
func (s *Splitter) Flush() error {
	for s.err == nil {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			break
		}
		line := string(s.buf[:i])
		s.buf = s.buf[i+1:]
		s.lineNo++
		s.err = s.line(line)
	}
	return s.err
}

func (s *Splitter) line(line string) error {
	switch {
	case line == "" || strings.HasPrefix(line, `"StartTimestamp"`):
		return nil
	case strings.HasPrefix(line, "#"):
		if m := reBaseTime.FindStringSubmatch(line); m != nil {
			secs, err := strconv.ParseFloat(m[1], 64)
			if err != nil {
				return fmt.Errorf("interval log line %d: base time %q: %w", s.lineNo, m[1], err)
			}
			s.baseMs = int64(math.Round(secs * 1000))
		}
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("interval log line %d: %s: %.80q", s.lineNo, why, line)
	}
	tag, rest, ok := strings.Cut(strings.TrimPrefix(line, "Tag="), ",")
	if !ok || !strings.HasPrefix(line, "Tag=") {
		return bad("expected Tag=OP.kind,start,length,max,payload")
	}
	f := strings.Split(rest, ",")
	if len(f) != 4 {
		return bad("expected start,length,max,payload after the tag")
	}
	opName, kindName, _ := strings.Cut(tag, ".")
	if _, ok := workload.ParseOp(strings.TrimSuffix(opName, "-FAILED")); !ok {
		return bad("tag " + tag + " names no operation")
	}
	var kind loadgen.Kind
	switch kindName {
	case loadgen.Intended.String():
		kind = loadgen.Intended
	case loadgen.Service.String():
		kind = loadgen.Service
	default:
		return bad("tag " + tag + " names no latency kind")
	}
	name, ok := s.iv.Name(opName, kind)
	if !ok {
		return nil
	}
	start, err1 := strconv.ParseFloat(f[0], 64)
	length, err2 := strconv.ParseFloat(f[1], 64)
	if err := errors.Join(err1, err2); err != nil {
		return bad("unreadable interval times")
	}
	h, err := hdr.Decode([]byte(f[3]))
	if err != nil {
		return fmt.Errorf("interval log line %d: decode histogram: %w", s.lineNo, err)
	}
	startMs := s.baseMs + int64(math.Round(start*1000))
	h.SetStartTimeMs(startMs)
	h.SetEndTimeMs(startMs + int64(math.Round(length*1000)))
	h.SetTag("")
	return s.sink(name, h)
}

// HdrFiles writes one HdrHistogram interval log per measurement at prefix +
// NAME + ".hdr", as YCSB's hdrhistogram.fileoutput does (prefix is
// hdrhistogram.output.path, a directory with its slash or a file-name prefix).
// Each file is created on its measurement's first interval, with YCSB's
// header: a "[Logging for: NAME]" comment, the format version, start and
// base time, and the legend. Intervals carry no tag, as YCSB's do.
type HdrFiles struct {
	prefix string
	start  time.Time
	files  map[string]*hdrFile
	paths  []string
}

type hdrFile struct {
	f *os.File
	w *hdr.HistogramLogWriter
}

// NewHdrFiles writes logs at prefix+NAME+".hdr" with times relative to start.
func NewHdrFiles(prefix string, start time.Time) *HdrFiles {
	return &HdrFiles{prefix: prefix, start: start, files: map[string]*hdrFile{}}
}

// Path returns the file measurement name is written to.
func (f *HdrFiles) Path(name string) string { return f.prefix + name + ".hdr" }

// Paths returns the files written so far, in creation order.
func (f *HdrFiles) Paths() []string { return append([]string(nil), f.paths...) }

// Write appends interval h of measurement name to its file.
func (f *HdrFiles) Write(name string, h *hdr.Histogram) error {
	hf, ok := f.files[name]
	if !ok {
		var err error
		if hf, err = f.create(name); err != nil {
			return err
		}
	}
	if err := hf.w.OutputIntervalHistogram(h); err != nil {
		return fmt.Errorf("write %s: %w", f.Path(name), err)
	}
	return nil
}

func (f *HdrFiles) create(name string) (*hdrFile, error) {
	path := f.Path(name)
	file, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("hdrhistogram.fileoutput: create %s (hdrhistogram.output.path is a prefix; does its directory exist?): %w", path, err)
	}
	w := hdr.NewHistogramLogWriter(file)
	ms := f.start.UnixMilli()
	w.SetBaseTime(ms)
	// Written by hand for millisecond precision, as Java's HdrHistogram
	// does; hdrhistogram-go's OutputStartTime prints whole seconds.
	secs := fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
	header := "#[Logging for: " + name + "]\n" +
		"#[Histogram log format version " + hdr.HISTOGRAM_LOG_FORMAT_VERSION + "]\n" +
		"#[StartTime: " + secs + " (seconds since epoch), " + f.start.UTC().Format("2006-01-02T15:04:05.000Z") + "]\n" +
		"#[BaseTime: " + secs + " (seconds since epoch)]\n"
	_, err = file.WriteString(header)
	if err == nil {
		err = w.OutputLegend()
	}
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	hf := &hdrFile{f: file, w: w}
	f.files[name] = hf
	f.paths = append(f.paths, path)
	return hf, nil
}

// Close closes every file and returns the first error.
func (f *HdrFiles) Close() error {
	var errs []error
	for name, hf := range f.files {
		if err := hf.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close %s: %w", f.Path(name), err))
		}
	}
	f.files = map[string]*hdrFile{}
	return errors.Join(errs...)
}
