package servercost

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// uptimeGet asks the Runtime bean for its Uptime alone (/jmx's get=bean::attr):
// the whole bean carries the class path and system properties, tens of kB.
const uptimeGet = "java.lang:type=Runtime::Uptime"

// collector is one GarbageCollector bean of a /jmx reading.
type collector struct {
	name string
	// count and time are CollectionCount and CollectionTime (ms) so far.
	count, millis int64
	// last is the bean's LastGcInfo; nil before the collector's first collection.
	last *lastGC
}

// lastGC is the part of a GarbageCollector bean's LastGcInfo (a GcInfo
// CompositeData) that places the collection: its times are milliseconds
// since the JVM started, the base the Runtime bean's Uptime counts from.
type lastGC struct {
	ID        int64 `json:"id"`
	StartTime int64 `json:"startTime"`
	Duration  int64 `json:"duration"`
}

// collectorOf reads one GarbageCollector bean.
func collectorOf(b jmxBean) collector {
	c := collector{count: b.int("CollectionCount"), millis: b.int("CollectionTime")}
	if err := json.Unmarshal(b["Name"], &c.name); err != nil || c.name == "" {
		var on string
		_ = json.Unmarshal(b["name"], &on)
		if _, after, ok := strings.Cut(on, "name="); ok {
			c.name = after
		}
	}
	var g lastGC
	if raw, ok := b["LastGcInfo"]; ok && json.Unmarshal(raw, &g) == nil && (g.ID > 0 || g.StartTime > 0 || g.Duration > 0) {
		c.last = &g
	}
	return c
}

// jvmClock maps the JVM's own clock (ms since it started) onto this
// machine's: Uptime as read, and when, halfway through the request, so a
// server's wall clock (which may be off ours) never enters.
type jvmClock struct {
	uptime time.Duration
	at     time.Time
}

// wall is the instant on this machine's clock of sinceStart on the JVM's.
func (c jvmClock) wall(sinceStart time.Duration) time.Time { return c.at.Add(sinceStart - c.uptime) }

// readUptime reads the JVM's Uptime; nil when the info server does not
// answer it (the counts stand, nothing is placed).
func readUptime(ctx context.Context, client *http.Client, addr string) *jvmClock {
	sent := time.Now()
	beans, err := getJMX(ctx, client, addr, "get", uptimeGet)
	if err != nil || len(beans) == 0 {
		return nil
	}
	if _, ok := beans[0]["Uptime"]; !ok {
		return nil
	}
	back := time.Now()
	return &jvmClock{uptime: time.Duration(beans[0].int("Uptime")) * time.Millisecond, at: sent.Add(back.Sub(sent) / 2)}
}

// lastCollections places, for each collector that collected between
// readings a and b, its last collection (b's LastGcInfo) on this machine's
// clock through b's Uptime: one event per collector, the earlier
// collections of the window counted (Cost.GCs) but not placed. None when
// b has no Uptime, or the JVM restarted between the readings.
func lastCollections(server string, a, b Reading) []Event {
	if b.jvm == nil || (a.jvm != nil && b.jvm.uptime < a.jvm.uptime) {
		return nil
	}
	before := make(map[string]int64, len(a.collectors))
	for _, c := range a.collectors {
		before[c.name] = c.count
	}
	var out []Event
	for _, c := range b.collectors {
		was, ok := before[c.name]
		n := c.count - was
		// LastGcInfo's id numbers the collector's collections: one at or
		// below a's count happened before the window.
		if !ok || n <= 0 || c.last == nil || (c.last.ID > 0 && c.last.ID <= was) {
			continue
		}
		detail := c.name + " (LastGcInfo)"
		if n > 1 {
			detail = fmt.Sprintf("%s, the last of its %d collections in the window (LastGcInfo; the others counted, not placed)", c.name, n)
		}
		out = append(out, Event{Kind: EventGC, At: b.jvm.wall(time.Duration(c.last.StartTime) * time.Millisecond),
			Duration: time.Duration(c.last.Duration) * time.Millisecond, Server: server, Detail: shorten(detail)})
	}
	return out
}
