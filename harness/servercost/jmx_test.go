package servercost

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// jmxServer answers /jmx?qry=... as HBase's JMXJsonServlet does, with the
// CPU time and counters given.
// A negative *alloc answers the Threading bean as a JDK before 14 would not have it: 400.
func jmxServer(t *testing.T, cpuNanos, flushes, alloc *int64) *httptest.Server {
	t.Helper()
	return httptest.NewServer(jmxHandler(cpuNanos, flushes, alloc))
}

// jmxHandler is jmxServer's handler, for a server of any kind (TLS).
func jmxHandler(cpuNanos, flushes, alloc *int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("qry")
		var bean string
		switch {
		case q == "java.lang:type=OperatingSystem":
			bean = fmt.Sprintf(`{"name" : "java.lang:type=OperatingSystem", "modelerType" : "com.sun.management.internal.OperatingSystemImpl", "OpenFileDescriptorCount" : 483, "Name" : "Linux", "ProcessCpuTime" : %d, "SystemCpuLoad" : 0.28, "ObjectName" : "java.lang:type=OperatingSystem"}`, *cpuNanos)
		case q == "java.lang:type=Memory":
			bean = `{"name" : "java.lang:type=Memory", "HeapMemoryUsage" : {"committed" : 1073741824, "init" : 268435456, "max" : 1073741824, "used" : 104857600}, "Verbose" : false}`
		case strings.HasPrefix(q, "java.lang:type=GarbageCollector"):
			bean = `{"name" : "java.lang:type=GarbageCollector,name=G1 Young Generation", "Name" : "G1 Young Generation", "CollectionCount" : 7, "CollectionTime" : 40, "LastGcInfo" : {"GcThreadCount" : 2, "duration" : 5}}, {"name" : "java.lang:type=GarbageCollector,name=G1 Old Generation", "CollectionCount" : 0, "CollectionTime" : 0}`
		case q == threadingQuery && *alloc >= 0:
			bean = fmt.Sprintf(`{"name" : "java.lang:type=Threading", "ThreadCount" : 120, "TotalThreadAllocatedBytes" : %d}`, *alloc)
		case q == "Hadoop:service=HBase,name=RegionServer,sub=Server":
			bean = fmt.Sprintf(`{"name" : "Hadoop:service=HBase,name=RegionServer,sub=Server", "tag.Context" : "regionserver", "FlushTime_num_ops" : %d, "CompactionTime_num_ops" : 2, "SplitTime_num_ops" : 0}`, *flushes)
		default:
			http.Error(w, "unknown query "+q, http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "{\n  \"beans\" : [ %s ]\n}", bean)
	})
}

// TestReadThroughJMX reads a window's CPU, heap, GC and events from a
// server's /jmx, and its allocation from the Threading bean's
// TotalThreadAllocatedBytes where the JVM has it (JDK 14+), else none.
func TestReadThroughJMX(t *testing.T) {
	for _, jdk14 := range []bool{true, false} {
		cpu, flushes, alloc := int64(5_000_000_000), int64(3), int64(-1)
		if jdk14 {
			alloc = 1 << 30
		}
		srv := jmxServer(t, &cpu, &flushes, &alloc)
		defer srv.Close()
		s := Server{Name: "region server x", JMX: strings.TrimPrefix(srv.URL, "http://")}
		a, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		if a.CPU != 5*time.Second || a.HeapUsed != 100<<20 || a.GCs != 7 || a.GCPause != 40*time.Millisecond {
			t.Errorf("reading %+v: want CPU 5s, heap 100 MiB, 7 GCs in 40ms", a)
		}
		cpu += 250_000_000
		flushes++
		if jdk14 {
			alloc += 40 << 20
		}
		b, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		c := s.Since(a, b)
		if c.CPU != 250*time.Millisecond || c.Events.Flushes != 1 || c.Events.Compactions != 0 {
			t.Errorf("window %+v: want 250ms CPU, 1 flush", c)
		}
		if jdk14 && (!c.AllocKnown || c.Allocated != 40<<20) {
			t.Errorf("JDK 14+: allocation %d known %v, want 40 MiB", c.Allocated, c.AllocKnown)
		}
		if !jdk14 && c.AllocKnown {
			t.Errorf("no Threading bean: allocation %d known, want unknown", c.Allocated)
		}
	}
	bad := Server{Name: "gone", JMX: "127.0.0.1:1"}
	if _, err := bad.Read(); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("an unreachable info server: %v, want an error naming it", err)
	}
	_ = context.Background()
}
