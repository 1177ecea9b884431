// Package clustertest starts a real standalone HBase for other packages'
// integration tests, through the local provider, and stops it afterwards.
package clustertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
)

// VersionEnv names the environment variable choosing the HBase version under test.
const VersionEnv = "REGRESS_TEST_HBASE_VERSION"

// DefaultVersion is started when VersionEnv is unset.
const DefaultVersion = "2.6.1-hadoop3"

// startTimeout bounds the JVM's start-up; two cores shared with other test
// binaries can make it far slower than the usual 15 s.
const startTimeout = 5 * time.Minute

// Version returns the HBase version integration tests run against.
func Version() string {
	if v := os.Getenv(VersionEnv); v != "" {
		return v
	}
	return DefaultVersion
}

// Start starts HBase Version() for tb, skipping only under `go test -short`,
// and stops it when tb's cleanup runs. A failed start fails tb with the log tail.
func Start(tb testing.TB) cluster.Cluster {
	tb.Helper()
	return StartSpec(tb, cluster.Spec{Version: Version()})
}

// StartSpec is Start with a full spec (overrides, JVM options); an empty
// Version means Version().
func StartSpec(tb testing.TB, s cluster.Spec) cluster.Cluster {
	tb.Helper()
	if testing.Short() {
		tb.Skip("starts a real HBase; skipped under -short")
	}
	if s.Version == "" {
		s.Version = Version()
	}
	if s.StartTimeout == 0 {
		s.StartTimeout = startTimeout
	}
	// Background: the cluster lives until cleanup, not until some deadline.
	c, err := cluster.NewLocal("").Start(context.Background(), s)
	if err != nil {
		tb.Fatalf("starting HBase %s for the test: %v", s.Version, err)
	}
	tb.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer scancel()
		if err := c.Stop(sctx); err != nil {
			tb.Errorf("stopping HBase %s: %v", c.Version(), err)
		}
	})
	return c
}

// StartForMain starts HBase Version() for a whole test binary, from TestMain:
//
//	func TestMain(m *testing.M) {
//		flag.Parse()
//		if testing.Short() { os.Exit(m.Run()) }
//		c, stop, err := clustertest.StartForMain()
//		if err != nil { fmt.Fprintln(os.Stderr, err); os.Exit(1) }
//		shared = c
//		code := m.Run()
//		stop()
//		os.Exit(code)
//	}
//
// stop is safe to call more than once. Should the binary die without calling
// it, the kernel kills the JVM (Linux) because it is the JVM's parent.
func StartForMain() (cluster.Cluster, func(), error) {
	v := Version()
	// The info server on, as every cluster the job starts has it: its /jmx
	// carries the agent's request-thread counters (servercost.AgentBean).
	c, err := cluster.NewLocal("").Start(context.Background(), cluster.Spec{Version: v, StartTimeout: startTimeout, InfoServer: true})
	if err != nil {
		return nil, nil, fmt.Errorf("starting HBase %s for the tests: %w", v, err)
	}
	stop := func() {
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer scancel()
		if err := c.Stop(sctx); err != nil {
			fmt.Fprintf(os.Stderr, "stopping HBase %s: %v\n", v, err)
		}
	}
	return c, stop, nil
}

// Main runs a test binary against one HBase shared by all its tests; call it
// from TestMain. It parses flags and, unless -short, starts Version(), hands
// the cluster to setup (nil for none; it may connect a client and return that
// client's teardown), runs the tests, tears down and stops the cluster. A
// failed start or setup exits 1 with the reason. Main never returns.
func Main(m *testing.M, setup func(cluster.Cluster) (teardown func(), err error)) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	c, stop, err := StartForMain()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	teardown := func() {}
	if setup != nil {
		td, err := setup(c)
		if err != nil {
			stop()
			fmt.Fprintf(os.Stderr, "test setup against HBase %s: %v\n", c.Version(), err)
			os.Exit(1)
		}
		if td != nil {
			teardown = td
		}
	}
	code := m.Run()
	teardown()
	stop()
	os.Exit(code)
}
