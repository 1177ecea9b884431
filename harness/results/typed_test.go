package results

import (
	"errors"
	"strings"
	"testing"
)

// TestATypedReleaseFindsItsStoredName: `--baseline 2.6.0` runs and stores
// 2.6.0-hadoop3, and compare --baseline 2.6.0 finds it when it is the only
// stored name of that release; several are named, never guessed between.
func TestATypedReleaseFindsItsStoredName(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := func(version, label, suite string) {
		m := testManifest()
		m.Version, m.Label, m.Suite.Name = version, label, suite
		if _, err := s.Ensure(m); err != nil {
			t.Fatal(err)
		}
	}
	store("2.6.0-hadoop3", "", "smoke")
	store("2.6.1-hadoop3", "", "smoke")
	store("2.6.1", "2.6.1+conf-0123abcd", "smoke")
	store("2.6.2", "2.6.2RC1", "smoke")
	store("2.6.3-hadoop3", "", "smoke")
	store("2.6.3-hadoop3", "", "release")
	store("2.6.3", "2.6.3+baseline", "release")

	m, err := s.Resolve("2.6.0", "")
	if err != nil || m.Version != "2.6.0-hadoop3" {
		t.Fatalf("2.6.0: %v, %v; want 2.6.0-hadoop3", m, err)
	}
	if _, err := s.Resolve("2.6.1", ""); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "2.6.1+conf-0123abcd, 2.6.1-hadoop3") {
		t.Errorf("2.6.1, stored twice: %v; want both names", err)
	}
	if _, err := s.Resolve("2.6.2", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("2.6.2, stored only under an RC's label: %v; want nothing found (a label is a person's name for a build)", err)
	}
	// --suite narrows the choice: 2.6.3's smoke entry is one name.
	if m, err := s.Resolve("2.6.3", "smoke"); err != nil || m.Suite.Name != "smoke" || m.Version != "2.6.3-hadoop3" {
		t.Errorf("2.6.3 --suite smoke: %v, %v", m, err)
	}
	if _, err := s.Resolve("2.6.3", "release"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("2.6.3 --suite release, two names: %v", err)
	}
	if m, err := s.Resolve("2.6.0-hadoop3", ""); err != nil || m.Version != "2.6.0-hadoop3" {
		t.Errorf("the stored name itself: %v, %v", m, err)
	}
}

// TestAnEntryCarriesItsLatestRunsSuite: a run adding to an entry stored
// before the suite travelled with results (or with another version of it:
// tolerances are no part of the fingerprint) leaves the entry carrying its
// own suite.
func TestAnEntryCarriesItsLatestRunsSuite(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old := testManifest()
	if _, err := s.Ensure(old); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"compare: {tolerances: {p99: 10%}}\n", "compare: {tolerances: {p99: 20%}}\n"} {
		m := testManifest()
		m.Suite.Text, m.Suite.Files = text, map[string]string{"workloada": "readproportion=1\n"}
		if _, err := s.Ensure(m); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(KeyOf(m))
		if err != nil || got.Suite.Text != text || got.Suite.Files["workloada"] == "" {
			t.Errorf("entry carries %q (%v), want %q", got.Suite.Text, err, text)
		}
	}
}
