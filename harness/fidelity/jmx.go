package fidelity

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// CacheTTL is how long a region server's /jmx keeps answering from one
// metrics snapshot (Hadoop metrics2 refreshes its JMX cache once per 10 s
// period); a read sooner than that after the last one sees the same figures.
const CacheTTL = 11 * time.Second

// JMX reads a region server's metrics from its info server's /jmx servlet.
type JMX struct {
	// Addr is the info server as host:port (hbase.regionserver.info.port).
	Addr string
	// Client makes the requests; nil means a client with a 10 s timeout.
	Client *http.Client
}

// ServerSnapshot is one read of the region server's call metrics.
//
// HBase keeps these as histograms in whole milliseconds that start afresh
// at each metrics snapshot, and a /jmx read takes one once its cache (about
// 10 s) has expired; so a read after a run of more than that covers the time
// since the read before it: the run. The call counts are cumulative.
type ServerSnapshot struct {
	// At is when the snapshot was read.
	At time.Time
	// Calls counts the RPCs processed so far (ProcessCallTime_num_ops).
	Calls int64
	// Gets counts Get requests so far (Get_num_ops).
	Gets int64
	// Process is the time a handler spent on a call; Queue the time a call
	// waited for a handler; Get the region server's own Get time. In µs,
	// read from HBase's millisecond figures (so 0 means below 1 ms).
	Process, Queue, Get Latencies
}

// ServerFigures is the region server's view of a run.
type ServerFigures struct {
	// Calls and Gets are the RPCs and Gets processed during the run.
	Calls, Gets int64
	// Process, Queue and Get are the after-run histograms (see ServerSnapshot).
	Process, Queue, Get Latencies
	// Window is the time between the two reads.
	Window time.Duration
}

// Since returns the figures of the window between before and s.
func (s ServerSnapshot) Since(before ServerSnapshot) ServerFigures {
	return ServerFigures{
		Calls: s.Calls - before.Calls, Gets: s.Gets - before.Gets,
		Process: s.Process, Queue: s.Queue, Get: s.Get,
		Window: s.At.Sub(before.At),
	}
}

// Snapshot reads the IPC and Server beans of the region server.
func (j *JMX) Snapshot(ctx context.Context) (ServerSnapshot, error) {
	ipc, err := j.bean(ctx, "Hadoop:service=HBase,name=RegionServer,sub=IPC")
	if err != nil {
		return ServerSnapshot{}, err
	}
	srv, err := j.bean(ctx, "Hadoop:service=HBase,name=RegionServer,sub=Server")
	if err != nil {
		return ServerSnapshot{}, err
	}
	return ServerSnapshot{
		At:      time.Now(),
		Calls:   int64(ipc["ProcessCallTime_num_ops"]),
		Gets:    int64(srv["Get_num_ops"]),
		Process: msLatencies(ipc, "ProcessCallTime"),
		Queue:   msLatencies(ipc, "QueueCallTime"),
		Get:     msLatencies(srv, "Get"),
	}, nil
}

func msLatencies(b map[string]float64, name string) Latencies {
	us := func(k string) int64 { return int64(b[name+"_"+k] * 1000) }
	return Latencies{P50: us("median"), P95: us("95th_percentile"), P99: us("99th_percentile"), P999: us("99.9th_percentile")}
}

// bean fetches one MBean's numeric attributes.
func (j *JMX) bean(ctx context.Context, query string) (map[string]float64, error) {
	hc := j.Client
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	url := "http://" + j.Addr + "/jmx?qry=" + query
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("fidelity: region server metrics at %s: %w", url, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fidelity: region server metrics at %s: %w (is hbase.regionserver.info.port enabled?)", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fidelity: region server metrics at %s: status %s, %v", url, resp.Status, err)
	}
	var doc struct {
		Beans []map[string]any `json:"beans"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("fidelity: region server metrics at %s: %w", url, err)
	}
	if len(doc.Beans) == 0 {
		return nil, fmt.Errorf("fidelity: region server metrics at %s: no bean %s (is this a region server's info port?)", url, query)
	}
	out := map[string]float64{}
	for k, v := range doc.Beans[0] {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out, nil
}
