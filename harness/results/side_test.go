package results

import (
	"cmp"
	"testing"
)

// TestStoreNameJoinsEachPartAsTheStoreNamesIt: the store's folders are
// named by these strings, so each part renders exactly as before it was a
// field.
func TestStoreNameJoinsEachPartAsTheStoreNamesIt(t *testing.T) {
	for _, c := range []struct {
		n    SideName
		want string
	}{
		{SideName{}, "2.6.1-hadoop3"},
		{SideName{Given: "2.6.1RC1"}, "2.6.1RC1"},
		{SideName{ConfHash: "794b6001"}, "2.6.1-hadoop3+conf-794b6001"},
		{SideName{JarsDigest: "0a1b2c3d", RegionServers: 3, ConfHash: "794b6001"}, "2.6.1-hadoop3+jars-0a1b2c3d+rs3+conf-794b6001"},
		{SideName{RegionServers: 1}, "2.6.1-hadoop3"},
		{SideName{Role: "baseline", Apart: true}, "2.6.1-hadoop3+baseline"},
		{SideName{ConfHash: "794b6001", Role: "candidate", Apart: true}, "2.6.1-hadoop3+conf-794b6001+candidate"},
		{SideName{Given: "mine", Role: "candidate", Apart: true}, "mine+candidate"},
		{SideName{Role: "baseline", ZK: "zk1:2181,zk2:2181"}, "baseline-zk1-2181-zk2-2181"},
		{SideName{Made: "odd+rs01"}, "odd+rs01"},
	} {
		if got := c.n.StoreName("2.6.1-hadoop3"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.n, got, c.want)
		}
	}
}

// TestOldManifestsNameGivesItsFields: a manifest stored before the fields
// holds only its name; reading it derives them once, a person's label
// apart from every name regress made (the zk form included, which the vote
// once took for a person's).
func TestOldManifestsNameGivesItsFields(t *testing.T) {
	for _, c := range []struct {
		m    Manifest
		want SideName
	}{
		{Manifest{Version: "2.6.1"}, SideName{}},
		{Manifest{Version: "2.6.1", Label: "2.6.1"}, SideName{}},
		{Manifest{Version: "2.6.2", Label: "2.6.2RC1"}, SideName{Given: "2.6.2RC1"}},
		{Manifest{Version: "2.6.1-hadoop3", Label: "2.6.1-hadoop3+conf-794b6001"}, SideName{ConfHash: "794b6001"}},
		{Manifest{Version: "2.6.1", Label: "2.6.1+jars-0a1b2c3d+rs3"}, SideName{JarsDigest: "0a1b2c3d", RegionServers: 3}},
		{Manifest{Version: "2.6.1", Label: "2.6.1+rs2+conf-0a1b2c3d+baseline"}, SideName{RegionServers: 2, ConfHash: "0a1b2c3d", Role: "baseline", Apart: true}},
		{Manifest{Version: "2.6.1", Label: "2.6.1+candidate"}, SideName{Role: "candidate", Apart: true}},
		{Manifest{Version: "2.6.1", Label: "mine+candidate"}, SideName{Given: "mine", Role: "candidate", Apart: true}},
		{Manifest{Version: "2.6.1", Label: "baseline-zk1-2181", Provider: "external", Source: "regress"}, SideName{Role: "baseline", ZK: "zk1-2181"}},
		// An import's label is a person's whatever it looks like; so is a
		// cluster regress started.
		{Manifest{Version: "2.6.1", Label: "baseline-zk1-2181", Provider: "external", Source: "ycsb-import"}, SideName{Given: "baseline-zk1-2181"}},
		{Manifest{Version: "2.6.1", Label: "baseline-x", Provider: "local", Source: "regress"}, SideName{Given: "baseline-x"}},
		// What this build would not write again stays whole, never a person's.
		{Manifest{Version: "2.6.1", Label: "2.6.1+rs01"}, SideName{Made: "2.6.1+rs01"}},
		{Manifest{Version: "2.6.1", Label: "2.6.0+conf-0a1b2c3d"}, SideName{Made: "2.6.0+conf-0a1b2c3d"}},
		{Manifest{Version: "2.6.1", Label: "2.6.1+what"}, SideName{Made: "2.6.1+what"}},
	} {
		m := c.m
		m.upgradeName()
		if m.Naming == nil || *m.Naming != c.want {
			t.Errorf("%q of %s: fields %+v, want %+v", c.m.Label, c.m.Version, m.Naming, c.want)
		}
	}
	stored := Manifest{Version: "2.6.1", Label: "2.6.1+baseline", Naming: &SideName{Given: "x"}}
	stored.upgradeName()
	if stored.Naming.Given != "x" {
		t.Errorf("stored fields overwritten from the name: %+v", stored.Naming)
	}
}

