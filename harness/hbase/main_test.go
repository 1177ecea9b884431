package hbase

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/regress-hbase/regress/harness/cluster/clustertest"
)

// zkAddr is the ZooKeeper of the package's one test cluster, shared by all
// integration tests to save the JVM start; clusterErr says why there is none.
var (
	zkAddr     string
	clusterErr = errors.New("not started")
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	c, stop, err := clustertest.StartForMain()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	zkAddr, clusterErr = c.ZKAddr(), nil
	code := m.Run()
	stop()
	os.Exit(code)
}
