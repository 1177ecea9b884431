package lifecycle

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/hbase"
)

// How long Spread waits for the balancer's and its own moves to land.
const (
	balanceSettle = 30 * time.Second
	moveSettle    = 90 * time.Second
)

// Layout is how many of a table's regions each live region server hosts
// (host:port; "" counts regions not assigned).
type Layout map[string]int

// Balanced says whether no server hosts more than one region more than
// another and every region is assigned.
func (l Layout) Balanced() bool {
	if l[""] > 0 {
		return false
	}
	lo, hi := -1, 0
	for s, n := range l {
		if s == "" {
			continue
		}
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return hi-max(lo, 0) <= 1
}

// String lists the counts by server: "127.0.0.1:40001=4 127.0.0.1:40003=4".
func (l Layout) String() string {
	keys := slices.Sorted(maps.Keys(l))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		name := k
		if name == "" {
			name = "unassigned"
		}
		parts = append(parts, fmt.Sprintf("%s=%d", name, l[k]))
	}
	return strings.Join(parts, " ")
}

// move is one planned region move.
type move struct {
	region hbase.RegionInfo
	to     string
}

// planMoves moves regions from the fullest server to the emptiest until no
// server hosts more than one region more than another.
func planMoves(regions []hbase.RegionInfo, servers []string) []move {
	by := map[string][]hbase.RegionInfo{}
	for _, s := range servers {
		by[s] = nil
	}
	for _, r := range regions {
		if _, live := by[r.Server]; live {
			by[r.Server] = append(by[r.Server], r)
		}
	}
	var moves []move
	for {
		names := slices.Sorted(maps.Keys(by))
		sort.SliceStable(names, func(i, j int) bool { return len(by[names[i]]) < len(by[names[j]]) })
		lo, hi := names[0], names[len(names)-1]
		if len(by[hi])-len(by[lo]) <= 1 {
			return moves
		}
		r := by[hi][len(by[hi])-1]
		by[hi] = by[hi][:len(by[hi])-1]
		by[lo] = append(by[lo], r)
		moves = append(moves, move{region: r, to: lo})
	}
}

// layout reads the table's regions and the live servers' share of them.
func (m *Manager) layout(ctx context.Context, table string) (Layout, []hbase.RegionInfo, []string, error) {
	servers, err := m.admin.LiveRegionServers(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("list live region servers: %w", err)
	}
	regions, err := m.admin.TableRegions(ctx, table)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("list regions of %s: %w", table, err)
	}
	l := Layout{}
	for _, s := range servers {
		l[s] = 0
	}
	for _, r := range regions {
		if _, live := l[r.Server]; live {
			l[r.Server]++
		} else {
			l[""]++
		}
	}
	return l, regions, servers, nil
}

// waitBalanced polls the layout until it is balanced or d passes.
func (m *Manager) waitBalanced(ctx context.Context, table string, d time.Duration) (Layout, []hbase.RegionInfo, []string, error) {
	deadline := time.Now().Add(d)
	for {
		l, regions, servers, err := m.layout(ctx, table)
		if err != nil || l.Balanced() || time.Now().After(deadline) {
			return l, regions, servers, err
		}
		select {
		case <-ctx.Done():
			return l, regions, servers, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Spread makes sure table's regions are spread evenly over the live region
// servers (at most one region more on any server than on another) and
// returns the layout. With one server there is nothing to do. Otherwise, if
// the regions are not spread already, it asks the master to balance, and if
// that leaves them uneven (the master balances the whole cluster, not one
// table) it moves regions from the fullest servers itself. It fails when
// they stay uneven: a trial on a lopsided table measures one server.
func (m *Manager) Spread(ctx context.Context, table string) (Layout, error) {
	l, _, servers, err := m.layout(ctx, table)
	if err != nil || len(servers) < 2 {
		return l, err
	}
	if l.Balanced() {
		m.log.Info("regions per server", "table", table, "layout", l.String())
		return l, nil
	}
	m.log.Info("regions unevenly spread; asking the master to balance", "table", table, "layout", l.String())
	if _, err := m.admin.Balance(ctx); err != nil {
		m.log.Warn("the master's balancer failed; moving regions directly", "err", err)
	}
	l, regions, servers, err := m.waitBalanced(ctx, table, balanceSettle)
	if err != nil {
		return l, err
	}
	if !l.Balanced() {
		moves := planMoves(regions, servers)
		m.log.Info("moving regions to even the spread", "table", table, "layout", l.String(), "moves", len(moves))
		for _, mv := range moves {
			if err := m.admin.MoveRegion(ctx, table, mv.region, mv.to); err != nil {
				return l, fmt.Errorf("spread %s over %d region servers (%s): %w", table, len(servers), l, err)
			}
		}
		if l, _, _, err = m.waitBalanced(ctx, table, moveSettle); err != nil {
			return l, err
		}
	}
	if !l.Balanced() {
		return l, fmt.Errorf("table %s: its regions stay unevenly spread over %d region servers after the balancer and region moves (%s); check the master log for failed moves", table, len(servers), l)
	}
	m.log.Info("regions per server", "table", table, "layout", l.String())
	return l, nil
}
