package servercost

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// gcInfoServer is an info server's /jmx as HBase's JSONBean writes it,
// whose GarbageCollector beans (LastGcInfo included) and regionserver
// counts a test changes between readings; it logs every request.
type gcInfoServer struct {
	mu sync.Mutex
	// jvmStart is the instant on the test's clock the JVM's times count
	// from: Uptime is the time since, LastGcInfo's times are offsets of it.
	jvmStart   time.Time
	collectors []fakeCollector
	flushes    int64
	compacts   int64
	noUptime   bool
	requests   []jmxRequest
}

type fakeCollector struct {
	name          string
	count, millis int64
	// lastAt and last place the last collection (at is on the test's clock); zero last: none yet.
	lastAt time.Time
	last   time.Duration
}

// jmxRequest is one request the server answered: when, and its query.
type jmxRequest struct {
	at    time.Time
	query string
}

func (g *gcInfoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests = append(g.requests, jmxRequest{time.Now(), r.URL.RawQuery})
	q, get := r.URL.Query().Get("qry"), r.URL.Query().Get("get")
	var beans []string
	switch {
	case get == uptimeGet && !g.noUptime:
		beans = append(beans, fmt.Sprintf(`{"name" : "java.lang:type=Runtime", "modelerType" : "sun.management.RuntimeImpl", "Uptime" : %d}`, time.Since(g.jvmStart).Milliseconds()))
	case q == "java.lang:type=OperatingSystem":
		beans = append(beans, `{"name" : "java.lang:type=OperatingSystem", "Name" : "Linux", "ProcessCpuTime" : 5000000000}`)
	case q == "java.lang:type=Memory":
		beans = append(beans, `{"name" : "java.lang:type=Memory", "HeapMemoryUsage" : {"used" : 104857600}}`)
	case q == "java.lang:type=GarbageCollector,name=*":
		for _, c := range g.collectors {
			last := "null"
			if c.last > 0 {
				start := c.lastAt.Sub(g.jvmStart).Milliseconds()
				last = fmt.Sprintf(`{"GcThreadCount" : 2, "duration" : %d, "endTime" : %d, "id" : %d, "memoryUsageAfterGc" : [ {"key" : "G1 Eden Space", "value" : {"committed" : 1, "init" : 1, "max" : -1, "used" : 0}} ], "startTime" : %d}`,
					c.last.Milliseconds(), start+c.last.Milliseconds(), c.count, start)
			}
			beans = append(beans, fmt.Sprintf(`{"name" : "java.lang:type=GarbageCollector,name=%s", "modelerType" : "sun.management.GarbageCollectorImpl", "LastGcInfo" : %s, "CollectionCount" : %d, "CollectionTime" : %d, "Name" : %q, "Valid" : true}`,
				c.name, last, c.count, c.millis, c.name))
		}
	case q == "Hadoop:service=HBase,name=RegionServer,sub=Server":
		beans = append(beans, fmt.Sprintf(`{"name" : "Hadoop:service=HBase,name=RegionServer,sub=Server", "FlushTime_num_ops" : %d, "CompactionTime_num_ops" : %d, "SplitTime_num_ops" : 0}`, g.flushes, g.compacts))
	case q == threadingQuery:
		beans = append(beans, `{"name" : "java.lang:type=Threading", "TotalThreadAllocatedBytes" : 1073741824}`)
	default:
		http.Error(w, "unknown query "+r.URL.RawQuery, http.StatusBadRequest)
		return
	}
	fmt.Fprintf(w, "{\n  \"beans\" : [ %s ]\n}", strings.Join(beans, ", "))
}

// collect records n collections of collector i taking d in all, the last
// one of last length beginning at the test clock's at.
func (g *gcInfoServer) collect(i int, n int64, d time.Duration, at time.Time, last time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := &g.collectors[i]
	c.count += n
	c.millis += d.Milliseconds()
	c.lastAt, c.last = at, last
}

// taken is the requests answered so far.
func (g *gcInfoServer) taken() []jmxRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]jmxRequest(nil), g.requests...)
}

func newGCInfoServer(t *testing.T) (*gcInfoServer, Server) {
	t.Helper()
	g := &gcInfoServer{jvmStart: time.Now().Add(-time.Hour), flushes: 4, compacts: 1}
	g.collectors = []fakeCollector{{name: "G1 Young Generation", count: 7, millis: 40}, {name: "G1 Old Generation"}}
	g.collectors[0].lastAt, g.collectors[0].last = time.Now().Add(-time.Minute), 5*time.Millisecond
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, Server{Name: "rs1", JMX: strings.TrimPrefix(srv.URL, "http://")}
}

