package compare

import (
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// countedTrial is a trial whose client did reads and writes and whose
// servers counted sreads and swrites (and cache lookups).
func countedTrial(w string, pair int, reads, writes, sreads, swrites, hits, misses int64) results.Trial {
	ops := map[string]results.OpStats{}
	if reads > 0 {
		ops["READ"] = results.OpStats{Count: reads}
	}
	if writes > 0 {
		ops["UPDATE"] = results.OpStats{Count: writes}
	}
	return results.Trial{Workload: w, Pair: pair, Ops: ops, Server: &results.ServerStats{Counts: &results.Counts{
		ServerReadRequests: sreads, ServerWriteRequests: swrites, RequestsKnown: true,
		BlockCacheHits: hits, BlockCacheMisses: misses, BlockCacheKnown: hits+misses > 0,
	}}}
}

// scaled marks t's counts as scaled to the window by share.
func scaled(t results.Trial, share float64) results.Trial {
	t.Server.Counts.WindowShare = share
	return t
}

func TestShortCounts(t *testing.T) {
	tests := []struct {
		name   string
		bt, ct []results.Trial
		want   []string // "" entries: no warning
	}{
		{name: "servers counted every operation", bt: []results.Trial{countedTrial("workloada", 0, 1200, 1200, 1203, 1199, 0, 0)},
			ct: []results.Trial{countedTrial("workloada", 0, 1200, 1200, 1200, 1200, 0, 0)}},
		{name: "within the slack of a few in flight", bt: []results.Trial{countedTrial("workloadc", 0, 2400, 0, 2391, 0, 0, 0)}},
		{name: "servers counted more (scans count rows)", bt: []results.Trial{countedTrial("workloade", 0, 100, 0, 9000, 0, 0, 0)}},
		{name: "reads short", ct: []results.Trial{countedTrial("workloadc", 3, 2400, 0, 2100, 0, 0, 0)},
			want: []string{"1 trial(s)", "workloadc pair 3 candidate (2100 reads for the client's 2400)"}},
		{name: "writes short on the baseline", bt: []results.Trial{countedTrial("workloada", 1, 1200, 1200, 1200, 0, 0, 0)},
			want: []string{"workloada pair 1 baseline (0 writes for the client's 1200)"}},
		{name: "a count scaled to the window may fall short by chance", bt: []results.Trial{scaled(countedTrial("workloadb", 5, 9500, 488, 9480, 476, 0, 0), 0.833)}},
		{name: "a scaled count far short is still named", bt: []results.Trial{scaled(countedTrial("workloadb", 5, 9500, 488, 9480, 300, 0, 0), 0.833)},
			want: []string{"workloadb pair 5 baseline (300 writes for the client's 488)"}},
		{name: "unknown counts are not judged", bt: []results.Trial{{Workload: "workloadc", Ops: map[string]results.OpStats{"READ": {Count: 9}},
			Server: &results.ServerStats{Counts: &results.Counts{CountsNote: "HBase 1.x"}}}, {Workload: "workloadc"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := shortCounts(tt.bt, tt.ct)
			if len(tt.want) == 0 && w != "" {
				t.Errorf("warning %q, want none", w)
			}
			for _, want := range tt.want {
				if !strings.Contains(w, want) {
					t.Errorf("warning %q lacks %q", w, want)
				}
			}
		})
	}
}

func TestServerCountsSumPerWorkloadAndSide(t *testing.T) {
	bt := []results.Trial{countedTrial("workloadc", 0, 2400, 0, 2401, 0, 900, 100), countedTrial("workloadc", 1, 2400, 0, 2399, 0, 1000, 0)}
	ct := []results.Trial{countedTrial("workloadc", 0, 2400, 0, 2400, 0, 0, 0), {Workload: "workloadc", Pair: 1}}
	got := serverCounts(bt, ct)
	want := []ServerCounts{
		{Workload: "workloadc", Side: "baseline", RequestTrials: 2, ClientReads: 4800, ServerReads: 4800, CacheTrials: 2, BlockCacheHits: 1900, BlockCacheMisses: 100, HitRatio: 0.95},
		{Workload: "workloadc", Side: "candidate", RequestTrials: 1, ClientReads: 2400, ServerReads: 2400},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("row %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := serverCounts([]results.Trial{{Workload: "x"}}, nil); got != nil {
		t.Errorf("no counts: got %+v, want nil", got)
	}
}

func TestServerCountNotesDistinctPerSide(t *testing.T) {
	note := func(n string) results.Trial {
		return results.Trial{Workload: "workloadc", Server: &results.ServerStats{Counts: &results.Counts{CountsNote: n}}}
	}
	bt := []results.Trial{note("server-counted requests not available: HBase 1.x; block cache counts not available: no /prometheus"), note("block cache counts not available: no /prometheus"), {Workload: "workloadc"}}
	ct := []results.Trial{note(""), countedTrial("workloadc", 0, 1, 0, 1, 0, 0, 0)}
	got := serverCountNotes(bt, ct)
	want := []string{"baseline: block cache counts not available: no /prometheus", "baseline: server-counted requests not available: HBase 1.x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := serverCountNotes(nil, ct); got != nil {
		t.Errorf("no notes: got %q", got)
	}
}

// TestServerCountsCountTheClientsScans: a workload's scans (less the
// failed) are summed apart, so a report can say why its servers counted
// many more reads than the client sent.
func TestServerCountsCountTheClientsScans(t *testing.T) {
	tr := countedTrial("workloade", 0, 0, 100, 190000, 100, 0, 0)
	tr.Ops["SCAN"] = results.OpStats{Count: 1900, Errors: 2}
	got := serverCounts([]results.Trial{tr}, nil)
	if len(got) != 1 || got[0].ClientScans != 1898 || got[0].ClientReads != 1898 {
		t.Errorf("got %+v, want 1898 scans among 1898 client reads", got)
	}
}
