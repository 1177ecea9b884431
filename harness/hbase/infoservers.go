package hbase

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/encoding/protowire"
)

// InfoServer is one live region server and the address of its info server
// (the web UI whose /jmx holds the server's metrics).
type InfoServer struct {
	// Server is the region server as host:port; Info its info server as
	// host:port, "" when the server runs none (hbase.regionserver.info.port -1).
	Server, Info string
}

// InfoServers lists the live region servers from their znodes under
// <parent>/rs, with each one's info server port (RegionServerInfo.infoPort,
// which HBase 1.1 and newer write there), or the port WithInfoPort gave.
func (c *Client) InfoServers(ctx context.Context) ([]InfoServer, error) {
	conn, _, err := zk.Connect(zk.FormatServers(strings.Split(c.zkAddr, ",")), 30*time.Second, zk.WithLogger(zkLogger{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, fmt.Errorf("zookeeper %s: %w", c.zkAddr, err)
	}
	type res struct {
		out []InfoServer
		err error
	}
	ch := make(chan res, 1)
	dir := c.cfg.znodeParent + "/rs"
	go func() {
		names, _, err := conn.Children(dir)
		if err != nil {
			ch <- res{err: fmt.Errorf("list %s: %w", dir, err)}
			return
		}
		var r res
		for _, n := range names {
			data, _, err := conn.Get(dir + "/" + n)
			if errors.Is(err, zk.ErrNoNode) {
				continue // the server went away since the listing
			}
			if err != nil {
				r.err = fmt.Errorf("read %s/%s: %w", dir, n, err)
				break
			}
			r.out = append(r.out, infoServerOf(n, data, c.cfg.infoPort))
		}
		ch <- r
	}()
	select {
	case r := <-ch:
		conn.Close()
		if r.err != nil {
			return nil, fmt.Errorf("zookeeper %s: %w", c.zkAddr, r.err)
		}
		sort.Slice(r.out, func(i, j int) bool { return r.out[i].Server < r.out[j].Server })
		return r.out, nil
	case <-ctx.Done():
		conn.Close()
		return nil, fmt.Errorf("zookeeper %s did not answer: %w", c.zkAddr, ctx.Err())
	}
}

// ParseInfoPort checks an info server port a user gives (--*-info-port):
// 1 to 65535.
func ParseInfoPort(s string) (int, error) {
	p, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("%q is not a port: give the region servers' info server port, 1 to 65535 (HBase's default is 16030)", s)
	}
	return p, nil
}

// infoServerOf reads a region server's znode: its name is
// "host,port,startcode", its data RegionServerInfo (infoPort is field 1).
// A port override (> 0) places the info server at the znode's host and that
// port, whatever the data says: a cluster that hides its info port, or
// serves it on another port through a proxy.
func infoServerOf(name string, data []byte, override int) InfoServer {
	parts := strings.Split(name, ",")
	s := InfoServer{Server: name}
	if len(parts) == 3 {
		s.Server = net.JoinHostPort(parts[0], parts[1])
		if override > 0 {
			s.Info = net.JoinHostPort(parts[0], strconv.Itoa(override))
			return s
		}
	}
	payload, err := parseZNode(data)
	if err != nil {
		return s
	}
	for len(payload) > 0 {
		num, typ, n := protowire.ConsumeTag(payload)
		if n < 0 {
			return s
		}
		payload = payload[n:]
		if num == 1 && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(payload)
			if m < 0 {
				return s
			}
			if port := int32(v); port > 0 && len(parts) == 3 {
				s.Info = net.JoinHostPort(parts[0], strconv.Itoa(int(port)))
			}
			return s
		}
		m := protowire.ConsumeFieldValue(num, typ, payload)
		if m < 0 {
			return s
		}
		payload = payload[m:]
	}
	return s
}