// TestGCWindowThroughJMX: a server read through /jmx gives its window's
// collections and their time from the GarbageCollector beans read at the
// two edges, its flushes and compactions from its regionserver metrics,
// and one event per collector that collected, its last collection placed
// on this machine's clock through the JVM's Uptime; the GC beans come in
// the one request they always came in, the Uptime in one small one more.
func TestGCWindowThroughJMX(t *testing.T) {
	g, s := newGCInfoServer(t)
	a, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	perReading := len(g.taken())
	// In the window: 5 young collections (55 ms), the last 12 ms long;
	// one full collection of 30 ms; 2 flushes and a compaction.
	youngAt, oldAt := time.Now().Add(-40*time.Millisecond), time.Now().Add(-20*time.Millisecond)
	g.collect(0, 5, 55*time.Millisecond, youngAt, 12*time.Millisecond)
	g.collect(1, 1, 30*time.Millisecond, oldAt, 30*time.Millisecond)
	g.mu.Lock()
	g.flushes, g.compacts = g.flushes+2, g.compacts+1
	g.mu.Unlock()
	b, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	reqs := g.taken()
	if len(reqs) != 2*perReading {
		t.Errorf("%d requests for two readings, want %d each", len(reqs), perReading)
	}
	gcQueries, uptimes := 0, 0
	for _, r := range reqs {
		if strings.Contains(r.query, "GarbageCollector") {
			gcQueries++
		}
		if strings.HasPrefix(r.query, "get=") {
			uptimes++
		}
	}
	// The five beans' queries, the Uptime and the agent's bean (absent here).
	if perReading != len(jmxQueries)+2 || gcQueries != 2 || uptimes != 2 {
		t.Errorf("a reading took %d requests, %d GC queries and %d Uptimes in two readings; want %d, 2 and 2", perReading, gcQueries, uptimes, len(jmxQueries)+2)
	}
	c := s.Since(a, b)
	if got := len(g.taken()); got != len(reqs) {
		t.Errorf("Since asked the server %d more times, want none", got-len(reqs))
	}
	if c.GCs != 6 || c.GCPause != 85*time.Millisecond || c.Events.Flushes != 2 || c.Events.Compactions != 1 {
		t.Errorf("window: %d GCs in %v, %+v; want 6 in 85ms, 2 flushes, 1 compaction", c.GCs, c.GCPause, c.Events)
	}
	if !c.TimelineCounted || c.TimelineRead {
		t.Errorf("timeline counted %v, read %v; want counted through /jmx, not read from logs", c.TimelineCounted, c.TimelineRead)
	}
	if len(c.Timeline) != 2 {
		t.Fatalf("events %+v, want each collector's last collection", c.Timeline)
	}
	for i, w := range []struct {
		at     time.Time
		d      time.Duration
		detail string
	}{
		{youngAt, 12 * time.Millisecond, "G1 Young Generation, the last of its 5 collections in the window (LastGcInfo; the others counted, not placed)"},
		{oldAt, 30 * time.Millisecond, "G1 Old Generation (LastGcInfo)"},
	} {
		e := c.Timeline[i]
		// Placed through Uptime: off by the Uptime request's half round trip and the ms the beans count in.
		if off := e.At.Sub(w.at); off < -10*time.Millisecond || off > 10*time.Millisecond || e.Kind != EventGC || e.Duration != w.d || e.Server != "rs1" || e.Detail != w.detail {
			t.Errorf("event %d: %+v (%v off), want a %v collection at %v: %q", i, e, off, w.d, w.at.Format(time.RFC3339Nano), w.detail)
		}
	}
	if tl, ok := MergeTimelines([]Cost{c}); !ok || len(tl) != 2 || tl[0].At.After(tl[1].At) {
		t.Errorf("merged: %+v %v, want the two collections in time order", tl, ok)
	}
	// A window in which nothing collected places nothing and counts none.
	b2, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	if q := s.Since(b, b2); q.GCs != 0 || len(q.Timeline) != 0 || !q.TimelineCounted {
		t.Errorf("a quiet window: %d GCs, events %+v, counted %v; want none, none, true", q.GCs, q.Timeline, q.TimelineCounted)
	}
}

