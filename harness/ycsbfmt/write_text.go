// Package ycsbfmt is YCSB's output format, both ways. It reads results
// produced by YCSB itself (its text output in every format released since
// 0.1.0, and its HdrHistogram interval logs, .hdr) into results.Trial
// summaries, so published or archived YCSB numbers can be stored and
// compared (descriptively) with regress runs; and it writes a load
// generator's results the way YCSB prints them (the final measurement block,
// the -s status lines, the per-measurement .hdr logs of
// hdrhistogram.fileoutput), so tools and people used to YCSB's output can
// read ours unchanged. Writer and reader are tested against each other.
// Import stores what it reads in the results store (`regress import-ycsb`).
package ycsbfmt

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// Interval is YCSB's measurement.interval: which of an operation's two
// latencies the output reports.
type Interval uint8

// The measurement.interval values.
const (
	// MeasureOp reports service time, from the operation's actual start (YCSB's default).
	MeasureOp Interval = iota
	// MeasureIntended reports intended latency, from the operation's scheduled
	// start: the coordinated-omission-corrected figure, under the op's own name.
	MeasureIntended
	// MeasureBoth reports service time under the op's name and intended
	// latency under "Intended-" + the op's name.
	MeasureBoth
)

// IntendedPrefix names the intended-latency measurements of MeasureBoth, as YCSB does.
const IntendedPrefix = "Intended-"

// ParseInterval reads measurement.interval: op, intended or both ("" means op).
func ParseInterval(s string) (Interval, error) {
	switch strings.TrimSpace(s) {
	case "", "op":
		return MeasureOp, nil
	case "intended":
		return MeasureIntended, nil
	case "both":
		return MeasureBoth, nil
	}
	return 0, fmt.Errorf("measurement.interval=%s: use op (service time), intended (from the scheduled start) or both", s)
}

// String returns the property value naming iv.
func (iv Interval) String() string {
	switch iv {
	case MeasureIntended:
		return "intended"
	case MeasureBoth:
		return "both"
	}
	return "op"
}

// Name returns the measurement name under which iv reports the kind k
// latency of op, and false when iv does not report that kind.
func (iv Interval) Name(op string, k loadgen.Kind) (string, bool) {
	switch {
	case k == loadgen.Service && iv != MeasureIntended:
		return op, true
	case k == loadgen.Intended && iv == MeasureIntended:
		return op, true
	case k == loadgen.Intended && iv == MeasureBoth:
		return IntendedPrefix + op, true
	}
	return "", false
}

// DefaultPercentiles are YCSB's hdrhistogram.percentiles default.
var DefaultPercentiles = []float64{50, 95, 99}

// ParsePercentiles reads hdrhistogram.percentiles, a comma-separated list of
// percentiles in (0, 100] ("" means DefaultPercentiles). YCSB falls back to
// its default on a bad list; refusing it instead keeps a typo from quietly
// changing which figures a run prints.
func ParsePercentiles(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return append([]float64(nil), DefaultPercentiles...), nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(p) || p <= 0 || p > 100 {
			return nil, fmt.Errorf("hdrhistogram.percentiles=%s: %q is not a percentile between 0 and 100 (e.g. 50,95,99,99.9)", s, f)
		}
		out = append(out, p)
	}
	return out, nil
}

// Return is one Return=<Status> line: how many operations ended with Status.
type Return struct {
	Status string
	Count  int64
}

// Measurement is one bracketed block of the output: an operation's latency
// histogram (microseconds) and, where YCSB prints them, its return counts.
type Measurement struct {
	Name    string
	Hist    *hdr.Histogram
	Returns []Return
}

// Report is everything the final block prints.
type Report struct {
	// RunTime is the phase's wall time; YCSB prints it in whole milliseconds.
	RunTime time.Duration
	// Ops is the number of operations done, the numerator of the throughput.
	Ops int64
	// Measurements are printed in order.
	Measurements []Measurement
}

