package results

// Counts are what a side's region servers counted in a trial's measurement
// window, read at its edges: the requests the trial table's regions
// counted (against the client's operations) and the block cache's lookups.
// Each part has a Known flag: a count that could not be read exactly is
// left out, never stored stale, and CountsNote says why.
type Counts struct {
	// ServerReadRequests counts what the table's regions counted as reads:
	// one per Get, one per row a scan returned (GetRegionLoad's live
	// counters). ServerWriteRequests counts mutations, one per row.
	// ServerFilteredReads counts rows a filter dropped.
	ServerReadRequests  int64 `json:"server_read_requests,omitempty"`
	ServerWriteRequests int64 `json:"server_write_requests,omitempty"`
	ServerFilteredReads int64 `json:"server_filtered_reads,omitempty"`
	RequestsKnown       bool  `json:"server_requests_known,omitempty"`
	// BlockCacheHits and BlockCacheMisses count the servers' block cache
	// lookups in the window (every table: the servers count no other way);
	// BlockCacheHitRatio is hits / (hits + misses).
	BlockCacheHits     int64   `json:"block_cache_hits,omitempty"`
	BlockCacheMisses   int64   `json:"block_cache_misses,omitempty"`
	BlockCacheHitRatio float64 `json:"block_cache_hit_ratio,omitempty"`
	BlockCacheKnown    bool    `json:"block_cache_known,omitempty"`
	// PerServer is each region server's part of the request counts (scaled
	// as they are), kept where the table's regions sit on several servers.
	PerServer []ServerRequests `json:"requests_per_server,omitempty"`
	// WindowShare is the window's part of the client's operations over the
	// span the counts were read across (warm-up and window: they are read
	// outside the window), by which the counts were scaled; 0 when not scaled.
	WindowShare float64 `json:"window_share,omitempty"`
	// CountsNote says why a count is not known ("" when both are).
	CountsNote string `json:"counts_note,omitempty"`
}

// ExpectedServerRequests is the least the servers must have counted for
// a trial's client operations that did not fail: a READ is one read, a
// SCAN at least one, an UPDATE, INSERT or DELETE one write; a
// READ-MODIFY-WRITE none of its own (its read and update are in READ and
// UPDATE). Failed operations may never have reached a server and are left out.
func ExpectedServerRequests(ops map[string]OpStats) (reads, writes int64) {
	for name, o := range ops {
		n := o.Count - o.Errors
		if n <= 0 {
			continue
		}
		switch name {
		case "READ", "SCAN":
			reads += n
		case "UPDATE", "INSERT", "DELETE":
			writes += n
		}
		// READ-MODIFY-WRITE adds nothing: as in YCSB, its read and its
		// update are recorded as READ and UPDATE too (counted twice, F's
		// trials warned of a third of their requests missing).

	}
	return reads, writes
}

// ServerRequests is what one region server's regions of the table counted.
type ServerRequests struct {
	// Address is the region server's host:port (its RPC address).
	Address string `json:"address"`
	Reads   int64  `json:"reads"`
	Writes  int64  `json:"writes"`
}
