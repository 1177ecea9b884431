package servercost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// jmxTimeout bounds one read of a region server's /jmx.
const jmxTimeout = 5 * time.Second

// jmxBean is one MBean of HBase's /jmx JSON, with the attributes read here.
type jmxBean struct {
	Name string `json:"name"`
	// java.lang:type=OperatingSystem
	ProcessCPUTime int64 `json:"ProcessCpuTime"`
	// java.lang:type=Memory
	HeapMemoryUsage struct {
		Used int64 `json:"used"`
	} `json:"HeapMemoryUsage"`
	// java.lang:type=GarbageCollector,name=*
	CollectionCount int64 `json:"CollectionCount"`
	CollectionTime  int64 `json:"CollectionTime"`
	// Hadoop:service=HBase,name=RegionServer,sub=Server: the operations'
	// time histograms count each flush, compaction and split.
	FlushOps      int64 `json:"FlushTime_num_ops"`
	CompactionOps int64 `json:"CompactionTime_num_ops"`
	SplitOps      int64 `json:"SplitTime_num_ops"`
}

// jmxQueries are the beans a reading asks for, one request each (the
// servlet takes one qry), so the server serialises four beans, not hundreds.
var jmxQueries = []string{
	"java.lang:type=OperatingSystem",
	"java.lang:type=Memory",
	"java.lang:type=GarbageCollector,name=*",
	"Hadoop:service=HBase,name=RegionServer,sub=Server",
}

// readJMX takes a reading from a region server's info server at addr
// (host:port): CPU, heap use and GC from the JVM's beans, and the counts of
// flushes, compactions and splits from HBase's, kept in the Reading's event
// counters. Allocation cannot be read this way.
func readJMX(ctx context.Context, client *http.Client, addr string) (Reading, jmxEvents, error) {
	r := Reading{At: time.Now()}
	var ev jmxEvents
	for _, q := range jmxQueries {
		beans, err := getBeans(ctx, client, addr, q)
		if err != nil {
			return r, ev, err
		}
		for _, b := range beans {
			switch {
			case b.Name == "java.lang:type=OperatingSystem":
				r.CPU = time.Duration(b.ProcessCPUTime)
			case b.Name == "java.lang:type=Memory":
				r.HeapUsed = b.HeapMemoryUsage.Used
			case strings.HasPrefix(b.Name, "java.lang:type=GarbageCollector,"):
				r.GCs += b.CollectionCount
				r.GCPause += time.Duration(b.CollectionTime) * time.Millisecond
			case b.Name == "Hadoop:service=HBase,name=RegionServer,sub=Server":
				ev = jmxEvents{flushes: b.FlushOps, compactions: b.CompactionOps, splits: b.SplitOps}
			}
		}
	}
	r.perfOK = true
	return r, ev, nil
}

// jmxEvents are HBase's cumulative counts of flushes, compactions and splits.
type jmxEvents struct{ flushes, compactions, splits int64 }

func getBeans(ctx context.Context, client *http.Client, addr, qry string) ([]jmxBean, error) {
	ctx, cancel := context.WithTimeout(ctx, jmxTimeout)
	defer cancel()
	u := "http://" + addr + "/jmx?qry=" + url.QueryEscape(qry)
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
