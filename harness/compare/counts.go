package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/results"
)

// ServerCounts is what one side's region servers counted over a
// workload's trials, beside what the client did: the evidence that every
// operation reached a server, and how the block cache served them.
type ServerCounts struct {
	Workload string `json:"workload"`
	// Side is "baseline" or "candidate".
	Side string `json:"side"`
	// RequestTrials counts the trials whose server requests were read; the
	// client's and the servers' figures sum over those trials.
	RequestTrials int   `json:"request_trials"`
	ClientReads   int64 `json:"client_reads"`
	ClientWrites  int64 `json:"client_writes"`
	// ClientScans are the scans among ClientReads: HBase counts a read
	// request for every row a scan returns, not one per scan.
	ClientScans  int64 `json:"client_scans,omitempty"`
	ServerReads  int64 `json:"server_reads"`
	ServerWrites int64 `json:"server_writes"`
	// CacheTrials counts the trials whose block cache counts were read;
	// HitRatio is their hits over their lookups.
	CacheTrials      int     `json:"cache_trials"`
	BlockCacheHits   int64   `json:"block_cache_hits"`
	BlockCacheMisses int64   `json:"block_cache_misses"`
	HitRatio         float64 `json:"block_cache_hit_ratio"`
}

// serverCountNotes are the distinct notes of trials whose counts were not
// all read ("baseline: block cache counts not available: ..."), sorted.
func serverCountNotes(bt, ct []results.Trial) []string {
	seen := map[string]bool{}
	var out []string
	for si, side := range [][]results.Trial{bt, ct} {
		who := [2]string{"baseline", "candidate"}[si]
		for i := range side {
			sv := side[i].Server
			if sv == nil || sv.Counts == nil || sv.Counts.CountsNote == "" {
				continue
			}
			for _, n := range strings.Split(sv.Counts.CountsNote, "; ") {
				line := who + ": " + n
				if !seen[line] {
					seen[line] = true
					out = append(out, line)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// A server may count a little more or less than the client at the window's
// edges (an operation in flight when a reading is taken); beyond this
// slack, fewer server-counted requests mean operations that never reached
// a server the client thought they did.
const (
	countSlackFraction = 0.01
	countSlackMin      = 10
)

// countSlack is the shortfall tolerated for n client operations.
func countSlack(n int64) int64 {
	return max(countSlackMin, int64(countSlackFraction*float64(n)))
}

// serverCounts sums each side's counts per workload, sorted by workload
// then side; nil when no trial carries any.
func serverCounts(bt, ct []results.Trial) []ServerCounts {
	by := map[[2]string]*ServerCounts{}
	for si, side := range [][]results.Trial{bt, ct} {
		who := [2]string{"baseline", "candidate"}[si]
		for i := range side {
			t := &side[i]
			if t.Server == nil || t.Server.Counts == nil {
				continue
			}
			c := t.Server.Counts
			if !c.RequestsKnown && !c.BlockCacheKnown {
				continue
			}
			k := [2]string{t.Workload, who}
			sc := by[k]
			if sc == nil {
				sc = &ServerCounts{Workload: t.Workload, Side: who}
				by[k] = sc
			}
			if c.RequestsKnown {
				r, w := results.ExpectedServerRequests(t.Ops)
				sc.RequestTrials++
				sc.ClientReads += r
				sc.ClientWrites += w
				if o, ok := t.Ops["SCAN"]; ok {
					sc.ClientScans += max(o.Count-o.Errors, 0)
				}
				sc.ServerReads += c.ServerReadRequests
				sc.ServerWrites += c.ServerWriteRequests
			}
			if c.BlockCacheKnown {
				sc.CacheTrials++
				sc.BlockCacheHits += c.BlockCacheHits
				sc.BlockCacheMisses += c.BlockCacheMisses
			}
		}
	}
	if len(by) == 0 {
		return nil
	}
	out := make([]ServerCounts, 0, len(by))
	for _, sc := range by {
		if n := sc.BlockCacheHits + sc.BlockCacheMisses; n > 0 {
			sc.HitRatio = float64(sc.BlockCacheHits) / float64(n)
		}
		out = append(out, *sc)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Workload != out[j].Workload {
			return out[i].Workload < out[j].Workload
		}
		return out[i].Side < out[j].Side
	})
	return out
}

// shortCounts names the trials whose servers counted fewer reads or writes
// than the client's operations beyond the slack: operations the client
// timed that the trial table's regions never served (a client answering
// from somewhere else, requests sent to another table), so their latencies
// are not the server's.
func shortCounts(bt, ct []results.Trial) string {
	var names []string
	for si, side := range [][]results.Trial{bt, ct} {
		who := [2]string{"baseline", "candidate"}[si]
		for i := range side {
			t := &side[i]
			if t.Server == nil || t.Server.Counts == nil || !t.Server.Counts.RequestsKnown {
				continue
			}
			c := t.Server.Counts
			r, w := results.ExpectedServerRequests(t.Ops)
			var short []string
			slack := func(n int64) int64 { return max(countSlack(n), shareSlack(n, c.WindowShare)) }
			if r-c.ServerReadRequests > slack(r) {
				short = append(short, fmt.Sprintf("%d reads for the client's %d", c.ServerReadRequests, r))
			}
			if w-c.ServerWriteRequests > slack(w) {
				short = append(short, fmt.Sprintf("%d writes for the client's %d", c.ServerWriteRequests, w))
			}
			if len(short) > 0 {
				names = append(names, fmt.Sprintf("%s pair %d %s (%s)", t.Workload, t.Pair, who, strings.Join(short, ", ")))
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%d trial(s) had fewer requests counted by the servers than the client's operations (beyond %.0f%% or %d): %s; those operations' latencies are not all the servers'",
		len(names), 100*countSlackFraction, countSlackMin, firstFew(names))
}

// shareSlack is how far a count scaled to the window by share (the
// window's part of the client's operations, results.Counts.WindowShare) may
// fall short of n by chance alone: which operations of a type fell in the
// warm-up rather than the window is a binomial draw, so four of its
// standard deviations. 0 for an unscaled count.
func shareSlack(n int64, share float64) int64 {
	if share <= 0 || share >= 1 || n <= 0 {
		return 0
	}
	return int64(math.Ceil(4 * math.Sqrt(float64(n)*(1-share)/share)))
}
