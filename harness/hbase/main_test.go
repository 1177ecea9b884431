package hbase

import (
	"errors"
	"os"
	"testing"
)

// zkAddr is the ZooKeeper of the package's test cluster; clusterErr says why there is none.
var (
	zkAddr     string
	clusterErr = errors.New("not started")
)

func TestMain(m *testing.M) {
	if a := os.Getenv("REGRESS_DEV_HBASE_ZK"); a != "" {
		zkAddr, clusterErr = a, nil
	}
	os.Exit(m.Run())
}
