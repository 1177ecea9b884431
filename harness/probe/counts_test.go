package probe

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/servercost"
)

func TestWindowCounts(t *testing.T) {
	regions := func(rr ...[3]uint64) []hbase.RegionRequests {
		var out []hbase.RegionRequests
		for i, r := range rr {
			out = append(out, hbase.RegionRequests{Region: fmt.Sprintf("t,%d", i), Read: r[0], Write: r[1], FilteredRead: r[2]})
		}
		return out
	}
	caches := func(hm ...[2]int64) []servercost.BlockCache {
		var out []servercost.BlockCache
		for _, c := range hm {
			out = append(out, servercost.BlockCache{Hits: c[0], Misses: c[1]})
		}
		return out
	}
	both := countServers{regionServer: []string{"rs"}, infoServers: []string{"a", "b"}}
	tests := []struct {
		name            string
		src             countServers
		a, b            countReading
		reads, writes   int64
		hits, misses    int64
		ratio           float64
		requests, cache bool
		note            string
	}{
		{
			name:  "two regions, two servers",
			src:   both,
			a:     countReading{regions: regions([3]uint64{100, 5, 0}, [3]uint64{10, 0, 1}), caches: caches([2]int64{1000, 10}, [2]int64{0, 0})},
			b:     countReading{regions: regions([3]uint64{1300, 5, 0}, [3]uint64{1210, 600, 1}), caches: caches([2]int64{3000, 20}, [2]int64{90, 10})},
			reads: 2400, writes: 600, hits: 2090, misses: 20, ratio: 2090.0 / 2110, requests: true, cache: true,
		},
		{
			name: "a region split in the window",
			src:  both,
			a:    countReading{regions: regions([3]uint64{100, 0, 0}), caches: caches([2]int64{0, 0}, [2]int64{0, 0})},
			b:    countReading{regions: regions([3]uint64{50, 0, 0}, [3]uint64{60, 0, 0}), caches: caches([2]int64{5, 5}, [2]int64{0, 0})},
			hits: 5, misses: 5, ratio: 0.5, cache: true, note: "regions changed",
		},
		{
			name: "HBase 1.x and no /prometheus",
			src:  both,
			a:    countReading{requestsErr: hbase.ErrNoRegionLoad, cacheErr: servercost.ErrNoLiveMetrics},
			b:    countReading{requestsErr: hbase.ErrNoRegionLoad, cacheErr: servercost.ErrNoLiveMetrics},
			note: "HBase 0.98 and 1.x region servers have no GetRegionLoad; block cache counts not available: no /prometheus",
		},
		{
			name: "a server restarted",
			src:  both,
			a:    countReading{regions: regions([3]uint64{100, 0, 0}), caches: caches([2]int64{500, 5}, [2]int64{0, 0})},
			b:    countReading{regions: regions([3]uint64{40, 0, 0}), caches: caches([2]int64{10, 1}, [2]int64{0, 0})},
			note: "counters went back",
		},
		{
			name:     "no info server",
			src:      countServers{regionServer: []string{"rs"}, cacheNote: "block cache counts not available: region server rs runs no info server"},
			a:        countReading{regions: regions([3]uint64{0, 0, 0})},
			b:        countReading{regions: regions([3]uint64{2400, 0, 0})},
			reads:    2400,
			requests: true,
			note:     "runs no info server",
		},
		{
			name: "a read failed",
			src:  both,
			a:    countReading{regions: regions([3]uint64{0, 0, 0}), caches: caches([2]int64{0, 0}, [2]int64{0, 0})},
			b:    countReading{requestsErr: errors.New("connection refused"), cacheErr: errors.New("timeout")},
			note: "server-counted requests not read: connection refused; block cache counts not read: timeout",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := windowCounts(&tt.src, tt.a, tt.b)
			if c.RequestsKnown != tt.requests || c.ServerReadRequests != tt.reads || c.ServerWriteRequests != tt.writes {
				t.Errorf("requests: known %v, %d reads, %d writes; want %v, %d, %d", c.RequestsKnown, c.ServerReadRequests, c.ServerWriteRequests, tt.requests, tt.reads, tt.writes)
			}
			if c.BlockCacheKnown != tt.cache || c.BlockCacheHits != tt.hits || c.BlockCacheMisses != tt.misses || c.BlockCacheHitRatio != tt.ratio {
				t.Errorf("block cache: known %v, %d hits, %d misses, ratio %v; want %v, %d, %d, %v", c.BlockCacheKnown, c.BlockCacheHits, c.BlockCacheMisses, c.BlockCacheHitRatio, tt.cache, tt.hits, tt.misses, tt.ratio)
			}
			if !strings.Contains(c.CountsNote, tt.note) || (tt.note == "") != (c.CountsNote == "") {
				t.Errorf("note %q, want one holding %q", c.CountsNote, tt.note)
			}
		})
	}
}

// TestSameAddrTakesLoopbackNamesAsOne: a 1.x region server registers its
// info server as localhost:PORT, regress names it 127.0.0.1:PORT; both are
// one listener, and another port or host is not.
func TestSameAddrTakesLoopbackNamesAsOne(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"localhost:16030", "127.0.0.1:16030", true},
		{"127.0.0.1:16030", "[::1]:16030", true},
		{"rs1.example:16030", "rs1.example:16030", true},
		{"localhost:16030", "127.0.0.1:16031", false},
		{"rs1.example:16030", "rs2.example:16030", false},
		{"rs1.example:16030", "127.0.0.1:16030", false},
	} {
		if got := sameAddr(tc.a, tc.b); got != tc.want {
			t.Errorf("sameAddr(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