// FuzzUpgradeNameKeepsTheName: whatever an old manifest was named, the
// fields derived from it name it the same, or its entry could not be found.
func FuzzUpgradeNameKeepsTheName(f *testing.F) {
	for _, s := range []string{"", "2.6.1", "2.6.1+conf-0a1b2c3d", "2.6.1+rs2+candidate", "baseline-h-1", "x+baseline+baseline", "2.6.1+rs0", "2.6.1+jars-+conf-"} {
		f.Add(s, "2.6.1", "external")
	}
	f.Fuzz(func(t *testing.T, label, v, provider string) {
		m := Manifest{Version: v, Label: label, Provider: provider, Source: "regress"}
		m.upgradeName()
		if got := m.StoreName(); got != cmp.Or(label, v) {
			t.Errorf("%q of %q: named %q from %+v", label, v, got, *m.Naming)
		}
	})
}

// TestPersonNameShowsOnlyAPersonsLabel: the vote names a side by its
// release and a label a person gave, never by a name regress made.
func TestPersonNameShowsOnlyAPersonsLabel(t *testing.T) {
	for _, c := range []struct {
		m    Manifest
		want string
	}{
		{Manifest{Version: "2.6.1-hadoop3"}, "2.6.1"},
		{Manifest{Version: "2.6.2", Naming: &SideName{Given: "2.6.2RC1"}}, "2.6.2RC1 (2.6.2)"},
		{Manifest{Version: "2.6.2", Label: "2.6.2RC1"}, "2.6.2RC1 (2.6.2)"},
		{Manifest{Version: "2.6.1-hadoop3", Naming: &SideName{Given: "2.6.1-hadoop3"}}, "2.6.1"},
		{Manifest{Version: "2.6.1", Naming: &SideName{Given: "2.6.1"}}, "2.6.1"},
		{Manifest{Version: "2.6.1", Label: "2.6.1+conf-0a1b2c3d", Naming: &SideName{ConfHash: "0a1b2c3d"}}, "2.6.1"},
		{Manifest{Version: "2.6.1", Label: "baseline-zk1-2181", Naming: &SideName{Role: "baseline", ZK: "zk1:2181"}}, "2.6.1"},
		{Manifest{Version: "2.6.1", Label: "x+rs01", Naming: &SideName{Made: "x+rs01"}}, "2.6.1"},
	} {
		if got := c.m.PersonName(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
}

// TestSetNameWritesTheNameOlderBuildsRead: the label holds the store name
// wherever it is not the version (a person's label always), and the entry
// read back has the fields it was written with.
func TestSetNameWritesTheNameOlderBuildsRead(t *testing.T) {
	for _, c := range []struct {
		n    SideName
		want string
	}{
		{SideName{}, ""},
		{SideName{Given: "2.6.1"}, "2.6.1"},
		{SideName{Given: "rc1"}, "rc1"},
		{SideName{ConfHash: "0a1b2c3d", Role: "baseline", Apart: true}, "2.6.1+conf-0a1b2c3d+baseline"},
		{SideName{Role: "candidate", ZK: "zk1:2181"}, "candidate-zk1-2181"},
	} {
		m := &Manifest{Schema: SchemaVersion, Version: "2.6.1", Source: "regress", Suite: SuiteInfo{Name: "s", Fingerprint: "f"}}
		m.SetName(c.n)
		if m.Label != c.want {
			t.Errorf("%+v: label %q, want %q", c.n, m.Label, c.want)
		}
		st, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Ensure(m); err != nil {
			t.Fatal(err)
		}
		got, err := st.Load(KeyOf(m))
		if err != nil {
			t.Fatal(err)
		}
		if *got.Naming != c.n || got.StoreName() != cmp.Or(c.want, "2.6.1") {
			t.Errorf("%+v: read back %+v named %q", c.n, *got.Naming, got.StoreName())
		}
	}
}

// TestTypedReleaseFindsItsSideByFields: a release typed on the command
// line finds the one entry whose name begins with it (a build's parts, an
// A/A role), read from the fields; a quorum's name is no release's.
func TestTypedReleaseFindsItsSideByFields(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v string
		n SideName
	}{
		{"2.6.1-hadoop3", SideName{ConfHash: "0a1b2c3d", Role: "candidate", Apart: true}},
		{"2.6.0", SideName{Role: "baseline", ZK: "2.6.2"}},
	} {
		m := &Manifest{Schema: SchemaVersion, Version: c.v, Provider: "external", Source: "regress", Suite: SuiteInfo{Name: "s", Fingerprint: "f"}}
		m.SetName(c.n)
		if _, err := st.Ensure(m); err != nil {
			t.Fatal(err)
		}
	}
	for ref, want := range map[string]string{"2.6.1": "2.6.1-hadoop3+conf-0a1b2c3d+candidate", "2.6.0": "", "baseline-2.6.2": ""} {
		if got, err := st.typedTarget(ref, ""); err != nil || got != want {
			t.Errorf("%s: found %q (%v), want %q", ref, got, err, want)
		}
	}
}
