package servercost

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// BlockCache is a region server's block cache counters at one instant.
type BlockCache struct {
	At time.Time
	// Hits and Misses count block lookups since the server started that
	// found their block cached or not (CacheStats' hit and miss counts,
	// caching and non-caching lookups alike).
	Hits, Misses int64
}

// ErrNoLiveMetrics marks an info server with no /prometheus: HBase before
// 2.6 serves its metrics only through /jmx, which answers from a cache
// refreshed at most once per metrics period (10 s by default, longer than
// a trial's window), so a window's block cache figure would be stale.
var ErrNoLiveMetrics = errors.New("no /prometheus on the info server (HBase before 2.6): its /jmx is refreshed once per 10 s metrics period, too seldom for a trial's window")

// Prometheus names of the region server's counters (record "Server", its
// metric names split at case changes).
const (
	promHits   = "server_block_cache_hit_count"
	promMisses = "server_block_cache_miss_count"
)

// ReadBlockCache reads the block cache counters of the region server whose
// info server is at addr (host:port, or FindJMX's https://host:port) through
// /prometheus. HBase 2.6+
// answers it by sampling every metrics source when asked
// (MetricsExportHelper.export calls MetricsSystemImpl.sampleMetrics), and
// the region server's source reads the block cache's CacheStats live, so
// the counts are those of the moment of the request, not of the last
// metrics period. ErrNoLiveMetrics when the server has no /prometheus.
//
// Now and then HBase answers 200 with an empty body: five seconds after a
// region opens or closes (a trial table's clone or drop), its
// JmxCacheBuster stops the whole metrics system, sleeps 500 ms and starts
// it again, and a sample taken meanwhile holds no source (the restart logs
// "MetricsConfig: Cannot locate configuration"). Such a reading is taken
// again, blockCacheRetry apart, for up to blockCacheTries tries (1.5 s):
// longer than the restart, so a reading at a window's edge is late by at
// most that, never missing because of it.
func ReadBlockCache(ctx context.Context, client *http.Client, addr string) (BlockCache, error) {
	var err error
	for i := range blockCacheTries {
		if i > 0 {
			select {
			case <-time.After(blockCacheRetry):
			case <-ctx.Done():
				return BlockCache{}, ctx.Err()
			}
		}
		var bc BlockCache
		if bc, err = readBlockCacheOnce(ctx, client, addr); !errors.Is(err, errNoCounters) {
			return bc, err
		}
	}
	return BlockCache{}, err
}

// blockCacheTries bounds the readings ReadBlockCache takes for one answer,
// blockCacheRetry apart.
const (
	blockCacheTries = 16
	blockCacheRetry = 100 * time.Millisecond
)

// answerTail says how an answer ends, for an error: its line count and
// last line, cut short.
func answerTail(body []byte) string {
	lines := bytes.Split(bytes.TrimRight(body, "\n"), []byte("\n"))
	last := string(lines[len(lines)-1])
	if len(last) > 160 {
		last = last[:160] + "..."
	}
	return fmt.Sprintf("%d lines, the last %q", len(lines), last)
}

// errNoCounters marks an answer without the block cache counters.
var errNoCounters = errors.New("no block cache counters in the answer")

func readBlockCacheOnce(ctx context.Context, client *http.Client, addr string) (BlockCache, error) {
	ctx, cancel := context.WithTimeout(ctx, jmxTimeout)
	defer cancel()
	// qry keeps the answer to the block cache's lines; the sampling is
	// of every source all the same.
	u := baseURL(addr) + "/prometheus?qry=server_block_cache_"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return BlockCache{}, err
	}
	at := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return BlockCache{}, fmt.Errorf("read %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return BlockCache{}, fmt.Errorf("read %s: %w", u, ErrNoLiveMetrics)
	}
	if resp.StatusCode != http.StatusOK {
		return BlockCache{}, fmt.Errorf("read %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return BlockCache{}, fmt.Errorf("read %s: %w", u, err)
	}
	bc, err := parseBlockCache(bytes.NewReader(body))
	if err != nil {
		return BlockCache{}, fmt.Errorf("read %s: %w (answer of %d bytes, %s)", u, err, len(body), answerTail(body))
	}
	// The server samples between the request and its answer; the request's
	// start is as close as this side can place it.
	bc.At = at
	return bc, nil
}

// parseBlockCache reads the hit and miss counters from Prometheus text: a
// line "name{labels} value" each, where a region server's record carries
// context="regionserver" (a standalone JVM also holds the master's
// records, which have no block cache counters).
func parseBlockCache(r io.Reader) (BlockCache, error) {
	var bc BlockCache
	var seenHits, seenMisses bool
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, labels, value, ok := promLine(line)
		if !ok || (labels != "" && !strings.Contains(labels, `context="regionserver"`)) {
			continue
		}
		switch name {
		case promHits:
			bc.Hits, seenHits = value, true
		case promMisses:
			bc.Misses, seenMisses = value, true
		}
	}
	if err := sc.Err(); err != nil {
		return bc, err
	}
	if !seenHits || !seenMisses {
		return bc, fmt.Errorf("%w: no %s and %s lines (not a region server's /prometheus?)", errNoCounters, promHits, promMisses)
	}
	return bc, nil
}

// promLine splits "name{labels} value"; ok is false for anything else.
func promLine(line string) (name, labels string, value int64, ok bool) {
	sp := strings.LastIndexByte(line, ' ')
	if sp <= 0 {
		return "", "", 0, false
	}
	head, num := line[:sp], strings.TrimSpace(line[sp+1:])
	name = head
	if i := strings.IndexByte(head, '{'); i >= 0 {
		if !strings.HasSuffix(head, "}") {
			return "", "", 0, false
		}
		name, labels = head[:i], head[i+1:len(head)-1]
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(num, 64)
		if ferr != nil || f < 0 || f > 1<<62 {
			return "", "", 0, false
		}
		v = int64(f)
	}
	return strings.TrimSpace(name), labels, v, true
}
