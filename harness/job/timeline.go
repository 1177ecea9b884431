package job

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// Timelines picks, per workload and side, the trial whose worst interval
// p99 was highest (the tail spike a reader wants explained) and gives its
// latency by interval with its servers' timeline, for the HTML report.
// A trial whose log cannot be read is passed over; one without a server
// timeline is kept, and the report says the timeline is not available.
func Timelines(store *results.Store, bm, cm *results.Manifest) []report.TrialTimeline {
	type pick struct {
		t     report.TrialTimeline
		worst float64
		n     int
	}
	var out []report.TrialTimeline
	for _, side := range []struct {
		name string
		m    *results.Manifest
	}{{"baseline", bm}, {"candidate", cm}} {
		if side.m == nil || store == nil {
			continue
		}
		picks := map[string]*pick{}
		for _, t := range side.m.Trials {
			if t.HlogFile == "" {
				continue
			}
			hs, err := store.TrialIntervals(side.m, t)
			if err != nil || len(hs) == 0 {
				continue
			}
			ivs := latencyIntervals(hs, t.Start.UnixMilli())
			worst := 0.0
			for _, iv := range ivs {
				worst = max(worst, iv.P99Micros)
			}
			p := picks[t.Workload]
			if p == nil {
				p = &pick{worst: -1}
				picks[t.Workload] = p
			}
			p.n++
			if worst > p.worst {
				tl := report.TrialTimeline{Workload: t.Workload, Side: side.name, Name: results.KeyOf(side.m).Target, TrialID: t.ID, Pair: t.Pair,
					WindowMillis: float64(t.DurationMillis), Intervals: ivs}
				if t.Server != nil {
					tl.Server = serverEvents(t.Server.Timeline)
				}
				p.t, p.worst = tl, worst
			}
		}
		for _, w := range slices.Sorted(maps.Keys(picks)) {
			p := picks[w]
			p.t.Why = fmt.Sprintf("the highest interval p99 of its %d trials", p.n)
			if p.n == 1 {
				p.t.Why = "its only trial"
			}
			out = append(out, p.t)
		}
	}
	slices.SortStableFunc(out, func(a, b report.TrialTimeline) int { return strings.Compare(a.Workload, b.Workload) })
	return out
}

// latencyIntervals is a trial's intended latency by interval
// (results.Store.TrialIntervals) as the report draws it, its times from
// startMs.
func latencyIntervals(hs []*hdr.Histogram, startMs int64) []report.LatencyInterval {
	out := make([]report.LatencyInterval, 0, len(hs))
	for _, h := range hs {
		out = append(out, report.LatencyInterval{StartMillis: float64(h.StartTimeMs() - startMs), EndMillis: float64(h.EndTimeMs() - startMs),
			P99Micros: float64(h.ValueAtQuantile(99)), MaxMicros: float64(h.Max()), Count: h.TotalCount()})
	}
	return out
}

// serverEvents is a stored timeline as the report draws it, with what
// servers read through /jmx counted; nil stays nil (the report then says
// the timeline is not available).
func serverEvents(tl *results.ServerTimeline) *report.ServerEvents {
	if tl == nil {
		return nil
	}
	out := &report.ServerEvents{Events: make([]report.ServerEvent, 0, len(tl.Events)), OmittedGCs: tl.OmittedGCs}
	for _, e := range tl.Events {
		out.Events = append(out.Events, report.ServerEvent{Kind: e.Kind, AtMillis: e.AtMillis, DurationMillis: e.DurationMillis, Server: e.Server, Detail: e.Detail})
	}
	for _, c := range tl.Counted {
		out.Counted = append(out.Counted, report.ServerCounted{Server: c.Server, GCs: c.GCs, GCMillis: c.GCMillis,
			Flushes: c.Flushes, Compactions: c.Compactions, Splits: c.Splits})
	}
	return out
}
