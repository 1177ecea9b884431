package ycsbfmt

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/metric"
	"github.com/regress-hbase/regress/harness/results"
)

// IsHdrLog reports whether a file is an HdrHistogram interval log rather than
// text output: by its .hdr/.hlog extension, or by a first line starting "#[".
func IsHdrLog(path string, content []byte) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".hdr", ".hlog":
		return true
	}
	return bytes.HasPrefix(bytes.TrimLeft(content, " \t\r\n"), []byte("#["))
}

// ParseBytes reads one file's content as text output or as an interval log.
func ParseBytes(path string, content []byte) ([]*Run, error) {
	return parseBytes(context.Background(), path, content)
}

// parseBytes is ParseBytes ending when ctx does.
func parseBytes(ctx context.Context, path string, content []byte) ([]*Run, error) {
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	in := ctxReader{ctx, bytes.NewReader(content)}
	if IsHdrLog(path, content) {
		r, err := ParseHdrLog(path, in)
		if err != nil {
			return nil, err
		}
		return []*Run{r}, nil
	}
	return ParseText(path, in)
}

// ctxReader ends a parse when ctx does: an interrupted import stops within
// one read of its input, not after parsing all of it (20,000 runs of text
// went on for 1.3 s after a signal).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ReadFile reads a YCSB text output or .hdr interval log from disk.
func ReadFile(path string) ([]*Run, error) {
	b, err := readInput(context.Background(), path)
	if err != nil {
		return nil, fmt.Errorf("read YCSB output: %w", err)
	}
	return ParseBytes(path, b)
}

// MergeHdrRuns combines the per-operation .hdr logs of one YCSB run
// (READ.hdr, UPDATE.hdr, Intended-READ.hdr...) into one Run. The same log
// given twice is an error.
func MergeHdrRuns(runs []*Run) (*Run, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no .hdr logs to merge")
	}
	out := &Run{Format: FormatHdrLog, Ops: map[string]*Op{}, GC: map[string]float64{}}
	var files []string
	for _, r := range runs {
		if r.Format != FormatHdrLog {
			return nil, fmt.Errorf("%s is text output, not a .hdr log; import it separately", r.File)
		}
		files = append(files, r.File)
		out.RunTimeMillis = max(out.RunTimeMillis, r.RunTimeMillis)
		if r.StartUnixMillis != 0 && (out.StartUnixMillis == 0 || r.StartUnixMillis < out.StartUnixMillis) {
			out.StartUnixMillis = r.StartUnixMillis
		}
		for name, o := range r.Ops {
			have := out.Ops[name]
			switch {
			case have == nil:
				out.Ops[name] = o
			case o.Histogram == nil && o.Intended != nil && have.Intended == nil:
				have.Intended = o.Intended
			case have.Histogram == nil && have.Intended != nil && o.Intended == nil:
				o.Intended = have.Intended
				out.Ops[name] = o
			default:
				return nil, fmt.Errorf("%s: a second log for operation %s; pass each operation's .hdr once per import", r.File, name)
			}
		}
	}
	// Throughput over all operations, over the longest log's span.
	if out.RunTimeMillis > 0 {
		var n int64
		for _, o := range out.Ops {
			n += o.Count
		}
		out.ThroughputOpsPerSec = float64(n) / (float64(out.RunTimeMillis) / 1000)
	}
	out.File = strings.Join(files, ",")
	return out, nil
}

// okStatuses are YCSB's successful return statuses (Status.isOk).
var okStatuses = map[string]bool{"OK": true, "BATCHED_OK": true}

// Trial converts a Run into a stored summary. YCSB's default
// measurement.interval=op latency is the service time; without an
// "Intended-" block it also stands in as intended latency, because the
// comparison reads intended latency and YCSB gave nothing better.
func (r *Run) Trial(id, workload string) results.Trial {
	t := results.Trial{
		ID: id, Workload: workload, DurationMillis: r.RunTimeMillis,
		AchievedOpsPerSec: r.ThroughputOpsPerSec, Ops: map[string]results.OpStats{},
	}
	if r.StartUnixMillis != 0 {
		t.Start = time.UnixMilli(r.StartUnixMillis).UTC()
	}
	for name, o := range r.Ops {
		if name == "CLEANUP" {
			continue // closing the DB is not a workload operation
		}
		st := results.OpStats{Count: o.Count, Service: o.latency()}
		if len(o.Statuses) > 0 {
			st.Statuses = map[string]int64{}
			for k, v := range o.Statuses {
				st.Statuses[k] = v
				if !okStatuses[k] {
					st.Errors += v
				}
			}
		}
		st.Intended = st.Service
		below := o.BelowMicros
		if o.Intended != nil {
			st.Intended = o.Intended.latency()
			below = o.Intended.BelowMicros
			if st.Count == 0 {
				st.Count = o.Intended.Count
			}
		}
		for p, us := range below {
			if name, ok := percentileNames[p]; ok {
				if st.Below == nil {
					st.Below = map[string]float64{}
				}
				st.Below[name] = us
			}
		}
		t.Ops[name] = st
	}
	// YCSB measures the operations that did not return OK under blocks of
	// their own (X-FAILED, or X-NOT_FOUND and X-ERROR with
	// reportlatencyforeacherror): they are X's failures, never an operation
	// of their own, and never successes of X: its count holds them, its
	// errors count them even where no Return= line does, and their
	// latencies stay apart in Failed.
	for _, name := range r.OpNames() {
		base := r.failureOf(name)
		st, ok := t.Ops[name]
		if base == "" || !ok {
			continue
		}
		if base == "CLEANUP" {
			delete(t.Ops, name) // as CLEANUP itself: not a workload operation
			continue
		}
		b := t.Ops[base]
		b.Count += st.Count
		b.Failed = mergeFailed(b.Failed, &results.FailedStats{Count: st.Count, Intended: st.Intended, Service: st.Service})
		b.Errors = min(max(b.Errors, b.Failed.Count), b.Count)
		t.Ops[base] = b
		delete(t.Ops, name)
	}
	return t
}

