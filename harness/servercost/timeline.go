package servercost

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EventKind names what a region server did at one instant of a window.
type EventKind string

// The kinds of a server timeline's events.
const (
	// EventGC is a stop-the-world collection, from the unified GC log.
	EventGC EventKind = "gc"
	// EventFlush is a memstore flush finished, from the server's log.
	EventFlush EventKind = "flush"
	// EventCompaction is a compaction finished.
	EventCompaction EventKind = "compaction"
	// EventSplit is a region split finished.
	EventSplit EventKind = "split"
	// EventMove is a region opened on the server: a move, a reassignment
	// or a split's daughter arriving (HBase 2.x's AssignRegionHandler).
	EventMove EventKind = "move"
)

// Event is one thing a region server did in a window, where it can be
// placed against the load's latency.
type Event struct {
	Kind EventKind
	// At is when it began: a GC pause's end stamp less its length; for a
	// log line, the line's stamp (HBase logs a flush or compaction when it
	// finishes; Duration, when the line says it, places its start).
	At time.Time
	// Duration is the pause's length, or the flush's as the log says it; 0 when not known.
	Duration time.Duration
	// Server names the region server (Server.Name).
	Server string
	// Detail is the line's own words, shortened ("Pause Young (Normal) (G1 Evacuation Pause)").
	Detail string
}

var (
	// "[1796182731308ms][gc     ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 18M->11M(380M) 15.913ms",
	// stamped (GCLogOptions' timemillis) when the pause ends. Concurrent
	// phases ("Concurrent Mark Cycle 54.614ms") do not stop the application
	// and are not matched.
	gcPauseLine = regexp.MustCompile(`^\[(\d+)ms\](?:\[[^\]]*\])*\s*GC\(\d+\) (Pause .*?) (?:\S+->\S+ )?(\d+(?:\.\d+)?)ms$`)
	// HBase's log4j2 ISO8601 stamp in the JVM's time zone: "2026-12-02T03:39:09,382" (2.6) or "2026-12-02 03:39:09,382".
	logStamp = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}),(\d{3}) `)
	// "Finished flush of dataSize ~3.69 MB/3872360, ... for d2f2... in 327ms, sequenceid=24, ..."
	flushTook = regexp.MustCompile(` in (\d+)ms,`)
	// "handler.AssignRegionHandler: Opened regress_seed_86132b0284ab,user3094496095915573188,1796182747516.db8b7...."
	moveLine = regexp.MustCompile(`AssignRegionHandler: Opened `)
)

// maxDetail bounds an event's Detail, so a long log line does not bloat the manifest.
const maxDetail = 120

// gcPauses lists the stop-the-world pauses in a stretch of a GC log written
// with GCLogOptions.
func gcPauses(log []byte, server string) []Event {
	var out []Event
	for line := range bytes.Lines(log) {
		m := gcPauseLine.FindSubmatch(bytes.TrimRight(line, "\r\n"))
		if m == nil {
			continue
		}
		endMs, err1 := strconv.ParseInt(string(m[1]), 10, 64)
		ms, err2 := strconv.ParseFloat(string(m[3]), 64)
		if err1 != nil || err2 != nil {
			continue
		}
		d := time.Duration(ms * float64(time.Millisecond))
		out = append(out, Event{Kind: EventGC, At: time.UnixMilli(endMs).Add(-d), Duration: d, Server: server, Detail: shorten(string(m[2]))})
	}
	return out
}

// logEvents lists the flushes, compactions, splits and region openings in a
// stretch of a region server's log, stamped in loc (the JVM's time zone).
func logEvents(log []byte, server string, loc *time.Location) []Event {
	var out []Event
	for line := range bytes.Lines(log) {
		var kind EventKind
		switch {
		case flushLine.Match(line):
			kind = EventFlush
		case compactionLine.Match(line):
			kind = EventCompaction
		case splitLine.Match(line):
			kind = EventSplit
		case moveLine.Match(line):
			kind = EventMove
		default:
			continue
		}
		m := logStamp.FindSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04:05.000", string(m[1])+" "+string(m[2])+"."+string(m[3]), loc)
		if err != nil {
			continue
		}
		e := Event{Kind: kind, At: at, Server: server, Detail: shorten(logMessage(string(bytes.TrimRight(line, "\r\n"))))}
		if kind == EventFlush {
			if t := flushTook.FindSubmatch(line); t != nil {
				if n, err := strconv.ParseInt(string(t[1]), 10, 64); err == nil {
					e.Duration = time.Duration(n) * time.Millisecond
					e.At = at.Add(-e.Duration)
				}
			}
		}
		out = append(out, e)
	}
	return out
}

// logMessage is a log line's message: what follows "class: " after the
// thread's bracket.
func logMessage(line string) string {
	if i := strings.Index(line, "] "); i >= 0 {
		line = line[i+2:]
		if j := strings.Index(line, ": "); j >= 0 {
			line = line[j+2:]
		}
	}
	return line
}

func shorten(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxDetail {
		return s
	}
	cut := maxDetail
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// timeline lists what s did between readings a and b, from its GC log and
// its own log; ok is false when s keeps neither here (a server read
// through /jmx), so a caller can tell "nothing happened" from "not known".
func (s Server) timeline(a, b Reading) (events []Event, ok bool) {
	if a.jmx != nil || b.jmx != nil || (s.GCLog == "" && s.Log == "") {
		return nil, false
	}
	if s.GCLog != "" {
		log, err := readRange(s.GCLog, a.gcLogAt, b.gcLogAt)
		if err != nil {
			return nil, false
		}
		events = append(events, gcPauses(log, s.Name)...)
	}
	if s.Log != "" {
		log, err := readRange(s.Log, a.logAt, b.logAt)
		if err != nil {
			return nil, false
		}
		events = append(events, logEvents(log, s.Name, time.Local)...)
	}
	return events, true
}

// MergeTimelines joins the servers' timelines of one window in time order;
// ok is false when any server's was neither read from its logs
// (Cost.TimelineRead) nor counted through /jmx (Cost.TimelineCounted).
func MergeTimelines(cs []Cost) (events []Event, ok bool) {
	if len(cs) == 0 {
		return nil, false
	}
	for _, c := range cs {
		if !c.TimelineRead && !c.TimelineCounted {
			return nil, false
		}
		events = append(events, c.Timeline...)
	}
	slices.SortStableFunc(events, func(x, y Event) int { return cmp.Compare(x.At.UnixNano(), y.At.UnixNano()) })
	return events, true
}
