package progress

import (
	"bytes"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/runner"
)

// lockedBuffer is a bytes.Buffer mpb's render goroutine and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// TestLogLinesGoAboveTheBar: on a terminal, a log line written while the
// bar is drawn (the job's logger and slog's default write through Writer)
// comes out whole on a line of its own, never inside the bar's line; the
// bar counts the counted trials as the report does.
func TestLogLinesGoAboveTheBar(t *testing.T) {
	var out lockedBuffer
	pr := New(&out, false, nil)
	pr.tty = true // a terminal, as the CLI finds one
	log := slog.New(slog.NewTextHandler(pr.Writer(), nil))
	p := runner.Plan{Counted: 4, Sides: 2, PerSlot: 2, Window: 13 * time.Second}
	pr.Event(runner.Event{Phase: "plan", Plan: &p})
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 1, Trials: 4, Message: "duet"})
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.2", Workload: "workloada", Kind: runner.KindCounted, Trial: 2, Trials: 4, Message: "duet"})
	time.Sleep(300 * time.Millisecond)
	log.Warn("trial did not hold the target rate", "side", "2.6.2")
	time.Sleep(300 * time.Millisecond)
	// The bar moves with the trials (one whose total was fixed at its
	// start stopped at its first total).
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 3, Trials: 4, Message: "duet"})
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.2", Workload: "workloada", Kind: runner.KindCounted, Trial: 4, Trials: 4, Message: "duet"})
	time.Sleep(200 * time.Millisecond)
	if got := pr.bar.Current(); got != 2 {
		t.Errorf("the bar stands at %d trials, want 2 (the first slot's)", got)
	}
	pr.Event(runner.Event{Phase: "done", Kind: runner.KindCounted, Trial: 4, Trials: 4, Plan: &p})
	pr.Close()
	log.Info("reports written") // after the bar: straight out
	text := ansi.ReplaceAllString(strings.ReplaceAll(out.String(), "\r", "\n"), "\n")
	var logLines, barLines int
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.Contains(l, "level=WARN") || strings.Contains(l, "level=INFO"):
			logLines++
			if !strings.HasPrefix(l, "time=") || strings.Contains(l, "counted 2/4") {
				t.Errorf("a log line shares its line with the bar: %q", l)
			}
		case strings.Contains(l, "counted 2/4"):
			barLines++
		}
	}
	if logLines != 2 || barLines == 0 || !strings.Contains(text, "plan: 4 counted trials (2 a side)") || !strings.Contains(text, "done: 4 counted trials") {
		t.Errorf("%d log lines, %d bar lines:\n%q", logLines, barLines, out.String())
	}
}
