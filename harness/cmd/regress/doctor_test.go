package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/cluster/clustertest"
	"github.com/regress-hbase/regress/harness/fault"
)

// runRegress runs the CLI in-process and returns its stdout.
func runRegress(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := runCLI(t, args...)
	return out, err
}

func TestDoctorUnreachableClusterExits2Quickly(t *testing.T) {
	for _, args := range [][]string{
		{"doctor", "--zk", "127.0.0.1:1"},
		{"doctor", "--zk", "127.0.0.1:1", "--timeout", "2s"},
	} {
		start := time.Now()
		out, err := runRegress(t, args...)
		if took := time.Since(start); took > 15*time.Second {
			t.Errorf("%v took %v, want under 15s", args, took)
		}
		var ue *fault.UsageError
		if !errors.As(err, &ue) {
			t.Fatalf("%v: want exit 2, got %v", args, err)
		}
		if !strings.Contains(err.Error(), "127.0.0.1:1") || out != "" {
			t.Errorf("%v: error %q should name the address and stdout %q stay empty", args, err, out)
		}
	}
}

func TestDoctorRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"doctor"}, {"doctor", "--zk", "h:1", "--timeout", "0s"}, {"doctor", "--zk", "h:1", "extra"}} {
		if _, err := runRegress(t, args...); exitCode(err) != exitUsage {
			t.Errorf("%v: want exit 2, got %v", args, err)
		}
	}
}

// TestDoctorReportsVersionAndServers also checks doctor says what a trial
// would read of each region server's cost: this one runs an info server and
// regress's agent (as a cluster whose operators loaded it would).
func TestDoctorReportsVersionAndServers(t *testing.T) {
	c := clustertest.StartSpec(t, cluster.Spec{InfoServer: true})
	out, err := runRegress(t, "doctor", "--zk", c.ZKAddr(), "--timeout", "30s")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"HBase version:       " + clustertest.Version() + "\n", "Live region servers: 1\n", "Tables:", "Snapshots:",
		"Server cost:", ": request threads (regress's agent), info server 127.0.0.1:"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}
