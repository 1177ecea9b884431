package runner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// countSource is where a side's servers' counts are read from, found once
// per side: its region servers (for GetRegionLoad) and their info servers
// (for /prometheus), or why the block cache cannot be read.
type countSource struct {
	once sync.Once
	countServers
}

// countServers are the servers a side's counts are read from.
type countServers struct {
	regionServer []string
	infoServers  []string
	requestsNote string
	cacheNote    string
}

// httpCounts reads info servers; each request has its own deadline.
var httpCounts = &http.Client{}

// find lists c's region servers and their info servers; a failure leaves
// a note, not an error: the trial runs on without its counts.
func (cs *countSource) find(ctx context.Context, c *hbase.Client) {
	cs.once.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		rs, err := c.LiveRegionServers(ctx)
		if err != nil || len(rs) == 0 {
			cs.requestsNote = fmt.Sprintf("server-counted requests not available: no live region server listed (%v)", err)
		}
		cs.regionServer = rs
		infos, err := c.InfoServers(ctx)
		if err != nil {
			cs.cacheNote = "block cache counts not available: " + err.Error()
			return
		}
		for _, is := range infos {
			if is.Info == "" {
				cs.cacheNote = "block cache counts not available: region server " + is.Server + " runs no info server (hbase.regionserver.info.port), whose /prometheus holds them"
				cs.infoServers = nil
				return
			}
			cs.infoServers = append(cs.infoServers, is.Info)
		}
		if len(cs.infoServers) == 0 {
			cs.cacheNote = "block cache counts not available: no region server listed in ZooKeeper"
		}
	})
}

// countReading is one edge's reading: the table's regions and every
// server's block cache (nil where not read), or why not.
type countReading struct {
	regions     []hbase.RegionRequests
	requestsErr error
	caches      []servercost.BlockCache
	cacheErr    error
}

// read takes one reading of table's counters now: the requests first,
// at the edge itself, then the block cache. Not the other way round: a
// block cache reading may wait up to a second and a half for HBase's
// metrics system to restart (see servercost.ReadBlockCache), and a request
// count read after it lost up to 27 of a window's 2,400 reads in the real
// test; the block cache's counts are a ratio of hits to lookups, which a
// window shifted by that much barely moves.
func (cs *countServers) read(ctx context.Context, c *hbase.Client, table string) countReading {
	var r countReading
	if cs.requestsNote == "" {
		r.regions, r.requestsErr = c.TableRequests(ctx, table, cs.regionServer)
	}
	if cs.cacheNote == "" {
		r.caches = make([]servercost.BlockCache, len(cs.infoServers))
		errs := make([]error, len(cs.infoServers))
		var wg sync.WaitGroup
		for i, addr := range cs.infoServers {
			wg.Go(func() { r.caches[i], errs[i] = servercost.ReadBlockCache(ctx, httpCounts, addr) })
		}
		wg.Wait()
		r.cacheErr = errors.Join(errs...)
	}
	return r
}

// watchCounts reads table's counters on s at from and at to in the
// background, like watch; the returned function waits for the second
// reading and returns the window's counts (never nil).
func (r *Runner) watchCounts(ctx context.Context, s *side, table string, from, to time.Time) func() *results.Counts {
	cs := &s.counts
	ch := make(chan *results.Counts, 1)
	go func() {
		// Found here, not before the load starts: the first trial's
		// look-up (a master call and ZooKeeper) must not delay its schedule.
		cs.find(ctx, s.t.Client)
		var a, b countReading
		for i, at := range []time.Time{from, to} {
			if d := time.Until(at); d > 0 {
				tm := time.NewTimer(d)
				select {
				case <-tm.C:
				case <-ctx.Done():
					tm.Stop()
					ch <- &results.Counts{CountsNote: "counts not read: the run was stopped"}
					return
				}
			}
			if i == 0 {
				a = cs.read(ctx, s.t.Client, table)
			} else {
				b = cs.read(ctx, s.t.Client, table)
			}
		}
		ch <- windowCounts(&cs.countServers, a, b)
	}()
	return func() *results.Counts { return <-ch }
}

