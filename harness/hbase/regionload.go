package hbase

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// ErrNoRegionLoad marks a cluster whose region servers have no
// GetRegionLoad call: HBase 0.98 and 1.x, where a table's request counts reach the
// client only through the master's cluster status, which each server
// refreshes once per heartbeat (3 s), too coarse for an 8 s window.
var ErrNoRegionLoad = errors.New("hbase: the region servers have no GetRegionLoad (HBase 0.98 and 1.x); per-table request counts are not available")

// RegionRequests are the requests one region counted since it opened, as
// its region server read them from the region's live counters when asked.
type RegionRequests struct {
	// Region is the region's name (its RegionSpecifier value).
	Region string
	// Server is the region server that answered, host:port.
	Server string
	// Read counts Gets and scanner next calls, one per row returned to a
	// scan (a Get is one); FilteredRead counts rows a filter dropped; Write
	// counts mutations, one per row of a batch.
	Read, FilteredRead, Write uint64
}

// TableRequests asks each of servers (host:port, e.g. from
// LiveRegionServers) for the request counters of table's regions it holds,
// all at once, and returns them sorted by region. A server that holds none
// answers with nothing. Every server must answer: a missing one would make
// a sum over the table short.
func (c *Client) TableRequests(ctx context.Context, table string, servers []string) ([]RegionRequests, error) {
	if c.legacy {
		return nil, ErrNoRegionLoad
	}
	req := &pb.GetRegionLoadRequest{TableName: toTableName(table)}
	out := make([][]RegionRequests, len(servers))
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, addr := range servers {
		wg.Go(func() {
			out[i], errs[i] = c.serverRegionLoads(ctx, addr, req)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("hbase: request counts of table %q: %w", table, err)
	}
	var all []RegionRequests
	for _, rs := range out {
		all = append(all, rs...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Region < all[j].Region })
	return all, nil
}

// serverRegionLoads is one server's GetRegionLoad for req's table.
func (c *Client) serverRegionLoads(ctx context.Context, addr string, req *pb.GetRegionLoadRequest) ([]RegionRequests, error) {
	cn, err := c.getConn(ctx, addr, adminService)
	if err != nil {
		return nil, fmt.Errorf("region server %s: %w", addr, err)
	}
	var resp pb.GetRegionLoadResponse
	if err := cn.invoke(ctx, "GetRegionLoad", req, &resp, c.cfg.rpcTimeout); err != nil {
		var re *RemoteError
		if errors.As(err, &re) && isUnknownMethod(re) {
			return nil, fmt.Errorf("region server %s: %w", addr, ErrNoRegionLoad)
		}
		return nil, fmt.Errorf("region server %s: GetRegionLoad: %w", addr, err)
	}
	return regionRequests(addr, resp.GetRegionLoads()), nil
}

// regionRequests turns a server's RegionLoads into RegionRequests.
func regionRequests(addr string, loads []*pb.RegionLoad) []RegionRequests {
	out := make([]RegionRequests, 0, len(loads))
	for _, l := range loads {
		out = append(out, RegionRequests{
			Region: string(l.GetRegionSpecifier().GetValue()), Server: addr,
			Read: l.GetReadRequestsCount(), FilteredRead: l.GetFilteredReadRequestsCount(), Write: l.GetWriteRequestsCount(),
		})
	}
	return out
}

// isUnknownMethod reports whether a server refused a call it does not know
// (a 1.x server asked for a 2.x method).
func isUnknownMethod(re *RemoteError) bool {
	return re.Class == "org.apache.hadoop.hbase.exceptions.UnknownProtocolException" ||
		re.Class == "java.lang.UnsupportedOperationException" ||
		re.Class == "org.apache.hadoop.hbase.ipc.UnsupportedOperationException"
}
