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
	count  atomic.Pointer[string] // the bar's counter: the current kind's trials
	// shown is the bar being drawn, for log lines written while it is
	// (Writer): read without pr.mu, which a log line may be written under.
	shown atomic.Pointer[mpb.Progress]
	last  time.Time
	log   *slog.Logger // where a non-terminal's lines go
	// plan is the run's plan as last sent; planned the line it was shown as.
	plan    runner.Plan
	planned string
	pace    pace
	began   time.Time // the first trial's start
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

// Terminal says whether progress is drawn as a bar on a terminal.
func (pr *Progress) Terminal() bool { return pr != nil && pr.tty && !pr.quiet }

// Writer is where the command's log lines go: while a bar is drawn, above
// it (mpb prints them between its redraws, so a line never breaks the
// bar), else straight to the progress's writer.
func (pr *Progress) Writer() io.Writer { return logWriter{pr} }

type logWriter struct{ pr *Progress }

func (lw logWriter) Write(b []byte) (int, error) {
	if p := lw.pr.shown.Load(); p != nil {
		if n, err := p.Write(b); err == nil {
			return n, nil
		}
	}
	return lw.pr.w.Write(b)
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
	case e.Phase == "plan" && e.Plan != nil:
		pr.planEvent(*e.Plan)
	case e.Phase == "done":
		pr.doneEvent(e)
	case e.Load != nil:
		line := fmt.Sprintf("%s: loading seed rows %d/%d (%.0f rows/s)", e.Target, e.Load.Rows, e.Load.Total, e.Load.RowsPerSec)
		pr.line(line, e.Load.Rows == e.Load.Total, "seed load", "side", e.Target, "rows", e.Load.Rows, "of", e.Load.Total, "rows_per_s", math.Round(e.Load.RowsPerSec))
	case e.Run != nil:
		pr.running(e)
	case e.Phase == "trial" && e.Workload != "" && e.Kind != "":
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

// planEvent shows the run's plan (once; again when it changes) and keeps
// it for the estimate.
func (pr *Progress) planEvent(p runner.Plan) {
	pr.plan = p
	pr.pace.plan = p
	if line := "plan: " + p.String(); line != pr.planned {
		pr.planned = line
		if pr.p != nil {
			pr.status.Store(&line)
		} else {
			pr.print(line, "counted", p.Counted, "warmup_at_most", p.Warmup, "profiled", p.Profiled, "estimate", p.Estimate().Round(time.Second).String())
		}
		pr.setTotal()
	}
}

// doneEvent shows the run's end with the counts the report has.
func (pr *Progress) doneEvent(e runner.Event) {
	line := fmt.Sprintf("done: %d counted trials", e.Trial)
	attrs := []any{"counted", e.Trial}
	if p := e.Plan; p != nil {
		if p.Sides > 1 {
			line += fmt.Sprintf(" (%d a side)", e.Trial/p.Sides)
		}
		if p.Warmup > 0 {
			line += fmt.Sprintf(", %d warm-up", p.Warmup)
			attrs = append(attrs, "warmup", p.Warmup)
		}
		if p.Profiled > 0 {
			line += fmt.Sprintf(", %d profiled", p.Profiled)
			attrs = append(attrs, "profiled", p.Profiled)
		}
	}
	if !pr.began.IsZero() {
		took := time.Since(pr.began).Round(time.Second)
		line += " in " + took.String()
		attrs = append(attrs, "took", took.String())
	}
	if pr.bar != nil {
		c := fmt.Sprintf("counted %d/%d", e.Trial, e.Trial)
		pr.count.Store(&c)
		pr.status.Store(&line)
		pr.bar.SetTotal(-1, true) // full: the last frame says the end
		return
	}
	pr.print(line, attrs...)
}

// running shows a trial's progress: its kind and number, the side,
// workload and phase, the rate, the p99 once the warm-up is over (none is
// measured before), and the time left.
func (pr *Progress) running(e runner.Event) {
	phase := "measure"
	if e.Run.Warmup {
		phase = "warm-up"
	}
	// On a terminal the bar's counter names the trial already.
	line := fmt.Sprintf("%s %s %s: %.0f ops/s", e.Target, e.Workload, phase, e.Run.OpsPerSec)
	if !pr.tty {
		line = trialName(e) + " " + line
	}
	attrs := []any{"kind", e.Kind, "trial", e.Trial, "trials", e.Trials, "side", e.Target, "workload", e.Workload, "phase", phase, "ops_per_s", math.Round(e.Run.OpsPerSec)}
	if p99 := e.Run.P99Intended; p99 > 0 {
		line += fmt.Sprintf(", p99 %v", p99.Round(time.Microsecond))
		attrs = append(attrs, "p99", p99.Round(time.Microsecond).String())
	}
	if eta, ok := pr.eta(); ok {
		line += ", about " + eta + " left"
		attrs = append(attrs, "eta", eta)
	}
	pr.line(line, false, "trial progress", attrs...)
}

// trialName is a trial as the lines name it: "trial 37/100" for a counted
// one (the report's trials), "warm-up 3/24", "profiled 2/12".
func trialName(e runner.Event) string {
	name := "trial"
	if e.Kind != runner.KindCounted {
		name = e.Kind
	}
	if e.Trials > 0 {
		return fmt.Sprintf("%s %d/%d", name, e.Trial, e.Trials)
	}
	return fmt.Sprintf("%s %d", name, e.Trial)
}

// eta is the run's time left: the plan's slots still to run, at the pace
// the run has kept against its plan so far.
func (pr *Progress) eta() (string, bool) {
	left, ok := pr.pace.left(time.Now())
	if !ok {
		return "", false
	}
	return left.Round(time.Second).String(), true
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
	now := time.Now()
	if pr.began.IsZero() {
		pr.began = now
	}
	pr.pace.start(e.Kind, e.Trial, now)
	if !pr.tty {
		attrs := []any{"kind", e.Kind, "trial", e.Trial, "trials", e.Trials, "side", e.Target, "workload", e.Workload}
		if eta, ok := pr.eta(); ok {
			attrs = append(attrs, "eta", eta)
		}
		pr.print(fmt.Sprintf("%s: %s on %s", trialName(e), e.Workload, e.Target), attrs...)
		pr.last = now
		return
	}
	if pr.p == nil {
		pr.p = mpb.New(mpb.WithOutput(pr.w), mpb.WithWidth(40), mpb.WithAutoRefresh())
		pr.shown.Store(pr.p)
	}
	if pr.bar == nil {
		pr.bar = pr.p.AddBar(0, // 0: a total SetTotal may change (the plan grows or shrinks)
			mpb.PrependDecorators(decor.Any(func(decor.Statistics) string {
				if s := pr.count.Load(); s != nil {
					return *s + " "
				}
				return ""
			})),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				if s := pr.status.Load(); s != nil {
					return " " + *s
				}
				return ""
			})))
		pr.setTotal()
	}
	name := trialName(e)
	if e.Kind == runner.KindCounted {
		name = fmt.Sprintf("counted %d/%d", e.Trial, e.Trials)
	}
	pr.count.Store(&name)
	pr.bar.SetCurrent(int64(pr.pace.doneTrials()))
	st := fmt.Sprintf("%s on %s", e.Workload, e.Target)
	if eta, ok := pr.eta(); ok {
		st += ", about " + eta + " left"
	}
	pr.status.Store(&st)
}

// setTotal sizes the bar to the plan's trials of every kind.
func (pr *Progress) setTotal() {
	if pr.bar == nil {
		return
	}
	p := pr.plan
	pr.bar.SetTotal(int64(max(p.Warmup+p.Counted+p.Profiled, 1)), false)
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
	pr.shown.Store(nil)
}
