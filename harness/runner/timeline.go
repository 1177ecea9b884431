package runner

import (
	"cmp"
	"slices"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// timelineOf is the stored timeline of a window's servers, each event's
// time from start (the trial's measurement start, where its interval log
// begins); nil when some server was read neither from its logs nor through
// /jmx. A server read through /jmx adds its counts (Counted) and each
// collector's last collection. Past results.MaxTimelineEvents the
// shortest GC pauses are left out and counted.
func timelineOf(costs []servercost.Cost, start time.Time) *results.ServerTimeline {
	events, ok := servercost.MergeTimelines(costs)
	if !ok || start.IsZero() {
		return nil
	}
	tl := &results.ServerTimeline{Events: []results.ServerEvent{}}
	if over := len(events) - results.MaxTimelineEvents; over > 0 {
		var gcs []int // indices of the GC pauses
		for i, e := range events {
			if e.Kind == servercost.EventGC {
				gcs = append(gcs, i)
			}
		}
		// The longest pauses are what explain a tail; keep those.
		slices.SortStableFunc(gcs, func(a, b int) int { return cmp.Compare(events[b].Duration, events[a].Duration) })
		drop := min(over, len(gcs))
		cut := make([]bool, len(events))
		for _, i := range gcs[len(gcs)-drop:] {
			cut[i] = true
		}
		var kept []servercost.Event
		for i, e := range events {
			if !cut[i] {
				kept = append(kept, e)
			}
		}
		events, tl.OmittedGCs = kept, drop
	}
	for _, c := range costs {
		if c.TimelineCounted {
			tl.Counted = append(tl.Counted, results.ServerCounted{Server: c.Server, GCs: c.GCs, GCMillis: c.GCPause.Milliseconds(),
				Flushes: c.Events.Flushes, Compactions: c.Events.Compactions, Splits: c.Events.Splits})
		}
	}
	for _, e := range events {
		tl.Events = append(tl.Events, results.ServerEvent{Kind: string(e.Kind), AtMillis: ms(e.At.Sub(start)),
			DurationMillis: ms(e.Duration), Server: e.Server, Detail: e.Detail})
	}
	return tl
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
