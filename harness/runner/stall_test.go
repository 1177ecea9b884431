package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

func TestStallNoteNamesOnlyAStall(t *testing.T) {
	op := func(serviceMax, intendedMax float64) results.OpStats {
		return results.OpStats{Count: 100, Service: results.Latency{MaxMicros: serviceMax}, Intended: results.Latency{MaxMicros: intendedMax}}
	}
	for _, tc := range []struct {
		name   string
		ops    map[string]results.OpStats
		window time.Duration
		want   string
	}{
		{"a server stopped 10 s", map[string]results.OpStats{"READ": op(10.2e6, 11e6), "UPDATE": op(3e3, 4e3)}, 2 * time.Second, "one READ took 10.2s in a 2s window"},
		{"half the window is a stall", map[string]results.OpStats{"UPDATE": op(1e6, 1e6)}, 2 * time.Second, "one UPDATE took 1s"},
		{"slow but answering", map[string]results.OpStats{"READ": op(50e3, 900e3)}, 2 * time.Second, ""},
		{"a backlog is not a stall", map[string]results.OpStats{"READ": op(20e3, 1.9e6)}, 2 * time.Second, ""},
		{"no window", map[string]results.OpStats{"READ": op(10e6, 10e6)}, 0, ""},
		{"no operations", nil, 2 * time.Second, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := stallNote(results.Trial{Ops: tc.ops}, tc.window)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("stallNote = %q, want %q", got, tc.want)
			}
			if got != "" && !strings.Contains(got, "the cluster stalled") {
				t.Errorf("stallNote = %q, want it to say the cluster stalled", got)
			}
		})
	}
}
