package ycsbfmt

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Status prints YCSB's -s status lines:
//
//	2026-11-30 18:00:10:004 10 sec: 5000 operations; 500.1 current ops/sec; est completion in 10 seconds [READ: Count=5000, Max=..., Min=..., Avg=..., 50=..., 90=..., 99=..., 99.9=..., 99.99=...]
//
// The per-measurement figures cover the interval since the previous line, as
// YCSB's hdrhistogram measurement reports them. Feed it interval histograms
// with Add and ask for a line with Print; it is not safe for concurrent use.
type Status struct {
	w     io.Writer
	label string
	start time.Time
	total int64 // operations the phase will do; 0 when only a time limit ends it

	names []string // measurement names, op ones first, each group in first-seen order; once seen, always printed
	acc   map[string]*hdr.Histogram

	lastOps  int64
	lastTime time.Time
	err      error
}

// NewStatus prints status lines to w, prefixed by label (YCSB's -l), timed
// from start, estimating completion against total operations (0: unknown).
func NewStatus(w io.Writer, label string, start time.Time, total int64) *Status {
	return &Status{w: w, label: label, start: start, total: total, acc: map[string]*hdr.Histogram{}, lastTime: start}
}

// Add merges an interval histogram of measurement name into the figures of the next line.
func (s *Status) Add(name string, h *hdr.Histogram) {
	a, ok := s.acc[name]
	if !ok {
		a = hdr.New(1, 60_000_000, 3)
		s.acc[name] = a
		// YCSB lists the op measurements, then the Intended- ones.
		at := len(s.names)
		if !strings.HasPrefix(name, IntendedPrefix) {
			for i, n := range s.names {
				if strings.HasPrefix(n, IntendedPrefix) {
					at = i
					break
				}
			}
		}
		s.names = slices.Insert(s.names, at, name)
	}
	a.Merge(h)
}

// Print writes one status line for now, when ops operations are done, and
// starts the next interval. The first write error is kept and returned by Err.
func (s *Status) Print(now time.Time, ops int64) {
	line := s.Line(now, ops)
	for _, n := range s.names {
		s.acc[n].Reset()
	}
	s.lastOps, s.lastTime = ops, now
	if s.err == nil {
		if _, err := io.WriteString(s.w, line+"\n"); err != nil {
			s.err = fmt.Errorf("write status line: %w", err)
		}
	}
}

// Err returns the first error writing a status line.
func (s *Status) Err() error { return s.err }

// Line formats the status line for now and ops without starting a new interval.
func (s *Status) Line(now time.Time, ops int64) string {
	var b strings.Builder
	b.WriteString(s.label)
	b.WriteString(now.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, ":%03d ", now.Nanosecond()/int(time.Millisecond))
	elapsedMs := now.Sub(s.start).Milliseconds()
	fmt.Fprintf(&b, "%d sec: %d operations; ", elapsedMs/1000, ops)
	if ops != 0 {
		cur := 0.0
		if ms := now.Sub(s.lastTime).Milliseconds(); ms > 0 {
			cur = 1000 * float64(ops-s.lastOps) / float64(ms)
		}
		b.WriteString(decimal2(cur) + " current ops/sec; ")
	}
	if todo := s.total - ops; s.total > 0 && todo > 0 {
		// YCSB divides by the rate so far; before the first operation that is
		// 0/0, which Java turns into 0 seconds.
		var secs int64
		if elapsedMs > 0 && ops > 0 {
			secs = int64(math.Ceil(float64(todo) / (1000 * float64(ops) / float64(elapsedMs))))
		}
		b.WriteString("est completion in " + remaining(secs))
	}
	for _, n := range s.names {
		h := s.acc[n]
		fmt.Fprintf(&b, "[%s: Count=%d, Max=%d, Min=%d, Avg=%s, 50=%d, 90=%d, 99=%d, 99.9=%d, 99.99=%d] ",
			n, h.TotalCount(), h.Max(), minOf(h), decimal2(h.Mean()),
			h.ValueAtQuantile(50), h.ValueAtQuantile(90), h.ValueAtQuantile(99), h.ValueAtQuantile(99.9), h.ValueAtQuantile(99.99))
	}
	return strings.TrimRight(b.String(), " ")
}

// decimal2 formats like Java's DecimalFormat("#.##"): at most two decimals,
// no trailing zeros, no decimal point for whole numbers.
func decimal2(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// remaining formats an estimate the way YCSB's RemainingFormatter does:
// days and hours, minutes below a day, seconds only below a minute. Like
// YCSB it says "second" after a single-digit count ("5 second"), so lines
// read the same as YCSB's.
func remaining(secs int64) string {
	var b strings.Builder
	plural := func(n int64, one, many string) {
		b.WriteString(strconv.FormatInt(n, 10))
		if n == 1 {
			b.WriteString(one)
		} else {
			b.WriteString(many)
		}
	}
	days := secs / 86400
	if days > 0 {
		plural(days, " day ", " days ")
		secs -= days * 86400
	}
	if hours := secs / 3600; hours > 0 {
		plural(hours, " hour ", " hours ")
		secs -= hours * 3600
	}
	if days < 1 {
		if minutes := secs / 60; minutes > 0 {
			plural(minutes, " minute ", " minutes ")
		}
	}
	if b.Len() == 0 {
		n := strconv.FormatInt(secs, 10)
		if len(n) == 1 {
			return n + " second "
		}
		return n + " seconds "
	}
	return b.String()
}
