package main

import (
	"errors"
	"net"
	"strconv"
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

// A ZooKeeper that takes connections and never answers is unreachable
// like one that refuses them: exit 2 within the timeout, saying so (it was
// taken for an interrupted command: exit 3).
func TestDoctorMuteZooKeeperExits2(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	start := time.Now()
	_, err = runRegress(t, "doctor", "--zk", l.Addr().String(), "--timeout", "2s")
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("took %v", took)
	}
	if code(err) != exitUsage || !strings.Contains(err.Error(), "no answer within --timeout 2s") {
		t.Errorf("a mute ZooKeeper: exit %d, %v; want exit 2 saying it did not answer", code(err), err)
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
//
// The region server also runs a JMX remote connector: doctor --jmx-port
// says --profile can record it there (the recorder connects and creates a
// recording), and names what it met at a port where nothing listens.
func TestDoctorReportsVersionAndServers(t *testing.T) {
	port := freePort(t)
	c := clustertest.StartSpec(t, cluster.Spec{InfoServer: true, JVMOpts: []string{
		"-Dcom.sun.management.jmxremote.port=" + strconv.Itoa(port), "-Dcom.sun.management.jmxremote.rmi.port=" + strconv.Itoa(port),
		"-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
		"-Djava.rmi.server.hostname=127.0.0.1"}})
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
	if strings.Contains(out, "JFR over JMX") {
		t.Errorf("doctor checked JMX without --jmx-port:\n%s", out)
	}
	out, err = runRegress(t, "doctor", "--zk", c.ZKAddr(), "--timeout", "30s", "--jmx-port", strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "JFR over JMX:") || !strings.Contains(out, ": ready, connector ") || !strings.Contains(out, ":"+strconv.Itoa(port)+" (JFR recording created and closed)") {
		t.Errorf("doctor --jmx-port %d does not say the connector is ready:\n%s", port, out)
	}
	dead := freePort(t)
	out, err = runRegress(t, "doctor", "--zk", c.ZKAddr(), "--timeout", "30s", "--jmx-port", strconv.Itoa(dead))
	if err != nil {
		t.Fatalf("doctor with no connector at --jmx-port must still report, not fail: %v", err)
	}
	if !strings.Contains(out, ": no, connector ") || !strings.Contains(out, ":"+strconv.Itoa(dead)+": ") {
		t.Errorf("doctor --jmx-port %d (nothing listens) does not say why:\n%s", dead, out)
	}
}

// freePort is a loopback TCP port free when asked.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
