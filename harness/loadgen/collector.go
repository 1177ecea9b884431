package loadgen

import (
	"fmt"
	"io"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/workload"
)

// hists holds a histogram per op, outcome and kind, allocated on first use.
type hists = [workload.NumOps][numOutcomes][numKinds]*hdr.Histogram

// collector merges the workers' intervals on every tick into the run's totals,
// writes each tick's histograms to the interval log, and keeps the figures the
// progress callback shows. It runs on one goroutine.
type collector struct {
	recs []*workerRecorder

	total    hists          // the measurement window so far
	tick     hists          // this tick, written to the log
	tickAll  *hdr.Histogram // intended latency of all ops this tick
	status   [workload.NumOps][numStatuses]int64
	lateness *hdr.Histogram

	slots, warmupSlots, empty, clamped, invalid int64
	lastEnd                                     time.Time

	log     *hdr.HistogramLogWriter
	logErr  error
	lastLog time.Time // end of the last interval written
}

func newCollector(recs []*workerRecorder) *collector {
	return &collector{recs: recs, tickAll: newHistogram(), lateness: newHistogram()}
}

// startLog writes the interval log's headers; interval timestamps are then
// relative to measureStart, which is the log's StartTime and BaseTime.
func (c *collector) startLog(w io.Writer, measureStart time.Time, comment string) {
	if w == nil {
		return
	}
	c.log = hdr.NewHistogramLogWriter(w)
	ms := measureStart.UnixMilli()
	c.log.SetBaseTime(ms)
	c.lastLog = measureStart
	// hdrhistogram-go's OutputStartTime/OutputBaseTime print whole seconds, which
	// would shift every interval by up to a second on reading back; Java's
	// HdrHistogram prints milliseconds (%.3f), so these headers are written the same way.
	secs := fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
	iso := measureStart.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, f := range []func() error{
		c.log.OutputLogFormatVersion,
		func() error { return c.log.OutputComment(comment) },
		func() error {
			return c.log.OutputComment("[StartTime: " + secs + " (seconds since epoch), " + iso + "]")
		},
		func() error { return c.log.OutputComment("[BaseTime: " + secs + " (seconds since epoch)]") },
		c.log.OutputLegend,
	} {
		if err := f(); err != nil {
			c.logErr = fmt.Errorf("write interval log header: %w", err)
			return
		}
	}
}

// tickFigures is what one collection saw, for progress.
type tickFigures struct {
	slots, warmupSlots int64
	p99Intended        time.Duration
}

// collect swaps out every worker's interval and merges it. now closes the
// tick's interval in the log.
func (c *collector) collect(now time.Time) tickFigures {
	var f tickFigures
	for _, r := range c.recs {
		iv := r.swap()
		for _, sm := range iv.samples {
			h := &c.tick[sm.op][sm.outcome]
			if h[Intended] == nil {
				h[Intended], h[Service] = newHistogram(), newHistogram()
			}
			// Values are clamped into range, so RecordValue cannot fail.
			_ = h[Intended].RecordValue(sm.intended)
			_ = h[Service].RecordValue(sm.service)
			_ = c.tickAll.RecordValue(sm.intended)
		}
		for _, l := range iv.lateness {
			_ = c.lateness.RecordValue(l)
		}
		for o := range iv.status {
			for s, n := range iv.status[o] {
				c.status[o][s] += n
			}
		}
		f.slots += iv.slots
		f.warmupSlots += iv.warmupSlots
		c.empty += iv.empty
		c.clamped += iv.clamped
		c.invalid += iv.invalid
		if iv.lastEnd.After(c.lastEnd) {
			c.lastEnd = iv.lastEnd
		}
		iv.reset()
	}
	c.slots += f.slots
	c.warmupSlots += f.warmupSlots
	f.p99Intended = time.Duration(c.tickAll.ValueAtQuantile(99)) * time.Microsecond
	c.tickAll.Reset()

	writeLog := c.log != nil && c.logErr == nil && now.After(c.lastLog)
	for o := range c.tick {
		for oc := range c.tick[o] {
			for k, h := range c.tick[o][oc] {
				if h == nil || h.TotalCount() == 0 {
					continue
				}
				if c.total[o][oc][k] == nil {
					c.total[o][oc][k] = newHistogram()
				}
				c.total[o][oc][k].Merge(h)
				if writeLog {
					h.SetTag(Tag(Outcome(oc).Name(workload.Op(o)), Kind(k)))
					h.SetStartTimeMs(c.lastLog.UnixMilli())
					h.SetEndTimeMs(now.UnixMilli())
					if err := c.log.OutputIntervalHistogram(h); err != nil {
						c.logErr = fmt.Errorf("write interval log: %w", err)
						writeLog = false
					}
				}
				h.Reset()
			}
		}
	}
	if writeLog {
		c.lastLog = now
	}
	return f
}

// result fills the per-op part of r from the merged totals.
func (c *collector) result(r *Result) {
	for o := range c.total {
		if c.status[o] == [numStatuses]int64{} {
			continue
		}
		t := &c.total[o]
		or := &OpResult{Op: workload.Op(o), Statuses: c.status[o],
			Intended: orEmpty(t[Succeeded][Intended]), Service: orEmpty(t[Succeeded][Service]),
			FailedIntended: orEmpty(t[Failed][Intended]), FailedService: orEmpty(t[Failed][Service])}
		r.PerOp[o] = or
	}
	r.Lateness = c.lateness
	r.Ops = c.slots
	r.WarmupOps = c.warmupSlots
	r.Empty = c.empty
	r.Clamped = c.clamped
	r.Invalid = c.invalid
}

func orEmpty(h *hdr.Histogram) *hdr.Histogram {
	if h == nil {
		return newHistogram()
	}
	return h
}
