package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A `results list` (Scan, no lock) running while `results remove` takes an
// entry or sweep away sees it, then finds it gone: that is a removal, not
// damage. The hook removes the thing in the window the race hits.
func TestScanDuringARemovalNamesNothingDamaged(t *testing.T) {
	tests := []struct {
		name   string
		remove string // the name given to Remove
		when   func(path string, dirOf map[string]string) bool
		want   []string // entries and sweeps listed afterwards
	}{
		{"manifest renamed away between seeing and reading it", "2.6.1/smoke-0123456789ab",
			func(p string, d map[string]string) bool { return p == filepath.Join(d["2.6.1"], manifestFile) },
			[]string{"2.6.2", "capacity/run1"}},
		{"the target folder removed with its last entry", "2.6.1/smoke-0123456789ab",
			func(p string, d map[string]string) bool { return p == filepath.Dir(d["2.6.1"]) },
			[]string{"2.6.2", "capacity/run1"}},
		{"a sweep removed between listing and reading it", "capacity/run1",
			func(p string, d map[string]string) bool {
				return strings.HasSuffix(p, filepath.Join("capacity", "run1.json"))
			},
			[]string{"2.6.1", "2.6.2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dirOf := map[string]string{}
			for _, v := range []string{"2.6.1", "2.6.2"} {
				m := testManifest()
				m.Version = v
				if _, err := s.Ensure(m); err != nil {
					t.Fatal(err)
				}
				dirOf[v] = s.Dir(KeyOf(m))
			}
			if _, err := s.PutSweep("run1", []byte(sweepBody)); err != nil {
				t.Fatal(err)
			}
			removed := false
			testHookScan = func(p string) {
				if !removed && tc.when(p, dirOf) {
					removed = true
					if _, err := s.Remove(tc.remove); err != nil {
						t.Errorf("remove %s: %v", tc.remove, err)
					}
				}
			}
			defer func() { testHookScan = nil }()
			entries, bad, err := s.Scan()
			if err != nil {
				t.Fatal(err)
			}
			sweeps, badSweeps, err := s.Sweeps()
			if err != nil {
				t.Fatal(err)
			}
			if !removed {
				t.Fatal("the hook never removed anything: the test no longer reaches the window")
			}
			if bad = append(bad, badSweeps...); len(bad) > 0 {
				t.Errorf("a removal in progress was called damage: %v", &DamagedError{Entries: bad})
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Target)
			}
			for _, e := range sweeps {
				got = append(got, e.Name)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("listed %v, want %v", got, tc.want)
			}
		})
	}
}

// What is still there and unreadable stays damaged: a manifest replaced by a
// dangling link did not vanish.
func TestScanStillNamesADanglingManifestDamaged(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(KeyOf(m)), manifestFile)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(s.Root(), "nowhere"), path); err != nil {
		t.Fatal(err)
	}
	_, bad, err := s.Scan()
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || bad[0].String() != "2.6.1/smoke-0123456789ab" {
		t.Errorf("damaged %v, want the dangling manifest's entry", bad)
	}
}
