package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spikeTimeline is a 10 s trial whose p99 spikes in its sixth second, when
// a 180 ms GC pause began, with a flush and a region opened elsewhere.
func spikeTimeline(server *ServerEvents) TrialTimeline {
	t := TrialTimeline{Workload: "workloada", Side: "candidate", Name: "2.6.2", TrialID: "r-workloada-p02", Pair: 2, WindowMillis: 10000, Server: server}
	for i := range 10 {
		p99 := 900.0
		if i == 5 {
			p99 = 190000
		}
		t.Intervals = append(t.Intervals, LatencyInterval{StartMillis: float64(i * 1000), EndMillis: float64(i*1000 + 1000), P99Micros: p99, MaxMicros: p99 * 1.5, Count: 1000})
	}
	return t
}

var spikeEvents = &ServerEvents{Events: []ServerEvent{
	{Kind: "flush", AtMillis: 1200, DurationMillis: 60, Server: "rs1", Detail: "Finished flush of dataSize ~3.69 MB"},
	{Kind: "gc", AtMillis: 5100, DurationMillis: 180, Server: "rs1", Detail: "Pause Young (Normal) (G1 Evacuation Pause)"},
	{Kind: "move", AtMillis: 8000, Server: "rs2", Detail: "Opened t,,1.abc. <script>"},
}, OmittedGCs: 3}

func TestTimelineSVG(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tl        TrialTimeline
		want, not []string
	}{
		{"events under the spike", spikeTimeline(spikeEvents),
			[]string{`fill="#8250df"><title>GC pause at 5.100 s, 180 ms on rs1: Pause Young`, "GC (1+3)", "flush (1)", "region opened (1)", "compaction (0)",
				"p99 by interval", "&lt;script&gt;", "10 s</text>"},
			[]string{"<script>", "not available"}},
		{"a quiet window draws empty lanes", spikeTimeline(&ServerEvents{Events: []ServerEvent{}}),
			[]string{"GC pause (0)", "split (0)"}, []string{"#8250df\"><title>"}},
		{"no timeline: no lanes", spikeTimeline(nil), []string{"p99 by interval"}, []string{"GC pause", "flush ("}},
		{"no interval log", TrialTimeline{Workload: "w", WindowMillis: 8000, Server: spikeEvents}, []string{"no interval log for this trial", "GC (1+3)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := timelineSVG(tc.tl)
			for _, w := range tc.want {
				if !strings.Contains(svg, w) {
					t.Errorf("SVG lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(svg, n) {
					t.Errorf("SVG has %q", n)
				}
			}
		})
	}
}

// TestHTMLTimelineSection: the section is drawn only with timelines, and a
// trial without a server timeline says it is not available.
func TestHTMLTimelineSection(t *testing.T) {
	r := fullReport()
	var none bytes.Buffer
	if err := Render(&none, FormatHTML, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(none.String(), "what the servers did") {
		t.Error("a report without timelines has a timeline section")
	}
	r.Timelines = []TrialTimeline{spikeTimeline(spikeEvents), spikeTimeline(nil)}
	var page bytes.Buffer
	if err := Render(&page, FormatHTML, r); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	if !strings.Contains(s, "Latency over a trial&#39;s window, and what the servers did") && !strings.Contains(s, "Latency over a trial's window, and what the servers did") {
		t.Error("no timeline section")
	}
	if n := strings.Count(s, "server timeline not available"); n != 1 {
		t.Errorf("%d 'not available' notes, want 1 (the trial without a server timeline)", n)
	}
	if n := strings.Count(s, "workloada · candidate 2.6.2 · pair 3"); n != 2 {
		t.Errorf("%d captions naming the trial, want 2", n)
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ span, want float64 }{{8, 1}, {20, 2}, {600, 100}, {0.5, 0.1}, {0, 1}} {
		if got := niceStep(tc.span); got != tc.want {
			t.Errorf("niceStep(%v) = %v, want %v", tc.span, got, tc.want)
		}
	}
}

// TestTimelineRendersInChromium opens a report with timelines in headless
// Chromium: the GC pause under the spike, the flush and the region opened
// must really be drawn in their lanes' colours, and the p99 line.
func TestTimelineRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	r := Report{Comparison: pairedFixture(), Timelines: []TrialTimeline{spikeTimeline(spikeEvents), spikeTimeline(nil)}}
	// A pause long enough to be seen as a bar, not a hairline.
	r.Timelines[0].Server = &ServerEvents{Events: append([]ServerEvent{{Kind: "gc", AtMillis: 3000, DurationMillis: 900}}, spikeEvents.Events...)}
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(f, FormatHTML, r); err != nil {
		t.Fatal(err)
	}
	f.Close()
	img := screenshot(t, bin, page, 5000)
	for _, c := range []struct {
		what string
		hex  string
		min  int
	}{
		{"GC pauses (purple)", "#8250df", 100},
		{"flush (blue)", "#0969da", 10},
		{"region opened (teal)", "#1b7c83", 10},
		{"p99 line", colP99, 100},
		{"max line", colMax, 100},
	} {
		if n := countColour(img, c.hex); n < c.min {
			t.Errorf("%s (%s): %d pixels in the screenshot, want at least %d", c.what, c.hex, n, c.min)
		}
	}
}

