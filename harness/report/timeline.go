package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// TrialTimeline is one trial's latency over its measurement window and
// what its region servers did meanwhile, drawn one above the other on the
// same time axis so a reader sees whether a tail spike is a GC pause.
type TrialTimeline struct {
	Workload string
	// Side is "baseline" or "candidate"; Name the side's version or label.
	Side, Name string
	TrialID    string
	Pair       int
	// WindowMillis is the measurement window's length.
	WindowMillis float64
	// Intervals are the trial's latency by interval of its log (intended
	// latency, every operation); empty when its log could not be read.
	Intervals []LatencyInterval
	// Server is the servers' timeline (for servers read through /jmx, what
	// they counted and each collector's last collection); nil when not
	// available (results stored before timelines, logs not read).
	Server *ServerEvents
	// Why says why the trial was chosen ("the highest interval p99 of 5 trials").
	Why string
}

// ServerEvents are what a trial's region servers did in its window, in time
// order (the stored results.ServerTimeline, as the report draws it).
type ServerEvents struct {
	Events []ServerEvent
	// OmittedGCs counts the short GC pauses the stored timeline left out.
	OmittedGCs int
	// Counted is, per server read through /jmx, what its beans counted
	// between the window's edges; Events then hold only each collector's
	// last collection. Empty where the servers' logs were read.
	Counted []ServerCounted
}

// ServerCounted is what one server read through /jmx counted in a window
// (results.ServerCounted, as the report draws it).
type ServerCounted struct {
	Server string
	// GCs and GCMillis are its collections and their time.
	GCs, GCMillis int64
	// Flushes, Compactions and Splits are its regionserver metrics' counts.
	Flushes, Compactions, Splits int
}

// ServerEvent is one GC pause, flush, compaction, split or region opened.
type ServerEvent struct {
	// Kind is "gc", "flush", "compaction", "split" or "move".
	Kind string
	// AtMillis is when it began, from the window's start; DurationMillis its length (0 unknown).
	AtMillis, DurationMillis float64
	// Server names the region server; Detail is its log line's words.
	Server, Detail string
}

// LatencyInterval is one interval of a trial's latency log.
type LatencyInterval struct {
	// StartMillis and EndMillis are from the measurement window's start.
	StartMillis, EndMillis float64
	// P99Micros and MaxMicros are the interval's 99th percentile and maximum; Count its operations.
	P99Micros, MaxMicros float64
	Count                int64
}

// Event kinds' colours and lanes, top to bottom under the latency plot.
var eventLanes = []struct {
	kind, label, colour string
}{
	{"gc", "GC pause", "#8250df"},
	{"flush", "flush", "#0969da"},
	{"compaction", "compaction", "#bc4c00"},
	{"split", "split", "#cf222e"},
	{"move", "region opened", "#1b7c83"},
}

// colP99, colMax draw the latency lines.
const colP99, colMax = "#24292f", "#afb8c1"

// timelineNote is what a trial without a server timeline says instead of an empty lane.
const timelineNote = "server timeline not available: the trial was stored before timelines were recorded (for a cluster given by --*-zk, before its /jmx counts were kept with them), or its region servers' logs could not be read"

// htmlTimeline is one figure of the HTML report's timeline section.
type htmlTimeline struct {
	Title string
	SVG   template.HTML
	Note  string
}

func htmlTimelines(ts []TrialTimeline) []htmlTimeline {
	var out []htmlTimeline
	for _, t := range ts {
		title := fmt.Sprintf("%s · %s %s · pair %d", t.Workload, t.Side, t.Name, t.Pair+1)
		h := htmlTimeline{Title: title, SVG: template.HTML(timelineSVG(t))}
		h.Note = timelineNoteOf(t)
		if t.Why != "" {
			h.Title += " (" + t.Why + ")"
		}
		out = append(out, h)
	}
	return out
}

