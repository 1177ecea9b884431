package runner

import (
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

func TestTimelineOfAWindow(t *testing.T) {
	start := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	rs1 := servercost.Cost{TimelineRead: true, Timeline: []servercost.Event{
		{Kind: servercost.EventGC, At: at(-3), Duration: 5 * time.Millisecond, Server: "rs1"},
		{Kind: servercost.EventFlush, At: at(900), Duration: 327 * time.Millisecond, Server: "rs1"},
	}}
	rs2 := servercost.Cost{TimelineRead: true, Timeline: []servercost.Event{{Kind: servercost.EventMove, At: at(400), Server: "rs2"}}}
	tl := timelineOf([]servercost.Cost{rs1, rs2}, start)
	if tl == nil || len(tl.Events) != 3 {
		t.Fatalf("timeline %+v, want 3 events", tl)
	}
	want := []results.ServerEvent{{Kind: "gc", AtMillis: -3, DurationMillis: 5, Server: "rs1"}, {Kind: "move", AtMillis: 400, Server: "rs2"},
		{Kind: "flush", AtMillis: 900, DurationMillis: 327, Server: "rs1"}}
	for i, w := range want {
		if tl.Events[i] != w {
			t.Errorf("event %d: %+v, want %+v", i, tl.Events[i], w)
		}
	}
	if got := timelineOf([]servercost.Cost{rs1, {}}, start); got != nil {
		t.Errorf("a server read through /jmx: timeline %+v, want none", got)
	}
	if got := timelineOf([]servercost.Cost{{TimelineRead: true}}, start); got == nil || got.Events == nil || len(got.Events) != 0 {
		t.Errorf("a quiet window: %+v, want an empty timeline, not none", got)
	}

	// Past the cap the shortest pauses go; every other event stays.
	var many servercost.Cost
	many.TimelineRead = true
	n := results.MaxTimelineEvents + 10
	for i := range n {
		many.Timeline = append(many.Timeline, servercost.Event{Kind: servercost.EventGC, At: at(i), Duration: time.Duration(i+1) * time.Microsecond})
	}
	many.Timeline = append(many.Timeline, servercost.Event{Kind: servercost.EventCompaction, At: at(5)})
	tl = timelineOf([]servercost.Cost{many}, start)
	if len(tl.Events) != results.MaxTimelineEvents || tl.OmittedGCs != 11 {
		t.Fatalf("%d events kept, %d omitted; want %d kept, 11 omitted", len(tl.Events), tl.OmittedGCs, results.MaxTimelineEvents)
	}
	compactions := 0
	for _, e := range tl.Events {
		if e.Kind == "gc" && e.DurationMillis < 0.012 {
			t.Errorf("a short pause (%v ms) kept over longer ones", e.DurationMillis)
		}
		if e.Kind == "compaction" {
			compactions++
		}
	}
	if compactions != 1 {
		t.Error("the compaction was dropped to make room")
	}
}
