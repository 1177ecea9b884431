package sut

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/suite"
)

func TestSideFlagsAreRefusedByTheirOwnNames(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Role: Candidate}, "give --candidate VERSION"},
		{Spec{Role: Baseline, Repo: "file:///r"}, "--baseline-repo needs --baseline VERSION"},
		{Spec{Role: Baseline, Home: "/h", Repo: "file:///r"}, "--baseline-home and --baseline-repo exclude each other"},
		{Spec{Role: Baseline, Version: "2.6.1", ZK: "h:1"}, "--baseline-zk, --baseline and --baseline-home exclude each other"},
		{Spec{Role: Candidate, ZK: "h:1", JavaHome: "/j"}, "--candidate-java-home applies only to clusters regress starts, not to --candidate-zk"},
		{Spec{Role: Candidate, ZK: "h:1", Conf: []string{"a=b"}}, "--candidate-conf, --candidate-jvm-opt and --candidate-jar apply only to clusters regress starts"},
		{Spec{Role: Candidate, Version: "2.6.1", Conf: []string{"novalue"}}, `--candidate-conf "novalue": write key=value`},
		{Spec{Role: Candidate, Version: "2.6.1", Conf: []string{"=x"}}, `--candidate-conf "=x": write key=value`},
		// Issue 29's second probe round: refused only when the candidate's
		// cluster started, after the baseline's JVM was up.
		{Spec{Role: Candidate, Version: "2.6.1", Conf: []string{"a\nb=c"}}, `--candidate-conf: invalid hbase-site key "a\nb"`},
		{Spec{Role: Candidate, Version: "2.6.1", Conf: []string{"bad key=1"}}, `--candidate-conf: invalid hbase-site key "bad key"`},
		{Spec{Role: Baseline, Version: "2.6.1", Conf: []string{"<x>=1"}}, `--baseline-conf: invalid hbase-site key "<x>"`},
		{Spec{Role: Candidate, Version: "2.6.1", Conf: []string{"hbase.master.port=abc"}}, `--candidate-conf: invalid port hbase.master.port="abc"`},
		{Spec{Role: Run, Version: "2.6.1", Conf: []string{"hbase.regionserver.port=70000"}}, `--conf: invalid port hbase.regionserver.port="70000"`},
		{Spec{Role: Candidate, Version: "2.6.1;id"}, "invalid HBase version string"},
		{Spec{Role: Candidate, Version: "2.6.1", Label: "../x"}, "--candidate-label: "},
		{Spec{Role: Candidate, Version: "2.6.1", Jars: []string{"/nonexistent/x.jar"}}, "--candidate-jar /nonexistent/x.jar: not a .jar file"},
		// regress run: unprefixed flags, and a running cluster needs a label.
		{Spec{Role: Run}, "give exactly one of --version V"},
		{Spec{Role: Run, Version: "2.6.1", ZK: "h:1"}, "give exactly one of --version V"},
		{Spec{Role: Run, ZK: "h:1"}, "--zk needs --label NAME"},
		{Spec{Role: Run, ZK: "h:1", Label: "a/b"}, "--label: "},
		{Spec{Role: Run, ZK: "h:1", Label: "prod", JavaHome: "/j"}, "--java-home applies only to clusters regress starts, not to --zk"},
		{Spec{Role: Run, Version: "2.6.1", Conf: []string{"novalue"}}, `--conf "novalue": write key=value`},
		// An info port places a running cluster's info servers; one regress starts takes it from --conf.
		{Spec{Role: Candidate, Version: "2.6.1", InfoPort: 8443}, "--candidate-info-port applies only to a running cluster (--candidate-zk): for one regress starts, use --candidate-conf hbase.regionserver.info.port=8443"},
		{Spec{Role: Run, Version: "2.6.1", InfoPort: 8443}, "--info-port applies only to a running cluster (--zk)"},
		{Spec{Role: Baseline, ZK: "h:1", InfoPort: 70000}, "--baseline-info-port 70000 is not a port"},
		// regress cluster up: unprefixed flags, no running cluster, its messages prefixed.
		{Spec{Role: Up}, "cluster up: give --version V"},
		{Spec{Role: Up, Home: "/h", Repo: "file:///r"}, "cluster up: --home and --repo exclude each other"},
		{Spec{Role: Up, Version: "2.6.1", Conf: []string{"novalue"}}, `cluster up: --conf "novalue": write key=value`},
		{Spec{Role: Up, Version: "../../2.6.1"}, "cluster up: invalid HBase version string"},
		// Issue 40: refused before any JVM starts, not after one did.
		{Spec{Role: Baseline, Version: "2.6.0", Repo: "file:///nonexistent"}, `--baseline-repo: repository "file:///nonexistent": /nonexistent is not a directory`},
		{Spec{Role: Up, Version: "2.6.1", Repo: "file:///nonexistent"}, "cluster up: --repo: repository"},
		{Spec{Role: Candidate, Version: "2.6.1", Home: "/h"}, "--candidate and --candidate-home exclude each other: a home's version is read from its jars"},
		{Spec{Role: Up, Version: "2.6.1", Home: "/h"}, "cluster up: --version and --home exclude each other"},
		{Spec{Role: Run, Version: "2.6.1", Home: "/h"}, "--version and --home exclude each other"},
		// A label that passes for a name the store gives itself.
		{Spec{Role: Run, Version: "2.6.0", Label: "2.6.1"}, `--label: label "2.6.1" reads as HBase 2.6.1, but these are results of 2.6.0`},
		{Spec{Role: Candidate, Version: "2.6.0", Label: "2.6.0+conf-0a1b2c3d"}, "--candidate-label: label \"2.6.0+conf-0a1b2c3d\" holds a '+'"},
		{Spec{Role: Baseline, Version: "2.6.0", Label: "capacity"}, "capacity sweeps"},
		{Spec{Role: Baseline, Version: "2.6.0", Label: "2.6.0", Conf: []string{"a.b=1"}}, "--baseline-label 2.6.0: that is the name 2.6.0's plain results are stored under"},
	} {
		err := c.spec.Check()
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error saying %q", c.spec, err, c.want)
		}
	}
}

