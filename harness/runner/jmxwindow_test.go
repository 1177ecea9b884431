package runner

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// windowInfoServer answers /jmx as an HBase region server's info server
// does, with collections and flushes a test adds, and logs when each
// request came.
type windowInfoServer struct {
	mu       sync.Mutex
	jvmStart time.Time
	young    int64 // collections so far; youngMs their time
	youngMs  int64
	lastAt   time.Time // the last collection's start (test clock) and length
	lastMs   int64
	flushes  int64
	times    []time.Time
}

func (g *windowInfoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.times = append(g.times, time.Now())
	q := r.URL.Query()
	var bean string
	switch qry := q.Get("qry"); {
	case q.Get("get") == "java.lang:type=Runtime::Uptime":
		bean = fmt.Sprintf(`{"name" : "java.lang:type=Runtime", "Uptime" : %d}`, time.Since(g.jvmStart).Milliseconds())
	case qry == "java.lang:type=OperatingSystem":
		bean = `{"name" : "java.lang:type=OperatingSystem", "ProcessCpuTime" : 1000000000}`
	case qry == "java.lang:type=Memory":
		bean = `{"name" : "java.lang:type=Memory", "HeapMemoryUsage" : {"used" : 1048576}}`
	case strings.HasPrefix(qry, "java.lang:type=GarbageCollector"):
		start := g.lastAt.Sub(g.jvmStart).Milliseconds()
		bean = fmt.Sprintf(`{"name" : "java.lang:type=GarbageCollector,name=G1 Young Generation", "Name" : "G1 Young Generation", "CollectionCount" : %d, "CollectionTime" : %d, "LastGcInfo" : {"id" : %d, "startTime" : %d, "endTime" : %d, "duration" : %d}}`,
			g.young, g.youngMs, g.young, start, start+g.lastMs, g.lastMs)
	case qry == "Hadoop:service=HBase,name=RegionServer,sub=Server":
		bean = fmt.Sprintf(`{"name" : "Hadoop:service=HBase,name=RegionServer,sub=Server", "FlushTime_num_ops" : %d, "CompactionTime_num_ops" : 0, "SplitTime_num_ops" : 0}`, g.flushes)
	default:
		http.Error(w, "no such bean", http.StatusBadRequest)
		return
	}
	fmt.Fprintf(w, `{"beans" : [ %s ]}`, bean)
}

// TestJMXWindowCountsAndPlacesAtItsEdges runs a trial window's reading of a
// server regress did not start (watch, as measure does): the collections,
// their time and the flushes between the edges reach the stored timeline
// as counts, the last collection as an event at its time from the window's
// start, and the info server is asked nothing between the two edges.
func TestJMXWindowCountsAndPlacesAtItsEdges(t *testing.T) {
	g := &windowInfoServer{jvmStart: time.Now().Add(-time.Hour), young: 10, youngMs: 80, lastMs: 4, flushes: 3}
	g.lastAt = time.Now().Add(-time.Minute)
	srv := httptest.NewServer(g)
	defer srv.Close()
	ss := servercost.Servers{{Name: "rs1", JMX: strings.TrimPrefix(srv.URL, "http://")}}

	// A window of 3 s whose first edge's reading may take 1.5 s: a loaded
	// machine under -race took over 200 ms for its seven requests. What is
	// tested is where the requests fall, not how fast this machine makes them.
	from := time.Now().Add(100 * time.Millisecond)
	to := from.Add(3 * time.Second)
	const edge = 1500 * time.Millisecond
	wait := watch(context.Background(), ss, from, to)
	// Mid-window: 4 collections (50 ms), the last 20 ms long starting 1.75 s in; a flush.
	time.Sleep(time.Until(from.Add(edge + 300*time.Millisecond)))
	gcAt := from.Add(edge + 250*time.Millisecond)
	g.mu.Lock()
	g.young, g.youngMs, g.lastAt, g.lastMs, g.flushes = g.young+4, g.youngMs+50, gcAt, 20, g.flushes+1
	g.mu.Unlock()
	costs, err := wait()
	if err != nil {
		t.Fatal(err)
	}

	g.mu.Lock()
	times := append([]time.Time(nil), g.times...)
	g.mu.Unlock()
	var atA, inside, atB int
	for _, at := range times {
		switch {
		case at.Before(from):
			t.Errorf("a request %v before the window's first edge", from.Sub(at))
		case at.Before(from.Add(edge)):
			atA++
		case at.Before(to):
			inside++
		default:
			atB++
		}
	}
	// Each edge: the five beans' queries, the Uptime, the agent's bean.
	if inside != 0 || atA != 7 || atB != 7 {
		t.Errorf("requests: %d at the first edge, %d inside the window, %d at the second; want 7, 0, 7", atA, inside, atB)
	}

	tl := timelineOf(costs, from)
	if tl == nil {
		t.Fatal("no timeline for a server read through /jmx")
	}
	want := results.ServerCounted{Server: "rs1", GCs: 4, GCMillis: 50, Flushes: 1}
	if len(tl.Counted) != 1 || tl.Counted[0] != want {
		t.Errorf("counted %+v, want %+v", tl.Counted, want)
	}
	if len(tl.Events) != 1 {
		t.Fatalf("events %+v, want the last collection", tl.Events)
	}
	e := tl.Events[0]
	if at := float64((edge + 250*time.Millisecond).Milliseconds()); e.Kind != "gc" || e.DurationMillis != 20 || math.Abs(e.AtMillis-at) > 15 || e.Server != "rs1" || !strings.Contains(e.Detail, "last of its 4 collections") {
		t.Errorf("event %+v, want the 20 ms collection at %v ms, the last of 4", e, at)
	}
	if st := serverStats(servercost.Total(costs), &background{}, 1000, 1); st.GCs != 4 || st.GCPauseMicros != 50e3 || st.Flushes != 1 {
		t.Errorf("server stats %d GCs in %v us, %d flushes; want 4 in 50 ms, 1 flush", st.GCs, st.GCPauseMicros, st.Flushes)
	}
}
