package sut

import (
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

func TestNameKeepsRegionServerCountsApart(t *testing.T) {
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{Version: "2.6.1"}, "2.6.1"},
		{Target{Version: "2.6.1", RegionServers: 1}, "2.6.1"},
		{Target{Version: "2.6.1", RegionServers: 2}, "2.6.1+rs2"},
		{Target{Version: "2.6.1", RegionServers: 3}, "2.6.1+rs3"},
	} {
		if got := Name(&tc.t); got != tc.want {
			t.Errorf("Name(%+v) = %q, want %q", tc.t, got, tc.want)
		}
	}
	heap := Name(&Target{Version: "2.6.1", RegionServers: 2, RSHeap: "2g"})
	if !strings.HasPrefix(heap, "2.6.1+rs2+conf-") || heap == Name(&Target{Version: "2.6.1", RegionServers: 2, RSHeap: "4g"}) {
		t.Errorf("--rs-heap 2g names %q: want its own +conf- hash", heap)
	}
}

func TestNamesKeepOtherBuildsAndSettingsApart(t *testing.T) {
	plain := Name(&Target{Version: "2.6.1"})
	conf := Name(&Target{Version: "2.6.1", Settings: map[string]string{"a": "1"}})
	conf2 := Name(&Target{Version: "2.6.1", Settings: map[string]string{"a": "2"}})
	rc := Name(&Target{Version: "2.6.1", Repository: "file:///r", Checksums: map[string]string{"hbase-server.jar": "ab"}})
	for _, c := range []struct{ what, got, wantPrefix string }{
		{"plain", plain, "2.6.1"},
		{"settings", conf, "2.6.1+conf-"},
		{"an RC's jars", rc, "2.6.1+jars-"},
		{"a label", Name(&Target{Version: "2.6.1", Label: "2.6.1RC1", Settings: map[string]string{"a": "1"}}), "2.6.1RC1"},
	} {
		if !strings.HasPrefix(c.got, c.wantPrefix) {
			t.Errorf("%s: %q, want it to start %q", c.what, c.got, c.wantPrefix)
		}
	}
	if plain != "2.6.1" || conf == conf2 || conf == plain {
		t.Errorf("names %q, %q, %q: want the version alone, and one hash per setting", plain, conf, conf2)
	}
	if got := StoredName("2.6.1", Topology{RegionServers: 2}); got != "2.6.1+rs2" {
		t.Errorf("StoredName with 2 region servers = %q, want 2.6.1+rs2", got)
	}
	if got := StoredName("2.6.1", Topology{}); got != "2.6.1" {
		t.Errorf("StoredName standalone = %q, want 2.6.1", got)
	}
}

func TestSameNamesAreKeptApart(t *testing.T) {
	b, c := &Target{Name: "2.6.1", Version: "2.6.1"}, &Target{Name: "2.6.1", Version: "2.6.1"}
	DistinctNames(b, c)
	if b.Name != "2.6.1+baseline" || c.Name != "2.6.1+candidate" || b.Label != "" || c.Label != "" {
		t.Errorf("A/A names %q/%q (labels %q/%q), want +baseline and +candidate, no label a person gave", b.Name, c.Name, b.Label, c.Label)
	}
	if n := c.SideName(); n != (results.SideName{Role: Candidate, Apart: true}) {
		t.Errorf("A/A candidate recorded as %+v", n)
	}
	b, c = &Target{Name: "2.6.1", Version: "2.6.1"}, &Target{Name: "2.6.2", Version: "2.6.2"}
	if DistinctNames(b, c); b.Name != "2.6.1" || c.Name != "2.6.2" {
		t.Errorf("distinct names changed: %q/%q", b.Name, c.Name)
	}
	t1 := &Target{Name: "2.6.1", Version: "2.6.1", Label: "2.6.1"}
	if ApartFrom(t1, "2.6.1"); t1.Name != "2.6.1+candidate" || t1.SideName() != (results.SideName{Given: "2.6.1", Role: Candidate, Apart: true}) {
		t.Errorf("re-measured stored version named %q (%+v), want 2.6.1+candidate", t1.Name, t1.SideName())
	}
	t2 := &Target{Name: "2.6.2", Version: "2.6.2"}
	if ApartFrom(t2, "2.6.1"); t2.Name != "2.6.2" {
		t.Errorf("another version renamed to %q", t2.Name)
	}
}

// TestARunningClusterGivenNoLabelIsNamedByItsQuorum: the name is the
// side's role and quorum, recorded as fields, never as a person's label.
func TestARunningClusterGivenNoLabelIsNamedByItsQuorum(t *testing.T) {
	tg := &Target{Version: "2.6.1", ZK: "zk1:2181,zk2:2181", zkRole: Baseline}
	if got := Name(tg); got != "baseline-zk1-2181-zk2-2181" {
		t.Errorf("named %q", got)
	}
	if n := tg.SideName(); n.Given != "" || n.ZK != tg.ZK || n.Role != Baseline {
		t.Errorf("recorded as %+v", n)
	}
	tg.Label = "prod"
	if got := Name(tg); got != "prod" {
		t.Errorf("labelled: named %q", got)
	}
}
