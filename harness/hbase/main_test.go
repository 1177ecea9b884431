package hbase

import (
	"errors"
	"os"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
)

// zkAddr is the ZooKeeper of the package's one test cluster, shared by all
// integration tests to save the JVM start; errCluster says why there is none.
var (
	zkAddr     string
	errCluster = errors.New("not started")
)

func TestMain(m *testing.M) {
	if os.Getenv(responderEnv) != "" {
		runResponder() // this binary is BenchmarkLoopback's child
		return
	}
	clustertest.Main(m, func(c cluster.Cluster) (func(), error) {
		zkAddr, errCluster = c.ZKAddr(), nil
		return nil, nil
	})
}
