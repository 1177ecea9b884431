package progress

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/runner"
)

// TestPlainOutputIsLogLines: off a terminal, every line progress shows is a
// log line of the logger it is given (here JSON), none written plainly;
// quiet shows nothing.
func TestPlainOutputIsLogLines(t *testing.T) {
	var logs, plain bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	pr := New(&plain, false, log)
	pr.Message("starting HBase 2.6.1")
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 1, Trials: 8})
	pr.Event(runner.Event{Phase: "done", Kind: runner.KindCounted, Trial: 8, Trials: 8})
	pr.Close()
	if plain.Len() != 0 {
		t.Errorf("plain lines written beside the log: %q", plain.String())
	}
	var msgs []string
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Level != "INFO" {
			t.Fatalf("line %q is not an INFO log record: %v", l, err)
		}
		msgs = append(msgs, rec.Msg)
	}
	if want := []string{"starting HBase 2.6.1", "trial 1/8: workloada on 2.6.1", "done: 8 counted trials in 0s"}; strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Errorf("messages %q, want %q", msgs, want)
	}
	logs.Reset()
	q := New(&plain, true, log)
	q.Message("x")
	q.Event(runner.Event{Phase: "done", Trials: 1})
	if logs.Len()+plain.Len() != 0 {
		t.Errorf("quiet progress wrote %q %q", logs.String(), plain.String())
	}
}

// TestProgressLinesCarryFields: off a terminal a trial's progress is a log
// line whose fields say kind, trial, side, workload, phase, ops/s, p99 and
// ETA; p99 is left out during warm-up (nothing is measured yet, not "p99
// 0s"); a duet's sides each keep their own number (the runner numbers a
// side's trial when it announces it); a message without a side has no
// leading space.
func TestProgressLinesCarryFields(t *testing.T) {
	var logs bytes.Buffer
	pr := New(&bytes.Buffer{}, false, slog.New(slog.NewJSONHandler(&logs, nil)))
	pr.Event(runner.Event{Phase: "plan", Plan: &runner.Plan{Counted: 4, Sides: 2, PerSlot: 2, Window: 13 * time.Second}})
	logs.Reset()
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 1, Trials: 4})
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 2, Trials: 4, Message: "duet"})
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.2", Workload: "workloada", Kind: runner.KindCounted, Trial: 3, Trials: 4, Message: "duet"})
	pr.last = time.Time{}
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Kind: runner.KindCounted, Trial: 2, Trials: 4, Run: &loadgen.Progress{Warmup: true, OpsPerSec: 998.6}})
	pr.last = time.Time{}
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.2", Workload: "workloada", Kind: runner.KindCounted, Trial: 3, Trials: 4, Run: &loadgen.Progress{OpsPerSec: 1001, P99Intended: 3210 * time.Microsecond}})
	pr.Event(runner.Event{Phase: "trial", Message: "warm-up: 1 round(s) in 12s"})
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != 6 {
		t.Fatalf("%d lines, want 6:\n%s", len(recs), logs.String())
	}
	warm, meas := recs[3], recs[4]
	for _, c := range []struct {
		rec       map[string]any
		key       string
		want      any
		wantAbsnt bool
	}{
		{warm, "msg", "trial progress", false},
		{warm, "trial", 2.0, false},
		{warm, "side", "2.6.1", false},
		{warm, "workload", "workloada", false},
		{warm, "phase", "warm-up", false},
		{warm, "ops_per_s", 999.0, false},
		{warm, "p99", nil, true},
		{meas, "trial", 3.0, false},
		{meas, "side", "2.6.2", false},
		{meas, "p99", "3.21ms", false},
		{recs[1], "trial", 2.0, false},
		{recs[5], "msg", "warm-up: 1 round(s) in 12s", false},
	} {
		got, ok := c.rec[c.key]
		if c.wantAbsnt {
			if ok {
				t.Errorf("%v: %s = %v, want it left out", c.rec["msg"], c.key, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%v: %s = %v, want %v", c.rec["msg"], c.key, got, c.want)
		}
	}
	if _, ok := meas["eta"]; !ok {
		t.Errorf("a trial after the first has no eta: %v", meas)
	}
}