func TestGoodSidesPassAndTheirConfIsParsed(t *testing.T) {
	jar := filepath.Join(t.TempDir(), "cp.jar")
	if err := os.WriteFile(jar, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Spec{
		{Role: Baseline, Version: "2.6.1", Conf: []string{"a.b= x=y"}, Jars: []string{jar}, Label: "2.6.1RC1"},
		{Role: Candidate, Home: t.TempDir()},
		{Role: Candidate, ZK: "h:1"},
		{Role: Run, ZK: "h:1", Label: "prod-2.6.1"},
		{Role: Candidate, ZK: "h:1", InfoPort: 8443},
		{Role: Run, ZK: "h:1", Label: "prod-2.6.1", InfoPort: 16030},
		{Role: Up, Version: "2.6.1", Repo: "file://" + t.TempDir()},
	} {
		if err := s.Check(); err != nil {
			t.Errorf("%+v: %v, want it accepted", s, err)
		}
	}
	if err := (Spec{Version: "2.6.1"}).Check(); err == nil || fault.Classified(err) {
		t.Errorf("a spec without a role: %v, want an unclassified error (the caller's mistake)", err)
	}
	got, err := Spec{Role: Up, Conf: []string{"a.b=1", " c = x=y ", "empty="}}.settings()
	if err != nil || got["a.b"] != "1" || got["c"] != " x=y " || got["empty"] != "" || len(got) != 3 {
		t.Fatalf("settings = %v, %v; want the key trimmed and the value as written", got, err)
	}
	if got, err := (Spec{}).settings(); got != nil || err != nil {
		t.Errorf("no --conf: %v, %v; want nil (no settings, no +conf- hash)", got, err)
	}
}

func TestTopologyIsCheckedOnceForFlagsAndSuites(t *testing.T) {
	for _, tc := range []struct {
		topo Topology
		want string
	}{
		{Topology{}, ""},
		{Topology{RegionServers: 3, RSHeap: "2g"}, ""},
		{Topology{RegionServers: -1}, "--region-servers/--rs-heap: region servers: -1 is out of range"},
		{Topology{RegionServers: 99}, "out of range"},
		{Topology{RSHeap: "lots"}, "512m or 2g"},
		{Topology{RSHeap: "100m"}, "below 256m"},
	} {
		err := tc.topo.Check()
		var ue *fault.UsageError
		if tc.want == "" && err != nil || tc.want != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.topo, err, tc.want)
		}
	}
	byJDK := map[string][]string{"11": {"-XX:-TieredCompilation"}}
	s := &suite.Suite{Cluster: suite.Cluster{RegionServers: 2, RSHeap: "2g", JVMOptsByJDK: byJDK}}
	if got := Shape(Topology{RegionServers: 3}, s); !reflect.DeepEqual(got, Topology{RegionServers: 3, RSHeap: "2g", JVMOptsByJDK: byJDK}) {
		t.Errorf("Shape = %+v, want each flag over the suite's value, and the suite's JVM options per JDK", got)
	}
}

func TestSuiteClusterSectionIsRefusedByItsKeys(t *testing.T) {
	for _, tc := range []struct {
		c       suite.Cluster
		regions int
		want    string
	}{
		{suite.Cluster{RegionServers: 2, RSHeap: "2g"}, 4, ""},
		{suite.Cluster{RegionServers: 4}, 4, ""},
		{suite.Cluster{RegionServers: 5}, 4, "cluster.region_servers: 5 servers need at least as many seed regions, but data.regions is 4"},
		{suite.Cluster{RegionServers: -1}, 4, "cluster: region servers: -1 is out of range"},
		{suite.Cluster{RegionServers: 99}, 4, "out of range"},
		{suite.Cluster{RSHeap: "2gb"}, 4, "512m or 2g"},
		{suite.Cluster{RSHeap: "100m"}, 4, "below 256m"},
	} {
		err := CheckSuite(&suite.Suite{Cluster: tc.c, Data: suite.Data{Regions: tc.regions}})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v with %d regions: %v, want %q", tc.c, tc.regions, err, tc.want)
		}
	}
}
