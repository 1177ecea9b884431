package cluster

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"path"
	"time"

	"github.com/go-zookeeper/zk"
)

// ReadyCheck reports whether a started cluster serves yet; it returns nil when
// ready and an error saying what is missing otherwise. The local provider polls
// its checks in order until all pass or the start timeout expires.
type ReadyCheck func(ctx context.Context, c Cluster) error

// ZNodeParenter is implemented by clusters whose znode parent is not /hbase.
type ZNodeParenter interface {
	// ZNodeParent is the root znode of the cluster (zookeeper.znode.parent).
	ZNodeParent() string
}

// znodeParent returns c's znode parent, /hbase by default.
func znodeParent(c Cluster) string {
	if p, ok := c.(ZNodeParenter); ok && p.ZNodeParent() != "" {
		return p.ZNodeParent()
	}
	return "/hbase"
}

// ZNodesReady passes once ZooKeeper answers and the active master and the
// hbase:meta location are published there: the master is up and meta is assigned.
func ZNodesReady(ctx context.Context, c Cluster) error {
	parent := znodeParent(c)
	return zkExist(ctx, c.ZKAddr(), path.Join(parent, "master"), path.Join(parent, "meta-region-server"))
}

// zkExist checks that every znode in paths exists, within ctx.
func zkExist(ctx context.Context, addr string, paths ...string) error {
	// A plain dial first: go-zookeeper retries forever in the background when
	// nothing listens, which would only burn the poll's time.
	d := net.Dialer{Timeout: time.Second}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("ZooKeeper %s does not accept connections: %w", addr, err)
	}
	nc.Close()
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second,
		zk.WithLogger(log.New(io.Discard, "", 0)), zk.WithLogInfo(false))
	if err != nil {
		return fmt.Errorf("connecting to ZooKeeper %s: %w", addr, err)
	}
	done := make(chan error, 1)
	go func() {
		for _, p := range paths {
			ok, _, err := conn.Exists(p)
			if err != nil {
				done <- fmt.Errorf("ZooKeeper %s: checking %s: %w", addr, p, err)
				return
			}
			if !ok {
				done <- fmt.Errorf("znode %s not yet created", p)
				return
			}
		}
		done <- nil
	}()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = fmt.Errorf("ZooKeeper %s did not answer: %w", addr, ctx.Err())
	}
	conn.Close()
	return err
}
