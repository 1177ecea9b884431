package lifecycle

import (
	"fmt"
	"testing"

	"github.com/regress-hbase/regress/harness/hbase"
)

func TestLayoutBalanced(t *testing.T) {
	for _, tc := range []struct {
		l    Layout
		want bool
	}{
		{Layout{"a": 4}, true},
		{Layout{"a": 2, "b": 2}, true},
		{Layout{"a": 3, "b": 2}, true},
		{Layout{"a": 1, "b": 0}, true}, // one region, two servers: as even as it gets
		{Layout{"a": 4, "b": 0}, false},
		{Layout{"a": 3, "b": 1}, false},
		{Layout{"a": 2, "b": 2, "": 1}, false},
		{Layout{"a": 2, "b": 2, "c": 0}, false},
	} {
		if got := tc.l.Balanced(); got != tc.want {
			t.Errorf("%v.Balanced() = %v, want %v", tc.l, got, tc.want)
		}
	}
	if s := (Layout{"b:2": 1, "a:1": 3, "": 1}).String(); s != "unassigned=1 a:1=3 b:2=1" {
		t.Errorf("String() = %q", s)
	}
}

func TestPlanMovesEvensTheSpread(t *testing.T) {
	regions := func(servers ...string) []hbase.RegionInfo {
		var out []hbase.RegionInfo
		for i, s := range servers {
			out = append(out, hbase.RegionInfo{Name: fmt.Appendf(nil, "r%d", i), Server: s})
		}
		return out
	}
	for _, tc := range []struct {
		regions []hbase.RegionInfo
		servers []string
		moves   int
	}{
		{regions("a", "a", "a", "a"), []string{"a", "b"}, 2},
		{regions("a", "a", "a", "a", "a", "a", "a", "a"), []string{"a", "b", "c"}, 5},
		{regions("a", "b", "a", "b"), []string{"a", "b"}, 0},
		{regions("a", "a", "a"), []string{"a", "b"}, 1},
		{regions("a", "a", "x"), []string{"a", "b"}, 1}, // x is not live: not planned
	} {
		moves := planMoves(tc.regions, tc.servers)
		if len(moves) != tc.moves {
			t.Errorf("%d regions on %v: %d moves %v, want %d", len(tc.regions), tc.servers, len(moves), moves, tc.moves)
		}
		l := Layout{}
		for _, s := range tc.servers {
			l[s] = 0
		}
		at := map[string]string{}
		for _, r := range tc.regions {
			at[string(r.Name)] = r.Server
		}
		for _, m := range moves {
			at[string(m.region.Name)] = m.to
		}
		for _, s := range at {
			if _, live := l[s]; live {
				l[s]++
			}
		}
		if !l.Balanced() {
			t.Errorf("%d regions on %v: after the moves %v", len(tc.regions), tc.servers, l)
		}
	}
}