// TestJSONTimelines: the JSON report carries each drawn trial's intervals
// and server events as data, and a trial without a server timeline says so.
func TestJSONTimelines(t *testing.T) {
	r := fullReport()
	r.Timelines = []TrialTimeline{spikeTimeline(spikeEvents), spikeTimeline(nil)}
	var b bytes.Buffer
	if err := Render(&b, FormatJSON, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Timelines []jsonTimeline `json:"timelines"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Timelines) != 2 {
		t.Fatalf("%d timelines, want 2", len(got.Timelines))
	}
	first := got.Timelines[0]
	if first.TrialID != "r-workloada-p02" || first.Pair != 2 || len(first.Intervals) != 10 || first.Intervals[5].P99Micros != 190000 {
		t.Errorf("first timeline %+v", first)
	}
	if len(first.Events) != 3 || first.Events[1].Kind != "gc" || first.Events[1].AtMillis != 5100 || first.Events[1].DurationMillis != 180 || first.OmittedGCs != 3 || first.Note != "" {
		t.Errorf("first timeline's events %+v, omitted %d, note %q", first.Events, first.OmittedGCs, first.Note)
	}
	if second := got.Timelines[1]; len(second.Events) != 0 || !strings.Contains(second.Note, "server timeline not available") {
		t.Errorf("second timeline events %+v, note %q", second.Events, second.Note)
	}
	var none bytes.Buffer
	if err := Render(&none, FormatJSON, fullReport()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(none.String(), `"timelines"`) {
		t.Error("a report without timelines has a timelines key")
	}
}

// countedEvents is a window on two servers read through /jmx: their
// collections and flushes counted at the edges, each collector's last
// collection placed.
var countedEvents = &ServerEvents{
	Events:  []ServerEvent{{Kind: "gc", AtMillis: 5100, DurationMillis: 180, Server: "rs1", Detail: "G1 Young Generation, the last of its 7 collections in the window (LastGcInfo; the others counted, not placed)"}},
	Counted: []ServerCounted{{Server: "rs1", GCs: 7, GCMillis: 240, Flushes: 2}, {Server: "rs2", GCs: 5, GCMillis: 100, Compactions: 1}},
}

// TestCountedTimeline: a trial whose servers were read through /jmx draws
// the placed collection, says in the lanes what is counted and not
// placed, and its note gives the counts in every format; a trial without
// a timeline still says it has none.
func TestCountedTimeline(t *testing.T) {
	const gcNote = "GC: 12 collections, 340 ms (JMX, counted at the window's edges): rs1 7, 240 ms; rs2 5, 100 ms"
	svg := timelineSVG(spikeTimeline(countedEvents))
	for _, w := range []string{`fill="#8250df"><title>GC pause at 5.100 s, 180 ms on rs1: G1 Young Generation`, "GC (1 of 12)", "flush (2)", "compaction (1)",
		"counted at the window&#39;s edges, not placed", "the rest counted at the window&#39;s edges, not placed", "not read through /jmx"} {
		if !strings.Contains(svg, w) {
			t.Errorf("SVG lacks %q", w)
		}
	}
	note := countedNote(countedEvents)
	for _, w := range []string{gcNote, "Flushes 2, compactions 1, splits 0 (regionserver metrics, counted at the edges, not placed)",
		"each collector's last collection in the window (LastGcInfo); earlier collections in the window are counted, not placed"} {
		if !strings.Contains(note, w) {
			t.Errorf("note %q lacks %q", note, w)
		}
	}
	if n := countedNote(&ServerEvents{Counted: []ServerCounted{{Server: "rs1", GCs: 3, GCMillis: 9}}, Events: []ServerEvent{}}); !strings.HasPrefix(n, "GC: 3 collections, 9 ms (JMX, counted at the window's edges). ") ||
		!strings.Contains(n, "No collection placed") {
		t.Errorf("one server, nothing placed: %q", n)
	}

	r := fullReport()
	r.Timelines = []TrialTimeline{spikeTimeline(countedEvents), spikeTimeline(spikeEvents), spikeTimeline(nil)}
	out := map[string]string{}
	for _, f := range []string{FormatText, FormatMarkdown, FormatHTML, FormatJSON} {
		var b bytes.Buffer
		if err := Render(&b, f, r); err != nil {
			t.Fatal(err)
		}
		out[f] = b.String()
	}
	for _, f := range []string{FormatText, FormatMarkdown} {
		s := strings.ReplaceAll(out[f], "\n    ", " ") // the terminal wraps its lines at 100 columns
		for _, w := range []string{"server events in each workload and side", "workloada candidate 2.6.2 pair 3: GC: 12 collections, 340 ms (JMX, counted at the window",
			"workloada candidate 2.6.2 pair 3: 4 GC pauses (longest 180 ms), 1 flush, 1 region opened (from the servers", "server timeline not available"} {
			if !strings.Contains(s, w) {
				t.Errorf("%s report lacks %q", f, w)
			}
		}
	}
	if h := out[FormatHTML]; !strings.Contains(h, "GC: 12 collections, 340 ms (JMX, counted at the window&#39;s edges)") || strings.Count(h, "server timeline not available") != 1 {
		t.Errorf("HTML: counted note or the one 'not available' note missing")
	}
	var got struct {
		Timelines []jsonTimeline `json:"timelines"`
	}
	if err := json.Unmarshal([]byte(out[FormatJSON]), &got); err != nil {
		t.Fatal(err)
	}
	if c := got.Timelines[0]; len(c.Counted) != 2 || c.Counted[0] != (jsonCounted{Server: "rs1", GCs: 7, GCMillis: 240, Flushes: 2}) || len(c.Events) != 1 || !strings.HasPrefix(c.Note, gcNote) {
		t.Errorf("JSON counted timeline: %+v", c)
	}
	if l := got.Timelines[1]; len(l.Counted) != 0 || l.Note != "" {
		t.Errorf("JSON logs-read timeline: counted %+v, note %q; want neither", l.Counted, l.Note)
	}

	// Without timelines the text report has no such section.
	var none bytes.Buffer
	if err := Render(&none, FormatText, fullReport()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(none.String(), "server events in each") {
		t.Error("a report without timelines lists server events")
	}
}
