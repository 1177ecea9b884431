package ycsbfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Text-output format families, as reported in Run.Format.
const (
	Format04     = "0.4+"        // [OVERALL], RunTime(ms), N; latencies in us
	Format014    = "0.1.4"       // averages in us, percentiles in ms
	Format010    = "0.1.0-0.1.3" // everything in ms, Return=<int> codes
	FormatHdrLog = "hdr"         // HdrHistogram interval logs
)

// Run is one YCSB run read from a file: its overall figures and one summary per operation.
type Run struct {
	File   string
	Line   int // line the run starts on (1-based); 0 for .hdr logs
	Format string
	// RunTimeMillis and ThroughputOpsPerSec are YCSB's [OVERALL] figures (0 when absent).
	RunTimeMillis       int64
	ThroughputOpsPerSec float64
	Ops                 map[string]*Op
	// GC holds the [TOTAL_GC...] lines by their bracket name and label, for the record.
	GC map[string]float64
	// StartUnixMillis is when the run started, when the source says (.hdr logs).
	StartUnixMillis int64
	// Notes say what the import had to interpret: fractional counts (the
	// averages of several runs posted in vote threads) rounded, percentiles
	// printed as 0 whole milliseconds kept as "below 1 ms".
	Notes []string

	// tputLine is where Throughput was given, to name it when it is given
	// twice or contradicts the run time and the operations.
	tputLine srcLine
}

// Op is one operation's figures from YCSB, latencies converted to microseconds.
// A zero latency means YCSB did not report that figure.
type Op struct {
	Count      int64
	Statuses   map[string]int64
	MeanMicros float64
	MinMicros  float64
	MaxMicros  float64
	// PercentilesMicros maps a percentile (50, 95, 99, 99.9...) to its latency.
	PercentilesMicros map[float64]float64
	// BucketsMillis are the 1 ms histogram buckets of YCSB's "histogram"
	// measurement type; OverflowCount counts the ">N" bucket.
	BucketsMillis map[int]int64
	OverflowCount int64
	// Intended holds the "Intended-<OP>" block of measurement.interval=intended|both.
	Intended *Op
	// Histogram is the merged interval histogram when read from a .hdr log (values in us).
	Histogram *hdrhistogram.Histogram
	// OperationsReported is the Operations figure as printed; it differs from
	// Count when it was fractional (an average of several runs), Count being
	// its rounding.
	OperationsReported float64
	// BelowMicros maps a percentile printed in whole milliseconds as 0 to the
	// bound it is known to lie under (1000 µs): shown as "< 1 ms", not dropped.
	BelowMicros map[float64]float64

	// What the parser checks once the run is read: each label's line (a
	// label given twice is two runs pasted together), the Operations line,
	// the Return= counts as printed, and the first real latency.
	seen       map[string]srcLine
	opsLine    srcLine
	statusSum  float64
	okSum      float64
	okLine     srcLine
	statusLine srcLine
	latLine    srcLine
	// pctLines, minLine and maxLine are where each percentile, the
	// minimum and the maximum were given, for checkOrder.
	pctLines         map[float64]srcLine
	pctMs            map[float64]bool // printed in whole milliseconds: v ms is [v, v+1) ms
	minLine, maxLine srcLine
	meanLine         srcLine
	// statMs marks Average, Min and Max printed in milliseconds (whole ones
	// are floors: a slack of 1 ms when they are compared).
	statMs     map[string]bool
	bucketSum  float64
	bucketLine srcLine
}

// srcLine is one line of the input, kept to name it in an error.
type srcLine struct {
	n   int
	raw string
}

