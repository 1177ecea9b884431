// Package progress shows what a run is doing on stderr: live bars on a
// terminal, otherwise (CI logs) a log line every few seconds through the
// command's logger, so every line there has the log's one format; nothing when quiet.
package progress

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/regress-hbase/regress/harness/runner"
)

// Progress renders the runner's events and one-off messages; its methods are
// safe on a nil *Progress and from several goroutines.
type Progress struct {
	mu     sync.Mutex
	w      io.Writer
	quiet  bool
	tty    bool
	p      *mpb.Progress
	bar    *mpb.Bar
	status atomic.Pointer[string] // read by mpb's render goroutine without pr.mu
	last   time.Time
	total  int
	log    *slog.Logger // where a non-terminal's lines go
	// trialOf is the trial each side's last announcement numbered: a
	// duet's two trials are announced one after the other, so the
	// runner's events for the first carry the second's number.
	trialOf map[string]int
	began   time.Time // the first trial's start, for the ETA
}

// plainEvery is how often a non-terminal gets a progress line during a trial.
const plainEvery = 5 * time.Second

// New renders to w, and off a terminal logs its lines to log (nil:
// slog's default); quiet shows nothing.
func New(w io.Writer, quiet bool, log *slog.Logger) *Progress {
	pr := &Progress{w: w, quiet: quiet, log: cmp.Or(log, slog.Default())}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		pr.tty = true
	}
	return pr
}

// Message prints a one-off line (cluster start, seeding).
func (pr *Progress) Message(s string) {
	if pr == nil || pr.quiet {
		return
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.p != nil {
		pr.status.Store(&s)
		return
	}
	pr.print(s)
}

// Event receives the runner's progress events.
func (pr *Progress) Event(e runner.Event) {
	if pr == nil || pr.quiet {
		return
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	switch {
	case e.Phase == "done":
		if pr.bar != nil {
			pr.bar.SetTotal(int64(e.Trials), false)
			pr.bar.SetCurrent(int64(e.Trials))
		} else {
			pr.print(fmt.Sprintf("done: %d trials", e.Trials), "trials", e.Trials)
		}
	case e.Load != nil:
		line := fmt.Sprintf("%s: loading seed rows %d/%d (%.0f rows/s)", e.Target, e.Load.Rows, e.Load.Total, e.Load.RowsPerSec)
		pr.line(line, e.Load.Rows == e.Load.Total, "seed load", "side", e.Target, "rows", e.Load.Rows, "of", e.Load.Total, "rows_per_s", math.Round(e.Load.RowsPerSec))
	case e.Run != nil:
		pr.running(e)
	case e.Phase == "trial" && e.Workload != "":
		pr.trialStarted(e)
	case e.Message != "":
		line := e.Message
		var attrs []any
		if e.Target != "" {
			line, attrs = e.Target+" "+e.Message, []any{"side", e.Target}
		}
		pr.line(line, true, line, attrs...)
	}
}

// running shows a trial's progress: its number as its side's announcement
// gave it, the side, workload and phase, the rate, the p99 once the
// warm-up is over (none is measured before), and the time left.
func (pr *Progress) running(e runner.Event) {
	trial := e.Trial
	if n, ok := pr.trialOf[e.Target]; ok {
		trial = n
	}
	phase := "measure"
	if e.Run.Warmup {
		phase = "warm-up"
	}
	line := fmt.Sprintf("trial %d/%d %s %s %s: %.0f ops/s", trial, e.Trials, e.Target, e.Workload, phase, e.Run.OpsPerSec)
	attrs := []any{"trial", trial, "trials", e.Trials, "side", e.Target, "workload", e.Workload, "phase", phase, "ops_per_s", math.Round(e.Run.OpsPerSec)}
	if p99 := e.Run.P99Intended; p99 > 0 {
		line += fmt.Sprintf(", p99 %v", p99.Round(time.Microsecond))
		attrs = append(attrs, "p99", p99.Round(time.Microsecond).String())
	}
	if eta, ok := pr.eta(trial, e.Trials); ok {
		line += ", about " + eta + " left"
		attrs = append(attrs, "eta", eta)
	}
	pr.line(line, false, "trial progress", attrs...)
}

// eta is the run's time left at trial of trials, from the pace of the
// trials done so far ("" until one is done).
func (pr *Progress) eta(trial, trials int) (string, bool) {
	done := trial - 1
	if done < 1 || pr.began.IsZero() || trials <= done {
		return "", false
	}
	per := time.Since(pr.began) / time.Duration(done)
	return (per * time.Duration(trials-done)).Round(time.Second).String(), true
}

// print writes one line: plain on a terminal, else as a log line of s with attrs.
func (pr *Progress) print(s string, attrs ...any) {
	if pr.tty {
		fmt.Fprintln(pr.w, s)
		return
	}
	pr.log.Info(s, attrs...)
}

// line shows s as the current status: on a terminal in the bar's decorator
// (or a line of its own), else, when forced or when plainEvery has passed,
// as a log line of msg whose attrs say the rest.
func (pr *Progress) line(s string, force bool, msg string, attrs ...any) {
	if pr.tty && pr.bar != nil {
		pr.status.Store(&s)
		return
	}
	if force || time.Since(pr.last) >= plainEvery {
		if pr.tty {
			msg = s
		}
		pr.print(msg, attrs...)
		pr.last = time.Now()
	}
}

func (pr *Progress) trialStarted(e runner.Event) {
	if pr.trialOf == nil {
		pr.trialOf = map[string]int{}
	}
	pr.trialOf[e.Target] = e.Trial
	if pr.began.IsZero() {
		pr.began = time.Now()
	}
	if !pr.tty {
		attrs := []any{"trial", e.Trial, "trials", e.Trials, "side", e.Target, "workload", e.Workload}
		if eta, ok := pr.eta(e.Trial, e.Trials); ok {
			attrs = append(attrs, "eta", eta)
		}
		pr.print(fmt.Sprintf("trial %d/%d: %s on %s", e.Trial, e.Trials, e.Workload, e.Target), attrs...)
		pr.last = time.Now()
		return
	}
	if pr.p == nil {
		pr.p = mpb.New(mpb.WithOutput(pr.w), mpb.WithWidth(40))
	}
	if pr.bar == nil || pr.total != e.Trials {
		if pr.bar != nil {
			pr.bar.Abort(true)
		}
		pr.total = e.Trials
		pr.bar = pr.p.AddBar(int64(e.Trials),
			mpb.PrependDecorators(decor.Name("trials "), decor.CountersNoUnit("%d/%d")),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				if s := pr.status.Load(); s != nil {
					return *s
				}
				return ""
			})))
		pr.bar.SetCurrent(int64(e.Trial - 1))
	} else {
		pr.bar.SetCurrent(int64(e.Trial - 1))
	}
	st := fmt.Sprintf("%s on %s", e.Workload, e.Target)
	pr.status.Store(&st)
}

// Close finishes any bars so later output is not interleaved with them.
func (pr *Progress) Close() {
	if pr == nil {
		return
	}
	pr.mu.Lock()
	p, bar := pr.p, pr.bar
	pr.p, pr.bar = nil, nil
	pr.mu.Unlock()
	if bar != nil {
		bar.SetTotal(-1, true)
	}
	if p != nil {
		p.Wait()
	}
}