// mergeFailed joins two failure blocks of one operation (READ-NOT_FOUND
// and READ-ERROR): counts add; the extremes and the mean merge exactly,
// percentiles cannot and are left out (zero: not reported).
func mergeFailed(a, b *results.FailedStats) *results.FailedStats {
	if a == nil {
		return b
	}
	return &results.FailedStats{
		Count:    a.Count + b.Count,
		Intended: mergeExtremes(a.Intended, a.Count, b.Intended, b.Count),
		Service:  mergeExtremes(a.Service, a.Count, b.Service, b.Count),
	}
}

func mergeExtremes(a results.Latency, na int64, b results.Latency, nb int64) results.Latency {
	l := results.Latency{MaxMicros: max(a.MaxMicros, b.MaxMicros)}
	switch {
	case a.MinMicros == 0:
		l.MinMicros = b.MinMicros
	case b.MinMicros == 0:
		l.MinMicros = a.MinMicros
	default:
		l.MinMicros = min(a.MinMicros, b.MinMicros)
	}
	if na+nb > 0 && a.MeanMicros > 0 && b.MeanMicros > 0 {
		l.MeanMicros = (a.MeanMicros*float64(na) + b.MeanMicros*float64(nb)) / float64(na+nb)
	}
	return l
}

// percentileNames maps the percentiles a Latency holds to their names in the metric catalogue.
var percentileNames = map[float64]string{50: metric.P50, 95: metric.P95, 99: metric.P99, 99.9: metric.P999}

func (o *Op) latency() results.Latency {
	if o.Count == 0 && o.Histogram == nil {
		return results.Latency{} // figures of an op that never ran are YCSB placeholders
	}
	return results.Latency{
		P50Micros: o.PercentilesMicros[50], P95Micros: o.PercentilesMicros[95],
		P99Micros: o.PercentilesMicros[99], P999Micros: o.PercentilesMicros[99.9],
		MaxMicros: o.MaxMicros, MinMicros: o.MinMicros, MeanMicros: o.MeanMicros,
	}
}

// Histograms returns the merged latency histograms of a run read from .hdr
// logs, keyed by operation (service latency), for reports and .hgrm files.
func (r *Run) Histograms() map[string]*hdrhistogram.Histogram {
	out := map[string]*hdrhistogram.Histogram{}
	for name, o := range r.Ops {
		if o.Histogram != nil {
			out[name] = o.Histogram
		}
	}
	return out
}

// OpNames returns the run's operation names, sorted.
func (r *Run) OpNames() []string {
	var names []string
	for n := range r.Ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// WriteHlog writes the run's histograms (from .hdr logs) as one interval log
// with one interval per operation and kind, tagged like regress's own logs
// ("READ.service", "READ.intended"). It writes nothing useful for text
// output, which carries no histograms: HasHistograms tells.
func (r *Run) WriteHlog(w io.Writer) error {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	if err := lw.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := lw.OutputStartTime(r.StartUnixMillis); err != nil {
		return err
	}
	if err := lw.OutputLegend(); err != nil {
		return err
	}
	for _, name := range r.OpNames() {
		o := r.Ops[name]
		intended := intendedHist(o)
		if intended == nil {
			// As in Trial: without an Intended- log, YCSB's latency stands in for intended.
			intended = o.Histogram
		}
		for _, k := range []struct {
			h    *hdrhistogram.Histogram
			kind loadgen.Kind
		}{{o.Histogram, loadgen.Service}, {intended, loadgen.Intended}} {
			if k.h == nil {
				continue
			}
			h := k.h.Clone()
			h.SetTag(loadgen.Tag(name, k.kind))
			h.SetStartTimeMs(r.StartUnixMillis)
			h.SetEndTimeMs(r.StartUnixMillis + r.RunTimeMillis)
			if err := lw.OutputIntervalHistogram(h); err != nil {
				return fmt.Errorf("write hlog for %s: %w", name, err)
			}
		}
	}
	return nil
}

func intendedHist(o *Op) *hdrhistogram.Histogram {
	if o.Intended == nil {
		return nil
	}
	return o.Intended.Histogram
}

// HasHistograms reports whether the run carries latency histograms (it was read from .hdr logs).
func (r *Run) HasHistograms() bool {
	for _, o := range r.Ops {
		if o.Histogram != nil || intendedHist(o) != nil {
			return true
		}
	}
	return false
}
