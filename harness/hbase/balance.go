package hbase

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// RegionsPerServer counts the table's online regions per hosting server
// (host:port), from hbase:meta; every live region server is listed, with 0
// when it hosts none, and regions not assigned count under "".
func (c *Client) RegionsPerServer(ctx context.Context, table string) (map[string]int, error) {
	regions, err := c.TableRegions(ctx, table)
	if err != nil {
		return nil, err
	}
	servers, err := c.LiveRegionServers(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(servers))
	for _, s := range servers {
		out[s] = 0
	}
	for _, r := range regions {
		out[r.Server]++
	}
	return out, nil
}

// Balance asks the master to run its balancer once and says whether it ran
// (false when the balancer is switched off or regions are in transition).
func (c *Client) Balance(ctx context.Context) (bool, error) {
	var resp pb.BalanceResponse
	if err := c.masterCall(ctx, "", "Balance", &pb.BalanceRequest{}, &resp); err != nil {
		return false, fmt.Errorf("hbase: balance: %w", err)
	}
	return resp.GetBalancerRan(), nil
}

// MoveRegion moves region r of table to the live region server dest
// (host:port) and returns once the master has taken the move; callers read
// hbase:meta to see it land.
func (c *Client) MoveRegion(ctx context.Context, table string, r RegionInfo, dest string) error {
	enc := encodedName(r.Name)
	if enc == nil {
		return fmt.Errorf("hbase: move region %q of table %q: its name carries no encoded name", r.Name, table)
	}
	st, err := c.clusterStatus(ctx, pb.GetClusterStatusRequest_LIVE_SERVERS)
	if err != nil {
		return err
	}
	var to *pb.ServerName
	var live []string
	for _, s := range st.GetLiveServers() {
		live = append(live, serverAddr(s.GetServer()))
		if serverAddr(s.GetServer()) == dest {
			// The master matches the destination with its start code.
			to = s.GetServer()
		}
	}
	if to == nil {
		sort.Strings(live)
		return fmt.Errorf("hbase: move region %q of table %q: %s is not a live region server (live: %v)", r.Name, table, dest, live)
	}
	req := &pb.MoveRegionRequest{
		Region:         &pb.RegionSpecifier{Type: pb.RegionSpecifier_ENCODED_REGION_NAME.Enum(), Value: enc},
		DestServerName: &pb.ServerName{HostName: proto.String(to.GetHostName()), Port: proto.Uint32(to.GetPort()), StartCode: proto.Uint64(to.GetStartCode())},
	}
	var resp pb.MoveRegionResponse
	if err := c.masterCall(ctx, table, "MoveRegion", req, &resp); err != nil {
		return fmt.Errorf("hbase: move region %q of table %q to %s: %w", r.Name, table, dest, err)
	}
	c.cache.removeTable(table)
	return nil
}

// encodedName returns the encoded part of a region name
// ("table,start,id.ENCODED."), or nil for an old-format name without one.
func encodedName(name []byte) []byte {
	if len(name) < 2 || name[len(name)-1] != '.' {
		return nil
	}
	i := bytes.LastIndexByte(name[:len(name)-1], '.')
	if i < 0 || i == len(name)-2 {
		return nil
	}
	return name[i+1 : len(name)-1]
}
