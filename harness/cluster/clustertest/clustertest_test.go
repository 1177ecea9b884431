package clustertest

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
)

func TestStartServesZooKeeper(t *testing.T) {
	c := Start(t)
	conn, err := net.DialTimeout("tcp", c.ZKAddr(), 5*time.Second)
	if err != nil {
		t.Fatalf("ZooKeeper %s does not accept TCP: %v", c.ZKAddr(), err)
	}
	conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cluster.ZNodesReady(ctx, c); err != nil {
		t.Fatalf("started cluster is not ready: %v", err)
	}
}
