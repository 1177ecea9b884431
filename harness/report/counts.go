package report

import (
	"fmt"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
)

// serverCountsHeading introduces the server counts in every format.
const serverCountsHeading = "server counts (requests the trial tables' regions counted against the client's operations; the servers' block cache lookups):"

// scanRowsNote explains, where the client scanned, a count of reads far
// above the client's: HBase counts a read request for every row a scan
// returns (workload E's scans of up to 100 rows), not one per scan.
const scanRowsNote = " (HBase counts a read for every row a scan returns)"

// serverCountLines says, per workload and side, what the servers counted
// in the trials' windows: one line each, the same in every format.
func serverCountLines(c *compare.Comparison) []string {
	out := make([]string, 0, len(c.ServerCounts))
	for _, s := range c.ServerCounts {
		var parts []string
		if s.RequestTrials > 0 {
			p := fmt.Sprintf("%d reads counted for the client's %d, %d writes for %d (%d trials)",
				s.ServerReads, s.ClientReads, s.ServerWrites, s.ClientWrites, s.RequestTrials)
			if s.ClientScans > 0 {
				p += scanRowsNote
			}
			parts = append(parts, p)
		}
		if s.CacheTrials > 0 {
			parts = append(parts, fmt.Sprintf("block cache %d hits, %d misses, hit ratio %.1f%% (%d trials)",
				s.BlockCacheHits, s.BlockCacheMisses, 100*s.HitRatio, s.CacheTrials))
		}
		out = append(out, fmt.Sprintf("%s %s: %s", s.Workload, s.Side, strings.Join(parts, "; ")))
	}
	return append(out, c.ServerCountNotes...)
}