// TestGCWindowWithoutUptime: an info server that does not answer the
// JVM's Uptime still gives the window's counts; nothing is placed.
func TestGCWindowWithoutUptime(t *testing.T) {
	g, s := newGCInfoServer(t)
	g.noUptime = true
	a, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	g.collect(0, 3, 21*time.Millisecond, time.Now(), 7*time.Millisecond)
	b, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Since(a, b); c.GCs != 3 || c.GCPause != 21*time.Millisecond || len(c.Timeline) != 0 || !c.TimelineCounted {
		t.Errorf("window %+v: want 3 GCs in 21ms counted, none placed", c)
	}
}

// TestLastGcInfoDecoded: LastGcInfo as JSONBean writes a GcInfo (its
// memory usage maps as arrays), null before a collector's first
// collection, and a bean whose Name is missing named from its ObjectName.
func TestLastGcInfoDecoded(t *testing.T) {
	for _, tc := range []struct {
		bean string
		want collector
	}{
		{`{"name" : "java.lang:type=GarbageCollector,name=G1 Young Generation", "Name" : "G1 Young Generation", "CollectionCount" : 9, "CollectionTime" : 71,
			"LastGcInfo" : {"GcThreadCount" : 4, "duration" : 6, "endTime" : 90006, "id" : 9, "memoryUsageAfterGc" : [ {"key" : "G1 Old Gen", "value" : {"used" : 5}} ], "memoryUsageBeforeGc" : [ ], "startTime" : 90000}}`,
			collector{name: "G1 Young Generation", count: 9, millis: 71, last: &lastGC{ID: 9, StartTime: 90000, Duration: 6}}},
		{`{"name" : "java.lang:type=GarbageCollector,name=G1 Old Generation", "CollectionCount" : 0, "CollectionTime" : 0, "LastGcInfo" : null}`,
			collector{name: "G1 Old Generation"}},
	} {
		var b jmxBean
		if err := json.Unmarshal([]byte(tc.bean), &b); err != nil {
			t.Fatal(err)
		}
		got := collectorOf(b)
		if got.name != tc.want.name || got.count != tc.want.count || got.millis != tc.want.millis || (got.last == nil) != (tc.want.last == nil) ||
			(got.last != nil && *got.last != *tc.want.last) {
			t.Errorf("%s: %+v (last %+v), want %+v (last %+v)", tc.want.name, got, got.last, tc.want, tc.want.last)
		}
	}
}

// TestLastCollectionsOnlyInTheWindow: a LastGcInfo whose id is a's count
// or less happened before the window; a JVM that restarted between the
// readings places nothing; a collector new in b is not placed.
func TestLastCollectionsOnlyInTheWindow(t *testing.T) {
	now := time.Now()
	clock := &jvmClock{uptime: time.Hour, at: now}
	a := Reading{collectors: []collector{{name: "young", count: 5}}, jvm: clock}
	for _, tc := range []struct {
		name string
		b    Reading
		want int
	}{
		{"a collection in the window", Reading{collectors: []collector{{name: "young", count: 6, last: &lastGC{ID: 6, StartTime: 3599_000, Duration: 4}}}, jvm: clock}, 1},
		{"the count moved, LastGcInfo did not", Reading{collectors: []collector{{name: "young", count: 6, last: &lastGC{ID: 5, StartTime: 3500_000, Duration: 4}}}, jvm: clock}, 0},
		{"restarted", Reading{collectors: []collector{{name: "young", count: 9, last: &lastGC{ID: 9, StartTime: 50, Duration: 4}}}, jvm: &jvmClock{uptime: time.Second, at: now}}, 0},
		{"a collector a did not have", Reading{collectors: []collector{{name: "old", count: 1, last: &lastGC{ID: 1, StartTime: 3599_000}}}, jvm: clock}, 0},
		{"no Uptime", Reading{collectors: []collector{{name: "young", count: 6, last: &lastGC{ID: 6, StartTime: 3599_000}}}}, 0},
	} {
		got := lastCollections("rs", a, tc.b)
		if len(got) != tc.want {
			t.Errorf("%s: %+v, want %d events", tc.name, got, tc.want)
		}
		if len(got) == 1 && !got[0].At.Equal(now.Add(-time.Second)) {
			t.Errorf("%s: at %v, want a second before the reading", tc.name, got[0].At)
		}
	}
}