// timelineSVG draws a trial's p99 and maximum latency by interval on a log
// axis and, under it on the same time axis, one lane per kind of server
// event: a GC pause as wide as it lasted (at least a hairline), the
// others as ticks. Every text node is escaped.
func timelineSVG(t TrialTimeline) string {
	const W, left, right, top, plotH, laneH, gap = 640.0, 96.0, 16.0, 24.0, 150.0, 16.0, 26.0
	lanes := eventLanes
	if t.Server == nil {
		lanes = nil
	}
	H := top + plotH + gap + float64(len(lanes))*laneH + 28
	win := t.WindowMillis
	for _, iv := range t.Intervals {
		win = math.Max(win, iv.EndMillis)
	}
	if win <= 0 {
		win = 1
	}
	pw := W - left - right
	sx := func(ms float64) float64 { return left + math.Min(math.Max(ms, 0), win)/win*pw }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		W, H, W, H, html.EscapeString(t.Workload+" "+t.Side+" latency over the window and server events"))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" stroke="#d0d7de"/>`, left, top, pw, plotH)
	ymin, ymax := math.Inf(1), 0.0
	for _, iv := range t.Intervals {
		for _, v := range []float64{iv.P99Micros, iv.MaxMicros} {
			if v > 0 {
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
	}
	if ymax > 0 {
		lo, hi := decades(ymin, ymax)
		sy := func(v float64) float64 {
			return top + plotH - (math.Log10(math.Max(v, lo))-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))*plotH
		}
		for _, y := range logTicks(lo, hi) {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, left, sy(y), left+pw, sy(y))
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, sy(y)+4, html.EscapeString(value(y, metric.Micros)))
		}
		for _, s := range []struct {
			colour string
			v      func(LatencyInterval) float64
			name   string
		}{{colMax, func(iv LatencyInterval) float64 { return iv.MaxMicros }, "max"}, {colP99, func(iv LatencyInterval) float64 { return iv.P99Micros }, "p99"}} {
			var pts []string
			for _, iv := range t.Intervals {
				if s.v(iv) > 0 {
					pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx((iv.StartMillis+iv.EndMillis)/2), sy(s.v(iv))))
				}
			}
			if len(pts) > 0 {
				fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), s.colour)
			}
			for _, iv := range t.Intervals {
				if s.v(iv) > 0 {
					fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s</title></circle>`, sx((iv.StartMillis+iv.EndMillis)/2), sy(s.v(iv)), s.colour,
						html.EscapeString(fmt.Sprintf("%.1f-%.1f s: %s %s over %d ops", iv.StartMillis/1e3, iv.EndMillis/1e3, s.name, value(s.v(iv), metric.Micros), iv.Count)))
				}
			}
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="6" width="14" height="3" fill="%s"/><text x="%.1f" y="12">p99 by interval</text>`, left, colP99, left+18)
		fmt.Fprintf(&b, `<rect x="%.1f" y="6" width="14" height="3" fill="%s"/><text x="%.1f" y="12">max</text>`, left+130, colMax, left+148)
	} else {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">no interval log for this trial</text>`, left+pw/2, top+plotH/2)
	}
	// The time axis, shared by the plot and the lanes.
	laneTop := top + plotH + gap
	axisY := laneTop + float64(len(lanes))*laneH
	step := niceStep(win / 1e3)
	for s := 0.0; s <= win/1e3+1e-9; s += step {
		x := sx(s * 1e3)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eaeef2"/>`, x, top, x, axisY)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s s</text>`, x, axisY+14, html.EscapeString(trimFloat(s)))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">time in the measurement window</text>`, left+pw/2, top+plotH+16)
	if t.Server == nil {
		b.WriteString(`</svg>`)
		return b.String()
	}
	counts := map[string]int{}
	for _, e := range t.Server.Events {
		counts[e.Kind]++
	}
	counted := t.Server.counted()
	for i, l := range lanes {
		y := laneTop + float64(i)*laneH
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#eaeef2"/>`, left, y, pw, laneH, map[bool]string{true: "#f6f8fa", false: "#fff"}[i%2 == 0])
		label := fmt.Sprintf("%s (%d)", l.label, counts[l.kind])
		if l.kind == "gc" && t.Server.OmittedGCs > 0 {
			label = fmt.Sprintf("GC (%d+%d)", counts[l.kind], t.Server.OmittedGCs)
		}
		// Servers read through /jmx: counts between the edges, and only
		// each collector's last collection placed; the lane says which.
		inLane := ""
		if len(t.Server.Counted) > 0 {
			switch l.kind {
			case "gc":
				label = fmt.Sprintf("GC (%d of %d)", counts[l.kind], counted.GCs)
				if counted.GCs > int64(counts[l.kind]) {
					inLane = "the rest counted at the window's edges, not placed"
				}
			case "flush", "compaction", "split":
				label = fmt.Sprintf("%s (%d)", l.label, map[string]int{"flush": counted.Flushes, "compaction": counted.Compactions, "split": counted.Splits}[l.kind])
				inLane = "counted at the window's edges, not placed"
			case "move":
				label = l.label
				inLane = "not read through /jmx"
			}
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, y+laneH-4, html.EscapeString(label))
		if inLane != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" style="fill:#6e7781">%s</text>`, left+pw/2, y+laneH-4, html.EscapeString(inLane))
		}
		for _, e := range t.Server.Events {
			if e.Kind != l.kind || e.AtMillis > win {
				continue
			}
			x0 := sx(e.AtMillis)
			w := math.Max(sx(e.AtMillis+e.DurationMillis)-x0, 2)
			tip := fmt.Sprintf("%s at %.3f s", l.label, e.AtMillis/1e3)
			if e.DurationMillis > 0 {
				tip += fmt.Sprintf(", %s", value(e.DurationMillis*1e3, metric.Micros))
			}
			if e.Server != "" {
				tip += " on " + e.Server
			}
			if e.Detail != "" {
				tip += ": " + e.Detail
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`, x0, y+2, w, laneH-4, l.colour, html.EscapeString(tip))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// niceStep is a 1, 2 or 5 times a power of ten that cuts span into 4-10 steps.
func niceStep(span float64) float64 {
	if span <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(span/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(m*p) <= 10 {
			return m * p
		}
	}
	return 10 * p
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

// counted is the servers' counts added up.
func (s *ServerEvents) counted() ServerCounted {
	var t ServerCounted
	if s == nil {
		return t
	}
	for _, c := range s.Counted {
		t.GCs += c.GCs
		t.GCMillis += c.GCMillis
		t.Flushes += c.Flushes
		t.Compactions += c.Compactions
		t.Splits += c.Splits
	}
	return t
}

// timelineNoteOf is what a drawn trial says under its lanes: why there are
// none, what servers read through /jmx counted, or nothing (logs read).
func timelineNoteOf(t TrialTimeline) string {
	switch {
	case t.Server == nil:
		return timelineNote
	case len(t.Server.Counted) > 0:
		return countedNote(t.Server)
	}
	return ""
}

// countedNote says what servers read through /jmx counted between a
// window's edges, per server where there are several, and what of it the
// timeline places: each collector's last collection, nothing else.
func countedNote(s *ServerEvents) string {
	t := s.counted()
	var b strings.Builder
	fmt.Fprintf(&b, "GC: %d collections, %d ms (JMX, counted at the window's edges)", t.GCs, t.GCMillis)
	if len(s.Counted) > 1 {
		per := make([]string, 0, len(s.Counted))
		for _, c := range s.Counted {
			per = append(per, fmt.Sprintf("%s %d, %d ms", c.Server, c.GCs, c.GCMillis))
		}
		fmt.Fprintf(&b, ": %s", strings.Join(per, "; "))
	}
	fmt.Fprintf(&b, ". Flushes %d, compactions %d, splits %d (regionserver metrics, counted at the edges, not placed). ", t.Flushes, t.Compactions, t.Splits)
	placed := 0
	for _, e := range s.Events {
		if e.Kind == "gc" {
			placed++
		}
	}
	switch {
	case t.GCs == 0:
		b.WriteString("No collection in the window.")
	case placed == 0:
		b.WriteString("No collection placed (the GC beans' LastGcInfo or the JVM's Uptime not read): every one is counted, not placed.")
	default:
		b.WriteString("On the timeline: each collector's last collection in the window (LastGcInfo); earlier collections in the window are counted, not placed.")
	}
	b.WriteString(" Regions opened are not read through /jmx.")
	return b.String()
}

// timelinesHeading introduces the text and Markdown lines of the drawn trials' server events.
const timelinesHeading = "server events in each workload and side's trial with the highest one-interval p99 (the HTML report draws them under its latency):"

// timelineLines says, per drawn trial, what its servers did in the window:
// the events placed by kind, what servers read through /jmx counted, or
// why there is no timeline; one line each, the same in text and Markdown.
func timelineLines(ts []TrialTimeline) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		what := timelineNoteOf(t)
		if what == "" {
			what = placedSummary(t.Server)
		}
		out = append(out, fmt.Sprintf("%s %s %s pair %d: %s", t.Workload, t.Side, t.Name, t.Pair+1, what))
	}
	return out
}

// plurals name several events of a kind.
var plurals = map[string]string{"gc": "GC pauses", "flush": "flushes", "compaction": "compactions", "split": "splits", "move": "regions opened"}

// placedSummary counts a logs-read timeline's events by kind, with the longest GC pause.
func placedSummary(s *ServerEvents) string {
	n := map[string]int{}
	longest := 0.0
	for _, e := range s.Events {
		n[e.Kind]++
		if e.Kind == "gc" {
			longest = math.Max(longest, e.DurationMillis)
		}
	}
	var parts []string
	for _, l := range eventLanes {
		c := n[l.kind]
		if l.kind == "gc" {
			c += s.OmittedGCs
		}
		if c == 0 {
			continue
		}
		p := fmt.Sprintf("%d %s", c, l.label)
		if c > 1 {
			p = fmt.Sprintf("%d %s", c, plurals[l.kind])
		}
		if l.kind == "gc" {
			p += fmt.Sprintf(" (longest %s)", value(longest*1e3, metric.Micros))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "no GC pause, flush, compaction, split or region opened in the window (from the servers' GC logs and logs)"
	}
	return strings.Join(parts, ", ") + " (from the servers' GC logs and logs)"
}
