// Package progress shows what a run is doing on stderr: live bars on a
// terminal, otherwise (CI logs) a log line every few seconds through the
// command's logger, so every line there has the log's one format; nothing when quiet.
package progress

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
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
			pr.print(fmt.Sprintf("done: %d trials", e.Trials))
		}
	case e.Load != nil:
		line := fmt.Sprintf("%s: loading seed rows %d/%d (%.0f rows/s)", e.Target, e.Load.Rows, e.Load.Total, e.Load.RowsPerSec)
		pr.line(line, e.Load.Rows == e.Load.Total)
	case e.Run != nil:
		phase := "measure"
		if e.Run.Warmup {
			phase = "warm-up"
		}
		line := fmt.Sprintf("trial %d/%d %s %s %s: %.0f ops/s, p99 %v", e.Trial, e.Trials, e.Target, e.Workload, phase,
			e.Run.OpsPerSec, e.Run.P99Intended.Round(time.Microsecond))
		pr.line(line, false)
	case e.Phase == "trial" && e.Workload != "":
		pr.trialStarted(e)
	case e.Message != "":
		pr.line(fmt.Sprintf("%s %s", e.Target, e.Message), true)
	}
}

// print writes one line: plain on a terminal, else as a log line.
func (pr *Progress) print(s string) {
	if pr.tty {
		fmt.Fprintln(pr.w, s)
		return
	}
	pr.log.Info(s)
}

// line shows s as the current status: on a terminal in the bar's decorator, else
// printed when forced or when plainEvery has passed.
func (pr *Progress) line(s string, force bool) {
	if pr.tty && pr.bar != nil {
		pr.status.Store(&s)
		return
	}
	if force || time.Since(pr.last) >= plainEvery {
		pr.print(s)
		pr.last = time.Now()
	}
}

func (pr *Progress) trialStarted(e runner.Event) {
	if !pr.tty {
		pr.print(fmt.Sprintf("trial %d/%d: %s on %s", e.Trial, e.Trials, e.Workload, e.Target))
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
