package servercost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// jmxTimeout bounds one read of a region server's /jmx.
const jmxTimeout = 5 * time.Second

// jmxBean is one MBean of HBase's /jmx JSON, its attributes by their exact
// names: decoding into a struct would not do, because encoding/json matches
// keys case-insensitively and an OperatingSystem bean's "Name" (the OS name)
// would overwrite its "name".
type jmxBean map[string]json.RawMessage

// int reads an integer attribute; 0 when absent or not a number.
func (b jmxBean) int(attr string) int64 {
	var v json.Number
	if err := json.Unmarshal(b[attr], &v); err != nil {
		return 0
	}
	n, err := v.Int64()
	if err != nil {
		f, ferr := v.Float64()
		if ferr != nil {
			return 0
		}
		n = int64(f)
	}
	return n
}

// heapUsed reads HeapMemoryUsage.used of the Memory bean.
func (b jmxBean) heapUsed() int64 {
	var u struct {
		Used int64 `json:"used"`
	}
	if err := json.Unmarshal(b["HeapMemoryUsage"], &u); err != nil {
		return 0
	}
	return u.Used
}

// jmxQueries are the beans a reading asks for, one request each (the
// servlet takes one qry), so the server serialises a few beans, not hundreds.
var jmxQueries = []string{
	"java.lang:type=OperatingSystem",
	"java.lang:type=Memory",
	"java.lang:type=GarbageCollector,name=*",
	"Hadoop:service=HBase,name=RegionServer,sub=Server",
	threadingQuery,
}

// threadingQuery asks for the JVM's Threading bean, whose
// TotalThreadAllocatedBytes (JDK 14+) is the whole JVM's allocation so far;
// a server that does not answer it leaves allocation unknown.
const threadingQuery = "java.lang:type=Threading"

// readJMX takes a reading from a region server's info server at addr
// (host:port, or FindJMX's https://host:port): CPU, heap use and GC from
// the JVM's beans (each collector's last collection and the JVM's Uptime,
// which place it), and the counts of
// flushes, compactions and splits from HBase's, kept in the Reading's event
// counters, the JVM's allocation so far from its Threading bean
// (TotalThreadAllocatedBytes, JDK 14+), and the request threads' figures
// from regress's agent where the JVM runs it.
func readJMX(ctx context.Context, client *http.Client, addr string) (Reading, jmxEvents, error) {
	r := Reading{At: time.Now()}
	var ev jmxEvents
	for i, q := range jmxQueries {
		beans, err := getBeans(ctx, client, addr, q)
		if err != nil && q == threadingQuery {
			continue // allocation unknown; the rest stands
		}
		if err != nil {
			return r, ev, err
		}
		// Each query names its beans, so the query says what a bean is.
		for _, b := range beans {
			switch i {
			case 0:
				r.CPU = time.Duration(b.int("ProcessCpuTime"))
			case 1:
				r.HeapUsed = b.heapUsed()
			case 2:
				// LastGcInfo rides in the same answer: it places each
				// collector's last collection (lastCollections).
				c := collectorOf(b)
				r.collectors = append(r.collectors, c)
				r.GCs += c.count
				r.GCPause += time.Duration(c.millis) * time.Millisecond
			case 3:
				ev = jmxEvents{flushes: b.int("FlushTime_num_ops"), compactions: b.int("CompactionTime_num_ops"), splits: b.int("SplitTime_num_ops")}
			case 4:
				// JDK 14+: every thread's allocation so far, exact and live.
				if _, ok := b["TotalThreadAllocatedBytes"]; ok {
					r.totalAlloc, r.totalAllocOK = b.int("TotalThreadAllocatedBytes"), true
				}
			}
		}
	}
	// The JVM's Uptime maps LastGcInfo's times onto this machine's clock:
	// one small request more at each edge, none between them.
	r.jvm = readUptime(ctx, client, addr)
	// A server whose JVM runs regress's agent (installed by its operators,
	// `regress agent`) also gives the request threads' CPU and allocation,
	// the figures a server regress started gives; without it they stay
	// unknown and the process's figures stand.
	if a, err := readAgent(ctx, client, addr); err == nil {
		r.RequestAlloc, r.RequestAllocOK, r.allocThreads = a.requestAlloc, true, a.byThread
		r.RequestCPU, r.cpuThreads = a.requestCPU, a.cpuByThread
	}
	r.perfOK = true
	return r, ev, nil
}

// jmxEvents are HBase's cumulative counts of flushes, compactions and splits.
type jmxEvents struct{ flushes, compactions, splits int64 }

// getBeans asks addr's /jmx for the beans qry names.
func getBeans(ctx context.Context, client *http.Client, addr, qry string) ([]jmxBean, error) {
	return getJMX(ctx, client, addr, "qry", qry)
}

// getJMX asks addr's /jmx with one parameter: qry (an ObjectName pattern)
// or get (bean::attribute, that attribute alone).
func getJMX(ctx context.Context, client *http.Client, addr, param, value string) ([]jmxBean, error) {
	ctx, cancel := context.WithTimeout(ctx, jmxTimeout)
	defer cancel()
	u := baseURL(addr) + "/jmx?" + param + "=" + url.QueryEscape(value)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("read %s: %s", u, resp.Status)
	}
	var doc struct {
		Beans []jmxBean `json:"beans"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&doc); err != nil {
		return nil, fmt.Errorf("read %s: not HBase's /jmx JSON: %w", u, err)
	}
	return doc.Beans, nil
}