// FromResult turns a load generator result into YCSB's report under
// measurement.interval iv: per operation type in loadgen's order (READ,
// UPDATE, INSERT, SCAN, READ-MODIFY-WRITE), and with MeasureBoth the
// Intended- blocks after all of them, as YCSB exports its two maps in turn.
// Return counts go with the op measurement, or with the intended one under
// MeasureIntended, as YCSB reports statuses. Operations that did not return
// OK have their own measurement right after their op's, READ-FAILED, as
// YCSB's DBWrapper names them.
func FromResult(r *loadgen.Result, iv Interval) Report {
	rep := Report{RunTime: r.Duration, Ops: r.Ops}
	var intended []Measurement
	for _, o := range r.PerOp {
		if o == nil {
			continue
		}
		name := o.Op.String()
		var rets []Return
		for _, s := range []workload.Status{workload.OK, workload.NotFound, workload.Error} {
			if n := o.Status(s); n > 0 {
				rets = append(rets, Return{Status: s.String(), Count: n})
			}
		}
		failed := o.FailedService != nil && o.FailedService.TotalCount() > 0
		fname := loadgen.Failed.Name(o.Op)
		switch iv {
		case MeasureIntended:
			rep.Measurements = append(rep.Measurements, Measurement{Name: name, Hist: o.Intended, Returns: rets})
			if failed {
				rep.Measurements = append(rep.Measurements, Measurement{Name: fname, Hist: o.FailedIntended})
			}
		case MeasureBoth:
			rep.Measurements = append(rep.Measurements, Measurement{Name: name, Hist: o.Service, Returns: rets})
			intended = append(intended, Measurement{Name: IntendedPrefix + name, Hist: o.Intended})
			if failed {
				rep.Measurements = append(rep.Measurements, Measurement{Name: fname, Hist: o.FailedService})
				intended = append(intended, Measurement{Name: IntendedPrefix + fname, Hist: o.FailedIntended})
			}
		default:
			rep.Measurements = append(rep.Measurements, Measurement{Name: name, Hist: o.Service, Returns: rets})
			if failed {
				rep.Measurements = append(rep.Measurements, Measurement{Name: fname, Hist: o.FailedService})
			}
		}
	}
	rep.Measurements = append(rep.Measurements, intended...)
	return rep
}

// RunTimeMillis is the [OVERALL] RunTime(ms) figure.
func (r Report) RunTimeMillis() int64 { return r.RunTime.Milliseconds() }

// Throughput is the [OVERALL] Throughput(ops/sec) figure: 1000 × ops / RunTime(ms)
// as YCSB computes it, so a reader can check one line against the other. A
// phase shorter than a millisecond uses its exact duration instead of
// dividing by zero (where YCSB would print Infinity).
func (r Report) Throughput() float64 {
	if ms := r.RunTimeMillis(); ms > 0 {
		return 1000 * float64(r.Ops) / float64(ms)
	}
	if r.RunTime > 0 {
		return float64(r.Ops) / r.RunTime.Seconds()
	}
	return 0
}

// WriteText writes the report in YCSB's text format (TextMeasurementsExporter
// with hdrhistogram measurements), one "[NAME], label, value" line each:
// [OVERALL] RunTime(ms) and Throughput(ops/sec), then per measurement
// Operations, AverageLatency(us), MinLatency(us), MaxLatency(us), one
// <ordinal>PercentileLatency(us) per entry of percentiles, and Return= lines.
func (r Report) WriteText(w io.Writer, percentiles []float64) error {
	bw := bufio.NewWriter(w)
	line := func(name, label, value string) {
		bw.WriteString("[" + name + "], " + label + ", " + value + "\n")
	}
	line("OVERALL", "RunTime(ms)", strconv.FormatInt(r.RunTimeMillis(), 10))
	line("OVERALL", "Throughput(ops/sec)", JavaDouble(r.Throughput()))
	for _, m := range r.Measurements {
		h := m.Hist
		if h == nil {
			h = hdr.New(1, 2, 1) // an op with statuses but no latencies prints zeros, as an empty YCSB histogram does
		}
		line(m.Name, "Operations", strconv.FormatInt(h.TotalCount(), 10))
		line(m.Name, "AverageLatency(us)", JavaDouble(h.Mean()))
		line(m.Name, "MinLatency(us)", strconv.FormatInt(minOf(h), 10))
		line(m.Name, "MaxLatency(us)", strconv.FormatInt(h.Max(), 10))
		for _, p := range percentiles {
			line(m.Name, Ordinal(p)+"PercentileLatency(us)", strconv.FormatInt(h.ValueAtQuantile(p), 10))
		}
		for _, ret := range m.Returns {
			line(m.Name, "Return="+ret.Status, strconv.FormatInt(ret.Count, 10))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write YCSB text output: %w", err)
	}
	return nil
}

// minOf is the histogram's minimum, 0 when it is empty (as Java's HdrHistogram reports).
func minOf(h *hdr.Histogram) int64 {
	if h.TotalCount() == 0 {
		return 0
	}
	return h.Min()
}

// Ordinal names a percentile as YCSB's labels do: whole numbers get an
// English ordinal suffix (50th, 1st, 92nd, 11th), others print as a Java
// double (99.9).
func Ordinal(p float64) string {
	if p != math.Trunc(p) || math.IsInf(p, 0) {
		return JavaDouble(p)
	}
	j := int64(p)
	switch j % 100 {
	case 11, 12, 13:
		return strconv.FormatInt(j, 10) + "th"
	}
	suffix := [10]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}
	return strconv.FormatInt(j, 10) + suffix[j%10]
}

// JavaDouble formats f as Java's Double.toString does, which is how YCSB
// prints every double: plain decimals with at least one fractional digit for
// magnitudes in [1e-3, 1e7) (938.0, 751.3349851271859), computerized
// scientific notation otherwise (1.0E7, 1.5E-4), NaN and Infinity by name.
func JavaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // e.g. 1.234e+07
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	digits := strings.TrimLeft(exp[1:], "0") // FormatFloat writes a sign and at least two digits
	return mant + "E" + sign + digits
}
