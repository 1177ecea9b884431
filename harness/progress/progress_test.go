package progress

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

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
	pr.Event(runner.Event{Phase: "trial", Target: "2.6.1", Workload: "workloada", Trial: 1, Trials: 8})
	pr.Event(runner.Event{Phase: "done", Trials: 8})
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
	if want := []string{"starting HBase 2.6.1", "trial 1/8: workloada on 2.6.1", "done: 8 trials"}; strings.Join(msgs, "|") != strings.Join(want, "|") {
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
