package results

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestExpectedServerRequests(t *testing.T) {
	tests := []struct {
		name          string
		ops           map[string]OpStats
		reads, writes int64
	}{
		{name: "no ops"},
		{name: "workload C", ops: map[string]OpStats{"READ": {Count: 2400}}, reads: 2400},
		{name: "failures left out", ops: map[string]OpStats{"READ": {Count: 1200, Errors: 10}, "UPDATE": {Count: 1200, Errors: 1200}}, reads: 1190},
		// 500 reads and 500 read-modify-writes: each RMW is recorded as a READ and an UPDATE as well.
		{name: "workload F", ops: map[string]OpStats{"READ": {Count: 1000}, "UPDATE": {Count: 500}, "READ-MODIFY-WRITE": {Count: 500}}, reads: 1000, writes: 500},
		{name: "workload E", ops: map[string]OpStats{"SCAN": {Count: 950}, "INSERT": {Count: 50}}, reads: 950, writes: 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w := ExpectedServerRequests(tt.ops)
			if r != tt.reads || w != tt.writes {
				t.Errorf("got %d reads %d writes, want %d and %d", r, w, tt.reads, tt.writes)
			}
		})
	}
}

// The counts are flat fields of the server's JSON, absent when not read,
// so older manifests and readers see nothing new.
func TestCountsJSONIsAdditive(t *testing.T) {
	tests := []struct {
		name    string
		s       ServerStats
		want    []string
		notWant []string
	}{
		{name: "not read", s: ServerStats{Servers: 1}, notWant: []string{"server_read_requests", "block_cache", "counts_note"}},
		{name: "read", s: ServerStats{Servers: 1, Counts: &Counts{ServerReadRequests: 2400, RequestsKnown: true, BlockCacheHits: 9, BlockCacheMisses: 1, BlockCacheHitRatio: 0.9, BlockCacheKnown: true}},
			want: []string{`"server_read_requests":2400`, `"block_cache_hits":9`, `"block_cache_hit_ratio":0.9`, `"server_requests_known":true`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.s)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %s", b, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(string(b), w) {
					t.Errorf("%s holds %s", b, w)
				}
			}
			var back ServerStats
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if (back.Counts == nil) != (tt.s.Counts == nil) || (back.Counts != nil && !reflect.DeepEqual(*back.Counts, *tt.s.Counts)) {
				t.Errorf("round trip: got %+v, want %+v", back.Counts, tt.s.Counts)
			}
		})
	}
}
