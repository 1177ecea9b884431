package cluster

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestFreePortsAreDistinctAndClearOfTheEphemeralRange(t *testing.T) {
	lo, hi := portPool()
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Fatalf("reading the ephemeral range: %v", err)
	}
	eph, _ := strconv.Atoi(strings.Fields(string(b))[0])
	if eph-poolFloor >= 1000 && (lo != poolFloor || hi != eph) {
		t.Fatalf("pool = [%d, %d), want [%d, %d)", lo, hi, poolFloor, eph)
	}
	ports, err := freePorts(12)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] {
			t.Errorf("port %d handed out twice in %v", p, ports)
		}
		seen[p] = true
		if hi > lo && (p < lo || p >= hi) {
			t.Errorf("port %d outside the pool [%d, %d): an outgoing connection could take it", p, lo, hi)
		}
		if err := portFree(p); err != nil {
			t.Errorf("port %d not free after freePorts returned: %v", p, err)
		}
	}
}

func TestListenInPoolFallsBackWhenThePoolIsEmpty(t *testing.T) {
	l, err := listenInPool(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Addr().(*net.TCPAddr).Port == 0 {
		t.Fatal("no port bound")
	}
}

func TestRetriesPortsOnlyWhenRegressChoseThem(t *testing.T) {
	cases := []struct {
		s    Spec
		want bool
	}{
		{Spec{}, true},
		{Spec{Conf: map[string]string{"hbase.master.port": "16000"}}, false},
		{Spec{Conf: map[string]string{"hbase.regionserver.info.port": "-1"}}, true},
		{Spec{Conf: map[string]string{"hbase.regionserver.handler.count": "30"}}, true},
		{Spec{Keep: true}, true},
		{Spec{Keep: true, WorkDir: "/tmp/x"}, false},
	}
	for _, c := range cases {
		if got := retriesPorts(c.s); got != c.want {
			t.Errorf("retriesPorts(%+v) = %v, want %v", c.s, got, c.want)
		}
	}
}

// A port taken between our choosing it and HBase binding it (what a second
// cluster starting beside this one did in CI) costs one more start, not the run.
func TestLocalStartsAgainWhenAChosenPortWasTaken(t *testing.T) {
	skipShort(t)
	squat, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer squat.Close()
	taken := squat.Addr().(*net.TCPAddr).Port
	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ps, err := freePorts(n)
		if err == nil && calls == 1 {
			ps[2] = taken // the region server's RPC port
		}
		return ps, err
	}
	t.Cleanup(func() { pickPorts = freePorts })
	var logs bytes.Buffer
	p := NewLocal("")
	p.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	c, err := p.Start(context.Background(), Spec{Version: testVersion()})
	if err != nil {
		t.Fatalf("Start with one taken port: %v\nlog:\n%s", err, logs.String())
	}
	defer c.Stop(context.Background())
	if calls != 2 {
		t.Errorf("ports chosen %d times, want 2 (the taken one, then fresh ones)", calls)
	}
	if !strings.Contains(logs.String(), "starting again on fresh ports") {
		t.Errorf("the retry is not logged:\n%s", logs.String())
	}
	if err := ZNodesReady(context.Background(), c); err != nil {
		t.Errorf("ready after the retry but: %v", err)
	}
}
