package job

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
)

// writeHlog writes an interval log of 1 s intervals from start, each
// holding n READ and n UPDATE intended latencies (and service ones that
// must be ignored), every value p µs in interval i taking p[i].
func writeHlog(t *testing.T, path string, start time.Time, p []int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := hdr.NewHistogramLogWriter(f)
	if err := w.OutputLogFormatVersion(); err != nil {
		t.Fatal(err)
	}
	if err := w.OutputLegend(); err != nil {
		t.Fatal(err)
	}
	for i, v := range p {
		for _, tag := range []string{"READ.intended", "UPDATE.intended", "READ.service"} {
			h := hdr.New(1, 60_000_000, 3)
			val := v
			if tag == "READ.service" {
				val = 1 // service time is not what the plot shows
			}
			for range 100 {
				_ = h.RecordValue(val)
			}
			h.SetTag(tag)
			h.SetStartTimeMs(start.UnixMilli() + int64(i)*1000)
			h.SetEndTimeMs(start.UnixMilli() + int64(i+1)*1000)
			if err := w.OutputIntervalHistogram(h); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestTimelinesPickTheWorstTrial: per workload and side, the trial with the
// highest interval p99 is drawn, its intervals from its window's start and
// its server timeline with it; a trial without one is kept without.
func TestTimelinesPickTheWorstTrial(t *testing.T) {
	dir := t.TempDir()
	store, err := results.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	gc := &results.ServerTimeline{Events: []results.ServerEvent{{Kind: "gc", AtMillis: 1010, DurationMillis: 150}},
		Counted: []results.ServerCounted{{Server: "rs1", GCs: 3, GCMillis: 170, Flushes: 1}}}
	var ms []*results.Manifest
	for side, version := range []string{"2.6.1", "2.6.2"} {
		m, err := store.Ensure(&results.Manifest{Version: version, Suite: results.SuiteInfo{Name: "s", Fingerprint: "0123456789abcdef"}})
		if err != nil {
			t.Fatal(err)
		}
		for pair, p := range [][]int64{{800, 900, 850}, {800, 150000, 850}} {
			hlog := filepath.Join(dir, "t.hlog")
			writeHlog(t, hlog, start.Add(time.Duration(pair)*time.Minute), p)
			tr := results.Trial{ID: "r-workloada-p0" + string(rune('0'+pair)), RunID: "r", Workload: "workloada", Pair: pair,
				Start: start.Add(time.Duration(pair) * time.Minute), DurationMillis: 3000, Ops: map[string]results.OpStats{"READ": {Count: 300}}}
			if pair == 1 && side == 1 {
				tr.Server = &results.ServerStats{Timeline: gc}
			}
			if _, err := store.AppendTrialFile(results.KeyOf(m), tr, hlog); err != nil {
				t.Fatal(err)
			}
		}
		if m, err = store.Load(results.KeyOf(m)); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	got := Timelines(store, ms[0], ms[1])
	if len(got) != 2 {
		t.Fatalf("%d timelines, want one per side", len(got))
	}
	for i, tl := range got {
		if tl.Pair != 1 || tl.Workload != "workloada" || len(tl.Intervals) != 3 || tl.WindowMillis != 3000 {
			t.Fatalf("timeline %d: pair %d, %d intervals over %v ms; want pair 1's 3 intervals over 3000 ms", i, tl.Pair, len(tl.Intervals), tl.WindowMillis)
		}
		iv := tl.Intervals[1]
		if iv.StartMillis != 1000 || iv.EndMillis != 2000 || iv.Count != 200 || iv.P99Micros < 149000 || iv.P99Micros > 151000 {
			t.Errorf("timeline %d interval 2: %+v, want 1000-2000 ms, 200 intended latencies at ~150 ms", i, iv)
		}
	}
	if got[0].Side != "baseline" || got[0].Server != nil || got[0].Name != "2.6.1" {
		t.Errorf("baseline: %s %s with timeline %v, want 2.6.1 without one", got[0].Side, got[0].Name, got[0].Server)
	}
	if got[1].Side != "candidate" || got[1].Server == nil || len(got[1].Server.Events) != 1 || got[1].Server.Events[0].DurationMillis != 150 {
		t.Errorf("candidate: %s with timeline %+v, want the GC pause", got[1].Side, got[1].Server)
	}
	if want := (report.ServerCounted{Server: "rs1", GCs: 3, GCMillis: 170, Flushes: 1}); got[1].Server == nil || len(got[1].Server.Counted) != 1 || got[1].Server.Counted[0] != want {
		t.Errorf("candidate's counts through /jmx: %+v, want %+v", got[1].Server, want)
	}
	if got := Timelines(store, nil, nil); len(got) != 0 {
		t.Errorf("no manifests: %d timelines", len(got))
	}
}
