package cluster

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestDistributedConfGivesEachServerItsOwnPortsAndWaitsForAll(t *testing.T) {
	base := distSiteConf("/w", 2181, 16000, 3, map[string]string{"hbase.regionserver.handler.count": "7"})
	for k, want := range map[string]string{
		"hbase.cluster.distributed":                     "true",
		"hbase.rootdir":                                 "file:///w/hbase",
		"hbase.unsafe.stream.capability.enforce":        "false",
		"hbase.zookeeper.property.clientPort":           "2181",
		"hbase.master.port":                             "16000",
		"hbase.master.wait.on.regionservers.mintostart": "3",
		"hbase.master.wait.on.regionservers.maxtostart": "3",
		"hbase.regionserver.handler.count":              "7",
	} {
		if base[k] != want {
			t.Errorf("%s = %q, want %q", k, base[k], want)
		}
	}
	if _, ok := base["zookeeper.recovery.retry"]; ok {
		t.Error("the standalone's one-retry ZooKeeper setting leaked into the distributed conf")
	}
	rs1 := regionServerConf(base, "/w", 1, 40001, -1)
	rs2 := regionServerConf(base, "/w", 2, 40002, 40012)
	if rs1["hbase.regionserver.port"] != "40001" || rs2["hbase.regionserver.port"] != "40002" || rs2["hbase.regionserver.info.port"] != "40012" || rs1["hbase.regionserver.info.port"] != "-1" {
		t.Errorf("ports: rs1 %s/%s rs2 %s/%s", rs1["hbase.regionserver.port"], rs1["hbase.regionserver.info.port"], rs2["hbase.regionserver.port"], rs2["hbase.regionserver.info.port"])
	}
	if rs1["hbase.tmp.dir"] == rs2["hbase.tmp.dir"] {
		t.Errorf("region servers share tmp dir %s", rs1["hbase.tmp.dir"])
	}
	if _, ok := base["hbase.regionserver.port"]; ok {
		t.Error("the shared conf names a region server port")
	}
}

func TestJVMArgsHeap(t *testing.T) {
	last := func(args []string) string {
		x := ""
		for _, a := range args {
			if strings.HasPrefix(a, "-Xmx") {
				x = a
			}
		}
		return x
	}
	for _, tc := range []struct {
		heap string
		opts []string
		want string
	}{
		{"", nil, "-Xmx1g"},
		{"2g", nil, "-Xmx2g"},
		{"", []string{"-Xmx3g"}, "-Xmx3g"},
		{"2g", []string{"-Xmx3g"}, "-Xmx2g"}, // --rs-heap is the more specific
	} {
		args := javaArgs(17, "/c", []string{"a.jar"}, tc.heap, tc.opts)
		if got := last(args); got != tc.want {
			t.Errorf("heap %q opts %v: effective %s, want %s (%v)", tc.heap, tc.opts, got, tc.want, args)
		}
		if args[len(args)-2] != classHMaster || args[len(args)-1] != "start" {
			t.Errorf("args end %v, want HMaster start", args[len(args)-2:])
		}
	}
	zk := jvmArgs(17, "/c", nil, zookeeperHeap, "", nil, classZooKeeper, "2181", "/w/zk")
	if !slices.Equal(zk[len(zk)-3:], []string{classZooKeeper, "2181", "/w/zk"}) || last(zk) != "-Xmx"+zookeeperHeap {
		t.Errorf("ZooKeeper args %v", zk)
	}
}

func TestValidateTopology(t *testing.T) {
	for _, tc := range []struct {
		n    int
		heap string
		ok   bool
	}{
		{0, "", true}, {1, "", true}, {2, "512m", true}, {16, "2G", true}, {3, "1048576k", true},
		{-1, "", false}, {17, "", false}, {2, "2", false}, {2, "2gb", false}, {2, "0g", false}, {2, "255m", false}, {2, "-1g", false},
	} {
		err := ValidateTopology(tc.n, tc.heap)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateTopology(%d, %q) = %v, want ok=%v", tc.n, tc.heap, err, tc.ok)
		}
	}
}

func TestStartRefusesPerServerPortsWithSeveralServers(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // nothing may run
	for _, k := range perServerKeys {
		_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.1", RegionServers: 2, Conf: map[string]string{k: "0"}})
		if err == nil || !strings.Contains(err.Error(), k) || !strings.Contains(err.Error(), "its own") {
			t.Errorf("Start with %s and 2 region servers: %v, want a refusal naming the key", k, err)
		}
	}
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.1", RegionServers: 99})
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Start with 99 region servers: %v", err)
	}
}

func TestDiedErrorNamesTheJVM(t *testing.T) {
	d := &DiedError{Side: "candidate", Version: "2.6.1", Role: "region server 2", PID: 7, Exit: "was killed by signal 9 (killed)", LogPath: "/l"}
	if !strings.Contains(d.Error(), "candidate HBase 2.6.1 died: its region server 2 JVM (pid 7)") {
		t.Errorf("message %q", d.Error())
	}
	d.Role = ""
	if !strings.Contains(d.Error(), "died: its JVM (pid 7)") {
		t.Errorf("standalone message %q", d.Error())
	}
}
