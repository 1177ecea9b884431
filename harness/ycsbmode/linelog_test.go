package ycsbmode

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// TestStatusLinesBecomeLogRecords: under --log-format json, YCSB's -s
// status lines reach stderr as JSON records, one a line, split across
// writes or not, the last one without its newline too.
func TestStatusLinesBecomeLogRecords(t *testing.T) {
	var out bytes.Buffer
	l := &lineLog{log: slog.New(slog.NewJSONHandler(&out, nil)), phase: Run}
	for _, w := range []string{"2026-12-06 06:00:00:000 10 sec: 100 operations; ", "10 current ops/sec\n\n", "20 sec: 200 operations"} {
		if _, err := l.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	l.flush()
	var lines []string
	for _, rec := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct{ Msg, Phase, Line string }
		if err := json.Unmarshal([]byte(rec), &r); err != nil || r.Msg != "status" || r.Phase != Run {
			t.Fatalf("record %q: %v", rec, err)
		}
		lines = append(lines, r.Line)
	}
	want := []string{"2026-12-06 06:00:00:000 10 sec: 100 operations; 10 current ops/sec", "20 sec: 200 operations"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", lines, want)
	}
}