// windowCounts is the counts between two readings. Requests are summed
// over the regions in both readings; a region that opened or closed
// between them (a split, a move) makes them unknown, since its counters
// restart with it.
func windowCounts(cs *countServers, a, b countReading) *results.Counts {
	c := &results.Counts{}
	var notes []string
	switch {
	case cs.requestsNote != "":
		notes = append(notes, cs.requestsNote)
	case a.requestsErr != nil || b.requestsErr != nil:
		err := errors.Join(a.requestsErr, b.requestsErr)
		if errors.Is(err, hbase.ErrNoRegionLoad) {
			notes = append(notes, "server-counted requests not available: HBase 1.x region servers have no GetRegionLoad")
		} else {
			notes = append(notes, "server-counted requests not read: "+err.Error())
		}
	default:
		if reads, writes, filtered, ok := requestDelta(a.regions, b.regions); ok {
			c.ServerReadRequests, c.ServerWriteRequests, c.ServerFilteredReads, c.RequestsKnown = reads, writes, filtered, true
		} else {
			notes = append(notes, "server-counted requests not known: the table's regions changed in the window (a split or a move restarts their counters)")
		}
	}
	switch {
	case cs.cacheNote != "":
		notes = append(notes, cs.cacheNote)
	case a.cacheErr != nil || b.cacheErr != nil:
		err := errors.Join(a.cacheErr, b.cacheErr)
		if errors.Is(err, servercost.ErrNoLiveMetrics) {
			notes = append(notes, "block cache counts not available: "+servercost.ErrNoLiveMetrics.Error())
		} else {
			notes = append(notes, "block cache counts not read: "+err.Error())
		}
	default:
		for i := range b.caches {
			c.BlockCacheHits += b.caches[i].Hits - a.caches[i].Hits
			c.BlockCacheMisses += b.caches[i].Misses - a.caches[i].Misses
		}
		if c.BlockCacheHits >= 0 && c.BlockCacheMisses >= 0 {
			c.BlockCacheKnown = true
			if n := c.BlockCacheHits + c.BlockCacheMisses; n > 0 {
				c.BlockCacheHitRatio = float64(c.BlockCacheHits) / float64(n)
			}
		} else {
			// A server restarted between the readings.
			c.BlockCacheHits, c.BlockCacheMisses = 0, 0
			notes = append(notes, "block cache counts not known: a server's counters went back (restarted) in the window")
		}
	}
	c.CountsNote = strings.Join(notes, "; ")
	return c
}

// requestDelta sums each region's counters from a to b; ok is false when
// the two readings do not hold the same regions.
func requestDelta(a, b []hbase.RegionRequests) (reads, writes, filtered int64, ok bool) {
	if len(a) != len(b) || len(a) == 0 {
		return 0, 0, 0, false
	}
	for i := range a {
		if a[i].Region != b[i].Region || b[i].Read < a[i].Read || b[i].Write < a[i].Write || b[i].FilteredRead < a[i].FilteredRead {
			return 0, 0, 0, false
		}
		reads += int64(b[i].Read - a[i].Read)
		writes += int64(b[i].Write - a[i].Write)
		filtered += int64(b[i].FilteredRead - a[i].FilteredRead)
	}
	return reads, writes, filtered, true
}

// countsAt starts reading s's counts over the measurement window of a
// trial anchored at at, on the same terms as its server cost (this
// machine's own servers, one load process); nil when they are not read.
func (r *Runner) countsAt(ctx context.Context, s *side, table string, at timing) func() *results.Counts {
	if len(s.t.Servers) == 0 || r.LoadHosts != nil || at.Start.IsZero() || s.t.Client == nil {
		return nil
	}
	from := at.Start.Add(r.Suite.Run.Warmup)
	return r.watchCounts(ctx, s, table, from, from.Add(r.Suite.Run.Measure))
}