// ParseError is a line the importer could not read.
type ParseError struct {
	File string
	Line int
	Text string
	Why  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %q (is this YCSB output? see the import-ycsb help for the formats read)", e.File, e.Line, e.Why, truncate(e.Text, 120))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

var (
	// quotePrefix is mail quoting ("> ", ">> ", "> > ") and indentation.
	quotePrefix = regexp.MustCompile(`^[\s>|]*`)
	percentile  = regexp.MustCompile(`^(\d+(?:\.\d+)?)(?:st|nd|rd|th)?PercentileLatency\((us|ms)\)$`)
	latencyStat = regexp.MustCompile(`^(Average|Min|Max)Latency\((us|ms)\)$`)
	bucketLabel = regexp.MustCompile(`^>?\d+$`)
	// opName is what YCSB names a measurement: READ, READ-MODIFY-WRITE,
	// Intended-UPDATE, a binding's own (READ-NOT_FOUND). Anything else in
	// brackets (spaces, markup) would reach every report as it is.
	opName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`)
)

// maxLine bounds one line so a binary file cannot make the scanner grow without limit.
const maxLine = 1 << 20

// ParseText reads YCSB text output (any version from 0.1.0 on). name labels
// errors. Lines outside the measurement block (status lines, the command
// line, client logs) are skipped; a measurement line it cannot read is an
// error naming the file and line, and so are figures that contradict each
// other (a label given twice in one run, latencies of no operation, more
// statuses than operations). A file holding several runs (a load phase then
// a run phase, say) yields one Run each. A UTF-8 byte order mark is skipped;
// UTF-16 text is refused saying to convert it.
func ParseText(name string, r io.Reader) ([]*Run, error) {
	br := bufio.NewReader(r)
	if enc := utf16Encoding(br); enc != "" {
		return nil, fmt.Errorf("%s: the file is %s text, not UTF-8 (Windows PowerShell's `>` writes it so): convert it to UTF-8 first, e.g. `iconv -f UTF-16 -t UTF-8 %s > ycsb-utf8.txt`, and import that", name, enc, shellWord(name))
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var runs []*Run
	var cur *Run
	noSpace, intCodes, msPct, usAvg := false, false, false, false
	finish := func() error {
		if cur == nil {
			return nil
		}
		cur.Format = Format04
		switch {
		case msPct && usAvg:
			cur.Format = Format014
		case intCodes || msPct:
			cur.Format = Format010
		}
		if noSpace {
			cur.Format = Format010
		}
		if err := cur.finish(); err != nil {
			return err
		}
		runs = append(runs, cur)
		cur = nil
		noSpace, intCodes, msPct, usAvg = false, false, false, false
		return nil
	}
	n := 0
	for sc.Scan() {
		n++
		// A UTF-8 byte order mark (Windows editors write one; files joined
		// with cat carry one per part) is no part of the line.
		raw := strings.TrimPrefix(sc.Text(), "\ufeff")
		line := strings.TrimSpace(quotePrefix.ReplaceAllString(raw, ""))
		if !strings.HasPrefix(line, "[") {
			continue // status lines, banners, client logs: not measurements
		}
		perr := func(why string) error { return &ParseError{File: name, Line: n, Text: raw, Why: why} }
		end := strings.Index(line, "]")
		if end < 0 {
			return nil, perr("measurement line without a closing ']'")
		}
		block := line[1:end]
		rest := line[end+1:]
		if !strings.HasPrefix(rest, ",") {
			// "[main] INFO ..." log lines are not measurements; a known
			// measurement name without its comma is a damaged line.
			if !isMeasurementName(block) {
				continue
			}
			return nil, perr("expected ',' after the [" + block + "] name")
		}
		fields := strings.Split(rest[1:], ",")
		if len(fields) != 2 {
			return nil, perr("expected [NAME], label, value")
		}
		if !strings.HasPrefix(rest[1:], " ") && block == "OVERALL" {
			noSpace = true
		}
		label, valText := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
		if label == "" || valText == "" {
			return nil, perr("empty label or value")
		}
		val, err := strconv.ParseFloat(valText, 64)
		if err != nil {
			return nil, perr("value is not a number")
		}
		if block == "OVERALL" {
			if label == "RunTime(ms)" && cur != nil && (cur.RunTimeMillis != 0 || len(cur.Ops) > 0) {
				if err := finish(); err != nil {
					return nil, err
				}
			}
		}
		if cur == nil {
			cur = &Run{File: name, Line: n, Ops: map[string]*Op{}, GC: map[string]float64{}}
		}
		switch {
		case block == "OVERALL":
			switch label {
			case "RunTime(ms)":
				if !finite(val) || val < 0 {
					return nil, perr("run time must be a non-negative number")
				}
				cur.RunTimeMillis = int64(val)
			case "Throughput(ops/sec)":
				if !finite(val) || val < 0 || val > maxPlausible {
					return nil, perr("throughput must be a non-negative number of ops/sec")
				}
				if cur.tputLine.n > 0 {
					return nil, perr(fmt.Sprintf("[OVERALL] Throughput(ops/sec) is given a second time in this run (first at line %d: %q): which one is the run's? import each run's output as YCSB printed it", cur.tputLine.n, truncate(strings.TrimSpace(cur.tputLine.raw), 80)))
				}
				cur.ThroughputOpsPerSec = val
				cur.tputLine = srcLine{n, raw}
			default:
				return nil, perr("unknown [OVERALL] figure")
			}
		case strings.HasPrefix(block, "TOTAL_GC"):
			if finite(val) {
				cur.GC[block+" "+label] = val
			}
		default:
			if len(block) > 64 || !opName.MatchString(block) {
				return nil, perr(fmt.Sprintf("[%s] is no measurement name YCSB prints (letters, digits, '-', '_', '.' and '+', as in [READ-MODIFY-WRITE]): the output is damaged or not YCSB's", truncate(block, 40)))
			}
			if base, ok := strings.CutPrefix(block, "Intended-"); ok && (base == "" || strings.HasPrefix(base, "Intended-")) {
				// Routed as READ's intended latencies' own intended ones, its
				// figures would stand in for READ's: YCSB prints no such block.
				return nil, perr(fmt.Sprintf("[%s] is no block YCSB prints: an Intended- block measures one operation, as [Intended-READ] does; the output is damaged: fix the file or import YCSB's original output", truncate(block, 40)))
			}
			op := cur.op(block)
			key := figureKey(label)
			if first, ok := op.seen[key]; ok {
				return nil, perr(fmt.Sprintf("[%s] %s is given a second time in this run (first at line %d): %q, then this line: the same figure twice (spelt alike or not), or two runs' output pasted together without the second one's [OVERALL] lines? import each run's output as YCSB printed it", block, label, first.n, truncate(strings.TrimSpace(first.raw), 80)))
			}
			op.seen[key] = srcLine{n, raw}
			why, kind := op.set(label, val)
			if why != "" {
				return nil, perr(why)
			}
			op.note(label, val, srcLine{n, raw})
			switch kind {
			case kindFractional:
				cur.Notes = append(cur.Notes, fmt.Sprintf("line %d: [%s] %s %s is not a whole number (an average of several runs?): counted as %d",
					n, block, label, valText, int64(math.Round(val))))
			case kindIntCode:
				intCodes = true
			case kindPctMs:
				msPct = true
			case kindAvgUs:
				usAvg = true
			case kindDropped:
				cur.Notes = append(cur.Notes, fmt.Sprintf("line %d: [%s] %s %s is not a usable latency: left unreported", n, block, label, valText))
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: the line is longer than %d MiB, the most one line may hold: this is not YCSB text output (a binary file or one without line breaks?); pass the file YCSB printed at the end of a run", name, n+1, maxLine>>20)
		}
		return nil, fmt.Errorf("%s:%d: read: %w", name, n+1, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no YCSB measurements found (no [OVERALL] or [OPERATION] lines); pass the file YCSB printed at the end of a run", name)
	}
	for _, r := range runs {
		if len(r.Ops) == 0 {
			return nil, fmt.Errorf("%s:%d: this run has only [OVERALL] figures, no operation measurements ([READ], [UPDATE], ...): pass the whole output YCSB printed at the end of the run", name, r.Line)
		}
		if !slices.ContainsFunc(r.OpNames(), func(n string) bool { return n != "CLEANUP" }) {
			// The client's teardown is no operation of the workload: stored,
			// the run would be a summary of nothing.
			return nil, fmt.Errorf("%s:%d: this run measured only [CLEANUP] (the client's teardown), no operation of the workload ([READ], [UPDATE], ...): pass the whole output YCSB printed at the end of the run", name, r.Line)
		}
	}
	return runs, nil
}

// figureKey names the figure a label gives, whatever its spelling: 50th and
// 50.0th percentiles are one figure, and so are an average in µs and in ms.
func figureKey(label string) string {
	if m := percentile.FindStringSubmatch(label); m != nil {
		p, _ := strconv.ParseFloat(m[1], 64)
		return "percentile " + strconv.FormatFloat(p, 'f', -1, 64)
	}
	if m := latencyStat.FindStringSubmatch(label); m != nil {
		return m[1] + "Latency"
	}
	if m := bucketLabel.FindString(label); m != "" {
		if b, err := strconv.Atoi(strings.TrimPrefix(label, ">")); err == nil {
			return strings.Repeat(">", len(label)-len(strings.TrimLeft(label, ">"))) + "bucket " + strconv.Itoa(b)
		}
	}
	return label
}

// isMeasurementName reports whether a bracket name is one YCSB prints measurements under.
func isMeasurementName(block string) bool {
	if block == "OVERALL" || strings.HasPrefix(block, "TOTAL_GC") {
		return true
	}
	block = strings.TrimPrefix(block, "Intended-")
	block = strings.TrimSuffix(block, "-FAILED")
	for _, k := range knownOps {
		if block == k {
			return true
		}
	}
	return false
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// op returns the Op for a bracket name, routing "Intended-READ" to READ's Intended.
func (r *Run) op(block string) *Op {
	if base, ok := strings.CutPrefix(block, "Intended-"); ok {
		o := r.op(base)
		if o.Intended == nil {
			o.Intended = newOp()
		}
		return o.Intended
	}
	o := r.Ops[block]
	if o == nil {
		o = newOp()
		r.Ops[block] = o
	}
	return o
}

func newOp() *Op {
	return &Op{Statuses: map[string]int64{}, PercentilesMicros: map[float64]float64{}, BucketsMillis: map[int]int64{}, seen: map[string]srcLine{}}
}

type lineKind int

const (
	kindOther lineKind = iota
	kindIntCode
	kindPctMs
	kindAvgUs
	kindFractional // a count that was not whole: rounded
	kindDropped    // a latency that is no figure (NaN, infinite, absurd): not stored, noted
)

// maxPlausible bounds a latency in microseconds (about 31 years) or a
// throughput in ops/s: beyond it a value is damage, not a measurement.
const maxPlausible = 1e15

// set applies one "label, value" pair; it returns why the pair is unreadable, or "".
func (o *Op) set(label string, v float64) (string, lineKind) {
	count := func() (int64, string) {
		if !finite(v) || v < 0 || v != math.Trunc(v) || v > math.MaxInt64/2 {
			return 0, "a count must be a whole non-negative number"
		}
		return int64(v), ""
	}
	// Vote threads post the average of several runs, so an operation or
	// status count may be fractional ("Operations, 4998792.667"): it is
	// rounded, and the caller notes it.
	avgCount := func() (int64, string) {
		if !finite(v) || v < 0 || v > math.MaxInt64/2 {
			return 0, "a count must be a non-negative number"
		}
		return int64(math.Round(v)), ""
	}
	switch {
	case label == "Operations":
		c, why := avgCount()
		o.Count, o.OperationsReported = c, v
		if why == "" && v != math.Trunc(v) {
			return "", kindFractional
		}
		return why, kindOther
	case strings.HasPrefix(label, "Return="):
		c, why := avgCount()
		if why != "" {
			return why, kindOther
		}
		code := strings.TrimPrefix(label, "Return=")
		kind := kindOther
		if n, err := strconv.Atoi(code); err == nil {
			// 0.1.x printed integer return codes: 0 was success.
			kind = kindIntCode
			code = "ERROR"
			if n == 0 {
				code = "OK"
			}
		}
		if code == "" {
			return "empty Return= status", kindOther
		}
		o.Statuses[code] += c
		if kind == kindOther && v != math.Trunc(v) {
			kind = kindFractional
		}
		return "", kind
	}
	if m := latencyStat.FindStringSubmatch(label); m != nil {
		if v < 0 {
			return "a latency cannot be negative", kindOther
		}
		if !finite(v) || v > maxPlausible {
			// YCSB prints NaN and Long.MAX for an operation that never ran:
			// placeholders; for one that ran, say the figure is lost.
			if o.Count == 0 {
				return "", kindOther
			}
			return "", kindDropped
		}
		us := toMicros(v, m[2])
		switch m[1] {
		case "Average":
			o.MeanMicros = us
		case "Min":
			o.MinMicros = us
		case "Max":
			o.MaxMicros = us
		}
		if m[2] == "us" {
			return "", kindAvgUs
		}
		return "", kindOther
	}
	if m := percentile.FindStringSubmatch(label); m != nil {
		p, _ := strconv.ParseFloat(m[1], 64)
		if p <= 0 || p > 100 {
			return "percentile out of range", kindOther
		}
		if v < 0 {
			return "a latency cannot be negative", kindOther
		}
		if !finite(v) || v > maxPlausible {
			if o.Count == 0 {
				return "", kindOther
			}
			return "", kindDropped
		}
		o.PercentilesMicros[p] = toMicros(v, m[2])
		if m[2] == "ms" {
			if v == 0 {
				// Whole milliseconds: 0 means below 1 ms, a figure, not an absence.
				if o.BelowMicros == nil {
					o.BelowMicros = map[float64]float64{}
				}
				o.BelowMicros[p] = 1000
			}
			return "", kindPctMs
		}
		return "", kindOther
	}
	if bucketLabel.MatchString(label) {
		if v != math.Trunc(v) {
			// measurementtype=timeseries prints "[OP], <ms offset>, <avg latency>": not a bucket.
			return "", kindOther
		}
		c, why := count()
		if why != "" {
			return why, kindOther
		}
		if strings.HasPrefix(label, ">") {
			o.OverflowCount += c
			return "", kindOther
		}
		b, err := strconv.Atoi(label)
		if err != nil || float64(b)*1000 > maxPlausible {
			return "bucket index out of range: a 1 ms bucket of YCSB's histogram counts latencies of that many milliseconds, never this many", kindOther
		}
		o.BucketsMillis[b] += c
		return "", kindOther
	}
	return "unknown measurement label " + strconv.Quote(label), kindOther
}

func toMicros(v float64, unit string) float64 {
	if !finite(v) || v < 0 || v > maxPlausible {
		return 0 // refused or noted by the caller
	}
	if unit == "ms" {
		return v * 1000
	}
	return v
}

// finish checks the run's counts against each other and derives what the
// text left out: percentiles from 1 ms buckets.
func (r *Run) finish() error {
	// What each operation's failure blocks count, found once: asked per
	// operation of every other, it cost the cube of the operation types
	// (1000 types: 49 s for a 56 KB file).
	failed := map[string]float64{}
	for other, f := range r.Ops {
		if base := r.failureOf(other); base != "" {
			failed[base] += f.OperationsReported
		}
	}
	for _, name := range r.OpNames() {
		o := r.Ops[name]
		if err := r.checkCounts(name, o, failed[name]); err != nil {
			return err
		}
		if err := r.checkOrder(name, o); err != nil {
			return err
		}
		if o.Intended != nil {
			if err := r.checkCounts("Intended-"+name, o.Intended, failed["Intended-"+name]); err != nil {
				return err
			}
			if err := r.checkOrder("Intended-"+name, o.Intended); err != nil {
				return err
			}
		}
		o.fromBuckets()
		if o.Intended != nil {
			o.Intended.fromBuckets()
		}
	}
	return r.checkThroughput()
}

// note records what checkCounts needs of one line set() accepted.
func (o *Op) note(label string, v float64, at srcLine) {
	switch {
	case label == "Operations":
		o.opsLine = at
	case strings.HasPrefix(label, "Return="):
		o.statusSum += v
		o.statusLine = at
		code := strings.TrimPrefix(label, "Return=")
		if okStatuses[code] || code == "0" {
			o.okSum += v
			o.okLine = at
		}
	case latencyStat.MatchString(label) || percentile.MatchString(label):
		if o.latLine.n == 0 && finite(v) && v > 0 && v <= maxPlausible {
			o.latLine = at
		}
		if m := percentile.FindStringSubmatch(label); m != nil {
			p, _ := strconv.ParseFloat(m[1], 64)
			if o.pctLines == nil {
				o.pctLines = map[float64]srcLine{}
			}
			o.pctLines[p] = at
			if m[2] == "ms" {
				if o.pctMs == nil {
					o.pctMs = map[float64]bool{}
				}
				o.pctMs[p] = true
			}
		} else if m := latencyStat.FindStringSubmatch(label); m != nil {
			switch m[1] {
			case "Min":
				o.minLine = at
			case "Max":
				o.maxLine = at
			case "Average":
				o.meanLine = at
			}
			if m[2] == "ms" {
				if o.statMs == nil {
					o.statMs = map[string]bool{}
				}
				o.statMs[m[1]] = true
			}
		}
	case bucketLabel.MatchString(label):
		if o.latLine.n == 0 && v > 0 && v == math.Trunc(v) {
			o.latLine = at
		}
		if v == math.Trunc(v) {
			o.bucketSum += v
			if v > 0 {
				o.bucketLine = at
			}
		}
	}
}

// checkCounts refuses an operation whose figures contradict its
// Operations count, which YCSB never prints: a latency of no operation
// (its Operations line damaged, and the latencies would be dropped), more
// successes than operations, or more statuses than its operations and its
// failures (the X-FAILED blocks) together.
func (r *Run) checkCounts(name string, o *Op, failed float64) error {
	perr := func(at srcLine, why string) error {
		return &ParseError{File: r.File, Line: at.n, Text: at.raw, Why: why}
	}
	ops, opsLine := o.OperationsReported, o.opsLine
	if opsLine.n == 0 && o.Intended != nil && o.Intended.opsLine.n > 0 {
		// Without an Operations line of its own the operation counts what its
		// Intended- block counts (Trial takes it from there): its statuses
		// answer to that count.
		ops, opsLine = o.Intended.OperationsReported, o.Intended.opsLine
	}
	if opsLine.n == 0 {
		if o.latLine.n == 0 {
			return nil // nothing measured: nothing to check against
		}
		// Latencies of an unknown number of operations: stored as count 0
		// they would be dropped as an operation that never ran. The
		// statuses count them when given; else the file is refused.
		if o.statusLine.n > 0 && o.statusSum > 0 {
			o.Count, o.OperationsReported = int64(math.Round(o.statusSum)), o.statusSum
			r.Notes = append(r.Notes, fmt.Sprintf("[%s] has no Operations line: counted %d operations from its Return= lines (line %d)", name, o.Count, o.statusLine.n))
			return nil
		}
		return perr(o.latLine, fmt.Sprintf("[%s] gives latencies but no Operations line (nor Return= counts): how many operations they measure is unknown; fix the file or import YCSB's original output", name))
	}
	if o.opsLine.n > 0 && o.Count == 0 && o.latLine.n > 0 {
		return perr(o.latLine, fmt.Sprintf("[%s] gives a latency, but its Operations (line %d) is %s: one of the two is damaged; fix the file or import YCSB's original output", name, o.opsLine.n, strconv.FormatFloat(ops, 'f', -1, 64)))
	}
	// Averages of several runs are fractional: half an operation is slack, not damage.
	if o.okSum > ops+0.5 {
		return perr(o.okLine, fmt.Sprintf("[%s] counts more successful operations than its Operations, %s (line %d): the output is damaged or two runs were pasted together; import each run's output as YCSB printed it", name, strconv.FormatFloat(ops, 'f', -1, 64), opsLine.n))
	}
	if o.bucketSum > ops+0.5 {
		return perr(o.bucketLine, fmt.Sprintf("[%s]'s histogram buckets count %s operations, more than its Operations, %s (line %d): the output is damaged or two runs were pasted together; import each run's output as YCSB printed it",
			name, strconv.FormatFloat(o.bucketSum, 'f', -1, 64), strconv.FormatFloat(ops, 'f', -1, 64), opsLine.n))
	}
	if o.statusSum > ops+failed+0.5 {
		return perr(o.statusLine, fmt.Sprintf("[%s]'s Return= lines count %s operations, more than its Operations, %s (line %d), and its failures' blocks (%s) together: the output is damaged or two runs were pasted together; import each run's output as YCSB printed it",
			name, strconv.FormatFloat(o.statusSum, 'f', -1, 64), strconv.FormatFloat(ops, 'f', -1, 64), opsLine.n, strconv.FormatFloat(failed, 'f', -1, 64)))
	}
	return nil
}

// checkOrder refuses latencies that contradict each other, which no YCSB
// prints (nor an average of several runs): a higher percentile below a
// lower one, or a maximum below the minimum. Stored, the report would show
// a p99 under the median as a measurement.
func (r *Run) checkOrder(name string, o *Op) error {
	perr := func(at srcLine, why string) error {
		return &ParseError{File: r.File, Line: at.n, Text: at.raw, Why: why}
	}
	ps := slices.Sorted(maps.Keys(o.PercentilesMicros))
	for i := 1; i < len(ps); i++ {
		lo, hi := ps[i-1], ps[i]
		below := o.PercentilesMicros[hi] < o.PercentilesMicros[lo]
		if o.pctMs[hi] {
			// Whole milliseconds: 0 is below 1 ms, 2 below 3 ms.
			below = o.PercentilesMicros[hi]+1000 <= o.PercentilesMicros[lo]
		}
		if below {
			return perr(o.pctLines[hi], fmt.Sprintf("[%s]'s %s percentile, %s µs, is below its %s percentile, %s µs (line %d): a latency percentile never falls as the percentile rises; the output is damaged: fix the file or import YCSB's original output",
				name, fmtPct(hi), fmtFloat(o.PercentilesMicros[hi]), fmtPct(lo), fmtFloat(o.PercentilesMicros[lo]), o.pctLines[lo].n))
		}
	}
	if o.MinMicros > 0 && o.MaxMicros > 0 && o.MaxMicros < o.MinMicros {
		return perr(o.maxLine, fmt.Sprintf("[%s]'s maximum latency, %s µs, is below its minimum, %s µs (line %d): the output is damaged: fix the file or import YCSB's original output",
			name, fmtFloat(o.MaxMicros), fmtFloat(o.MinMicros), o.minLine.n))
	}
	if o.MinMicros > 0 {
		// No percentile lies below the minimum; either printed in whole
		// milliseconds is a floor, up to 1 ms below its true value.
		for _, p := range ps {
			slack := 0.0
			if o.pctMs[p] {
				slack = 1000
			}
			if v := o.PercentilesMicros[p]; v+slack < o.MinMicros {
				return perr(o.minLine, fmt.Sprintf("[%s]'s minimum latency, %s µs, is above its %s percentile, %s µs (line %d): no latency falls below the minimum; the output is damaged: fix the file or import YCSB's original output",
					name, fmtFloat(o.MinMicros), fmtPct(p), fmtFloat(v), o.pctLines[p].n))
			}
		}
	}
	if o.MaxMicros > 0 {
		// A printed percentile is at most its true value (whole
		// milliseconds are floors), and the true value at most the maximum.
		for _, p := range ps {
			if v := o.PercentilesMicros[p]; v > o.MaxMicros {
				return perr(o.maxLine, fmt.Sprintf("[%s]'s maximum latency, %s µs, is below its %s percentile, %s µs (line %d): no latency exceeds the maximum; the output is damaged: fix the file or import YCSB's original output",
					name, fmtFloat(o.MaxMicros), fmtPct(p), fmtFloat(v), o.pctLines[p].n))
			}
		}
	}
	// Whole milliseconds are floors: 1 ms of slack when either side was
	// printed in them.
	slack := 0.0
	if o.statMs["Average"] || o.statMs["Max"] || o.statMs["Min"] {
		slack = 1000
	}
	if o.MeanMicros > 0 && o.MaxMicros > 0 && o.MeanMicros > o.MaxMicros+slack {
		return perr(o.meanLine, fmt.Sprintf("[%s]'s average latency, %s µs, is above its maximum, %s µs (line %d): an average never exceeds the maximum; the output is damaged: fix the file or import YCSB's original output",
			name, fmtFloat(o.MeanMicros), fmtFloat(o.MaxMicros), o.maxLine.n))
	}
	if o.MeanMicros > 0 && o.MinMicros > 0 && o.MeanMicros+slack < o.MinMicros {
		return perr(o.meanLine, fmt.Sprintf("[%s]'s average latency, %s µs, is below its minimum, %s µs (line %d): an average never falls below the minimum; the output is damaged: fix the file or import YCSB's original output",
			name, fmtFloat(o.MeanMicros), fmtFloat(o.MinMicros), o.minLine.n))
	}
	return nil
}

// checkThroughput refuses a throughput the run could not have had: YCSB
// prints its operations over its run time, so the two must roughly agree
// (within a factor of 2: averages of several runs, rounding) with the
// operations the run counts.
func (r *Run) checkThroughput() error {
	if r.tputLine.n == 0 || r.RunTimeMillis < 1000 || r.ThroughputOpsPerSec <= 0 {
		return nil
	}
	// A READ-MODIFY-WRITE is one operation that YCSB also measures as
	// its READ and its UPDATE.
	var total float64
	for name, o := range r.Ops {
		switch name {
		case "CLEANUP":
		case "READ-MODIFY-WRITE":
			total -= o.OperationsReported
		default:
			total += o.OperationsReported
		}
	}
	if total < 100 {
		return nil
	}
	implied := r.ThroughputOpsPerSec * float64(r.RunTimeMillis) / 1000
	if implied > 2*total || implied < total/2 {
		return &ParseError{File: r.File, Line: r.tputLine.n, Text: r.tputLine.raw, Why: fmt.Sprintf("a throughput of %s ops/s over the run's %d ms is %.0f operations, but its blocks count %.0f: YCSB prints the operations over the run time, so the figures contradict each other; the output is damaged: fix the file or import YCSB's original output",
			fmtFloat(r.ThroughputOpsPerSec), r.RunTimeMillis, implied, total)}
	}
	return nil
}

func fmtPct(p float64) string   { return strconv.FormatFloat(p, 'f', -1, 64) + "th" }
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// failureOf names the operation a block measures the failures of
// ("READ-FAILED", or "READ-NOT_FOUND" with reportlatencyforeacherror), or
// "" when it is an operation of its own: X-FAILED is X's, else the longest
// other operation of the run it extends, READ-MODIFY-WRITE being YCSB's own name.
func (r *Run) failureOf(name string) string {
	if slices.Contains(knownOps, name) {
		return ""
	}
	if base, ok := strings.CutSuffix(name, "-FAILED"); ok && base != "" {
		// YCSB's own name for every failure: READ-MODIFY-WRITE-FAILED is
		// READ-MODIFY-WRITE's, even in a run where it never succeeded.
		return base
	}
	// The longest operation of the run name extends: its prefixes before
	// each '-', from the end.
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '-' {
			if _, ok := r.Ops[name[:i]]; ok {
				return name[:i]
			}
		}
	}
	return ""
}

// utf16Encoding names the encoding of text that starts as UTF-16 does
// (a byte order mark, or ASCII with every other byte zero), or "".
// shellWord quotes a file name for a command the user may paste.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func utf16Encoding(br *bufio.Reader) string {
	b, _ := br.Peek(4)
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return "UTF-16 (little-endian)"
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return "UTF-16 (big-endian)"
	case len(b) == 4 && b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0:
		return "UTF-16 (little-endian)"
	case len(b) == 4 && b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0:
		return "UTF-16 (big-endian)"
	}
	return ""
}

// fromBuckets fills p50/p95/p99/p99.9 from the 1 ms buckets YCSB's histogram
// type printed, the way YCSB itself reads them (the bucket's lower bound),
// when the text did not print that percentile.
func (o *Op) fromBuckets() {
	var total int64
	idx := make([]int, 0, len(o.BucketsMillis))
	for b, c := range o.BucketsMillis {
		total += c
		idx = append(idx, b)
	}
	total += o.OverflowCount
	if total == 0 {
		return
	}
	sort.Ints(idx)
	for _, p := range []float64{50, 95, 99, 99.9} {
		if _, ok := o.PercentilesMicros[p]; ok {
			continue
		}
		want := p / 100 * float64(total)
		var cum int64
		for _, b := range idx {
			cum += o.BucketsMillis[b]
			if float64(cum) >= want {
				o.PercentilesMicros[p] = float64(b) * 1000
				if b == 0 {
					// Bucket 0 holds latencies below 1 ms: a figure, known
					// only by its bound (as a 0 printed in whole ms).
					if o.BelowMicros == nil {
						o.BelowMicros = map[float64]float64{}
					}
					o.BelowMicros[p] = 1000
				}
				break
			}
		}
		// Beyond the last bucket the value is only known to exceed it: leave it unreported.
	}
}
