package probe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/servercost"
)

// CountSource is where a side's servers' counts are read from, found once
// per side: its region servers (for GetRegionLoad) and their info servers
// (for /prometheus), or why the block cache cannot be read. Its zero value
// is ready; a side started afresh gets a new one.
type CountSource struct {
	once sync.Once
	countServers
}

// countServers are the servers a side's counts are read from.
type countServers struct {
	regionServer []string
	infoServers  []string
	requestsNote string
	cacheNote    string
	// address maps a server's name (servercost.Server.Name) to its RPC
	// host:port, found through its info server; kept for sides of several.
	address map[string]string
}

// Addresses maps each of the side's servers' names to its RPC host:port
// as the counts found them (nil before, and on a side of one server).
func (cs *CountSource) Addresses() map[string]string { return cs.address }

// httpCounts reads info servers; each request has its own deadline.
var httpCounts = &http.Client{}

// find lists c's region servers and their info servers; a failure leaves
// a note, not an error: the trial runs on without its counts. Servers read
// through /jmx (a cluster regress did not start) give their info servers as
// sut found them, https:// where they speak TLS.
func (cs *CountSource) find(ctx context.Context, c *hbase.Client, servers servercost.Servers) {
	cs.once.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		rs, err := c.LiveRegionServers(ctx)
		if err != nil || len(rs) == 0 {
			cs.requestsNote = fmt.Sprintf("server-counted requests not available: no live region server listed (%v)", err)
		}
		cs.regionServer = rs
		if len(servers) > 1 {
			cs.address = addresses(ctx, c, servers)
		}
		if jmx := jmxAddrs(servers); jmx != nil {
			cs.infoServers = jmx
			return
		}
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

// addresses maps each of servers' names to its RPC host:port, matching the
// info server it is read through (or runs the agent on) with the ones the
// region servers registered; a server not matched is left out.
func addresses(ctx context.Context, c *hbase.Client, servers servercost.Servers) map[string]string {
	infos, err := c.InfoServers(ctx)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, sv := range servers {
		info := cmp.Or(sv.JMX, sv.Agent)
		info = strings.TrimPrefix(strings.TrimPrefix(info, "https://"), "http://")
		for _, is := range infos {
			if is.Info != "" && sameAddr(is.Info, info) {
				out[sv.Name] = is.Server
			}
		}
	}
	return out
}

// sameAddr reports whether two host:port name one listener: the same
// port, and the same host or two names of this machine's loopback (a
// region server of 1.x registers as localhost, regress names 127.0.0.1).
func sameAddr(a, b string) bool {
	ha, pa, errA := net.SplitHostPort(a)
	hb, pb, errB := net.SplitHostPort(b)
	if errA != nil || errB != nil || pa != pb {
		return a == b
	}
	return ha == hb || (loopback(ha) && loopback(hb))
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// jmxAddrs are the info servers of servers read through /jmx, nil unless
// every one is.
func jmxAddrs(servers servercost.Servers) []string {
	var out []string
	for _, sv := range servers {
		if sv.PID != 0 || sv.JMX == "" {
			return nil
		}
		out = append(out, sv.JMX)
	}
	return out
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

// countProbe is one side's counts taken around a trial: a reading before
// the trial's idle watch and one after its measurement window's last
// server reading, never inside either. A reading is a request to the
// servers (GetRegionLoad on an RPC handler, /prometheus sampling every
// metrics source: about 9 MB and tens of ms of the JVM a read, measured on
// 2.6.1), so one taken at a window's edge was the trial's own cost: a
// quarter to two thirds of a profiled window's allocation on 2.6.1 was
// /prometheus answering it.
type countProbe struct {
	cs    *CountSource
	table string
	a     countReading
}

// Counts is the counts probe: on a counted trial its servers' counts,
// read before the idle watch and after the window's last reading
// (countProbe). The profiled pair has none: its recorder stops when jcmd
// reaches the JVM (a /prof run when its whole seconds end), a second or
// so after the window's last reading, while Closed already runs: a counts
// read then (a /prometheus page, the whole /jmx) would land in the profile
// as the release's own frames, and the profiled pair's trials are stored
// only as their profiles, so their counts serve nothing.
type Counts struct{}

// Hooks reads t's counts before its idle watch and returns them scaled to
// its window when it has closed; none on the profiled pair.
func (Counts) Hooks(t Trial) (Hooks, bool) {
	if t.Profiled {
		return Hooks{}, false
	}
	var counts *countProbe
	return Hooks{
		Before: func(ctx context.Context) { counts = countsBefore(ctx, t) },
		Closed: func(ctx context.Context, m *Measured) Outcome {
			if m == nil {
				return Outcome{}
			}
			return Outcome{Counts: counts.after(ctx, t, m.Result)}
		},
	}, true
}

// countsBefore takes t's first counts reading of its table now, before the
// trial's idle watch; nil when t's counts are not read (no servers known, no client).
func countsBefore(ctx context.Context, t Trial) *countProbe {
	if len(t.Servers) == 0 || t.Client == nil || t.Counts == nil {
		return nil
	}
	cs := t.Counts
	cs.find(ctx, t.Client, t.Servers)
	return &countProbe{cs: cs, table: t.Table, a: cs.read(ctx, t.Client, t.Table)}
}

// after takes the second reading, once the window's last reading is
// taken, and returns the counts between the two scaled to the window: the
// span also held the warm-up's operations (none ran in the idle watch or
// the lead), and the load is paced at one rate with one mix throughout, so
// the window's share is its share of the client's operations. The block
// cache's hit ratio is not scaled. Nil for a nil probe.
func (p *countProbe) after(ctx context.Context, t Trial, res *loadgen.Result) *results.Counts {
	if p == nil {
		return nil
	}
	if ctx.Err() != nil {
		return &results.Counts{CountsNote: "counts not read: the run was stopped"}
	}
	b := p.cs.read(ctx, t.Client, p.table)
	c := windowCounts(&p.cs.countServers, p.a, b)
	if res != nil && res.Ops > 0 && res.WarmupOps > 0 {
		share := float64(res.Ops) / float64(res.Ops+res.WarmupOps)
		scale := func(v int64) int64 { return int64(math.Round(float64(v) * share)) }
		c.ServerReadRequests, c.ServerWriteRequests, c.ServerFilteredReads = scale(c.ServerReadRequests), scale(c.ServerWriteRequests), scale(c.ServerFilteredReads)
		c.BlockCacheHits, c.BlockCacheMisses = scale(c.BlockCacheHits), scale(c.BlockCacheMisses)
		for i := range c.PerServer {
			c.PerServer[i].Reads, c.PerServer[i].Writes = scale(c.PerServer[i].Reads), scale(c.PerServer[i].Writes)
		}
		c.WindowShare = share
	}
	return c
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
			notes = append(notes, "server-counted requests not available: HBase 0.98 and 1.x region servers have no GetRegionLoad")
		} else {
			notes = append(notes, "server-counted requests not read: "+err.Error())
		}
	default:
		if reads, writes, filtered, ok := requestDelta(a.regions, b.regions); ok {
			c.ServerReadRequests, c.ServerWriteRequests, c.ServerFilteredReads, c.RequestsKnown = reads, writes, filtered, true
			c.PerServer = perServer(a.regions, b.regions)
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

// perServer is requestDelta's counts by region server, nil when the
// regions sit on one (requestDelta has checked the readings match).
func perServer(a, b []hbase.RegionRequests) []results.ServerRequests {
	var out []results.ServerRequests
	at := map[string]int{}
	for i := range b {
		j, ok := at[b[i].Server]
		if !ok {
			j = len(out)
			at[b[i].Server] = j
			out = append(out, results.ServerRequests{Address: b[i].Server})
		}
		out[j].Reads += int64(b[i].Read - a[i].Read)
		out[j].Writes += int64(b[i].Write - a[i].Write)
	}
	if len(out) < 2 {
		return nil
	}
	slices.SortFunc(out, func(x, y results.ServerRequests) int { return strings.Compare(x.Address, y.Address) })
	return out
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
