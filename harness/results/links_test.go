package results

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A writer refuses a symbolic link wherever `results check` and `results
// remove` refuse one (a target, an entry, its trials/ or profiles/, the
// sweeps' folder), so nothing is written outside the store and then lost;
// a reader refuses the same links and says so.
func TestWritersAndReadersRefuseLinksAsCheckDoes(t *testing.T) {
	hlog := "#[Histogram log format version 1.3]\n"
	tests := []struct {
		name string
		// link replaces part of a store holding one good entry (k) with a
		// link to a copy outside; it returns the path linked.
		link  func(t *testing.T, s *Store, k Key, outside string) string
		write func(s *Store, k Key) error
	}{
		{"a target directory, Ensure", linkTarget, func(s *Store, k Key) error { _, err := s.Ensure(testManifest()); return err }},
		{"a target directory, ImportSummaries", linkTarget, func(s *Store, k Key) error {
			m := testManifest()
			m.Suite.Name = "other"
			_, _, _, err := s.ImportSummaries(m, []Pending{{Trial: testTrial("s1", 0), Hlog: []byte(hlog)}})
			return err
		}},
		{"an entry directory, AppendTrial", linkEntry, func(s *Store, k Key) error {
			_, err := s.AppendTrial(k, testTrial("t2", 1), strings.NewReader(hlog))
			return err
		}},
		{"an entry directory, ImportSummaries", linkEntry, func(s *Store, k Key) error {
			_, _, _, err := s.ImportSummaries(testManifest(), []Pending{{Trial: testTrial("s1", 0), Hlog: []byte(hlog)}})
			return err
		}},
		{"trials/, AppendTrial", linkTrials, func(s *Store, k Key) error {
			_, err := s.AppendTrial(k, testTrial("t2", 1), strings.NewReader(hlog))
			return err
		}},
		{"trials/, AppendSummaries", linkTrials, func(s *Store, k Key) error {
			_, _, err := s.AppendSummaries(k, []Pending{{Trial: testTrial("s1", 0), Hlog: []byte(hlog)}})
			return err
		}},
		{"profiles/, WriteProfile", linkProfiles, func(s *Store, k Key) error {
			return WriteProfile(s.Dir(k), "t1", ProfileKinds[0], func(w io.Writer) error { _, err := w.Write([]byte("a;b 1\n")); return err })
		}},
		{"the sweeps' folder, PutSweep", linkSweeps, func(s *Store, k Key) error {
			_, err := s.PutSweep("r1", []byte(`{"baseline":"a","candidate":"b","searches":[]}`))
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Ensure(testManifest())
			if err != nil {
				t.Fatal(err)
			}
			k := KeyOf(m)
			if _, err := s.AppendTrial(k, testTrial("t1", 0), strings.NewReader(hlog)); err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			linked := tc.link(t, s, k, outside)
			before := tree(t, outside)
			err = tc.write(s, k)
			if !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), linked+" is a symbolic link where") {
				t.Errorf("write through %s: %v, want it refused naming the link", linked, err)
			}
			if after := tree(t, outside); after != before {
				t.Errorf("the link's target changed:\nbefore %s\nafter  %s", before, after)
			}
			// check names the same link.
			sts, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			named := false
			for _, st := range sts {
				named = named || st.Dir == linked && st.Err != nil && strings.Contains(st.Err.Error(), "a symbolic link where")
			}
			if !named {
				t.Errorf("check does not name the link %s: %+v", linked, sts)
			}
		})
	}
}

// A reader asking for results stored behind a link is told so, not handed
// results stored elsewhere nor told nothing is stored.
func TestReadersNameTheLinkTheyRefuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(t *testing.T, s *Store, k Key, outside string) string
	}{{"target", linkTarget}, {"entry", linkEntry}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Ensure(testManifest())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendTrial(KeyOf(m), testTrial("t1", 0), nil); err != nil {
				t.Fatal(err)
			}
			linked := tc.link(t, s, KeyOf(m), t.TempDir())
			_, err = s.Resolve(m.Version, "")
			if !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), linked) {
				t.Errorf("Resolve through a linked %s: %v, want the link named", tc.name, err)
			}
			if _, err := s.Load(KeyOf(m)); !errors.Is(err, ErrLink) {
				t.Errorf("Load through a linked %s: %v, want ErrLink", tc.name, err)
			}
		})
	}
}

// moveOut moves path to outside/<base> and leaves a link to it in its place.
func moveOut(t *testing.T, path, outside string) string {
	t.Helper()
	to := filepath.Join(outside, filepath.Base(path))
	if err := os.Rename(path, to); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, path); err != nil {
		t.Fatal(err)
	}
	return path
}

func linkTarget(t *testing.T, s *Store, k Key, outside string) string {
	return moveOut(t, filepath.Join(s.Root(), k.Target), outside)
}

func linkEntry(t *testing.T, s *Store, k Key, outside string) string {
	return moveOut(t, s.Dir(k), outside)
}

func linkTrials(t *testing.T, s *Store, k Key, outside string) string {
	return moveOut(t, filepath.Join(s.Dir(k), trialsDir), outside)
}

func linkProfiles(t *testing.T, s *Store, k Key, outside string) string {
	p := filepath.Join(s.Dir(k), ProfilesDir)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return moveOut(t, p, outside)
}

func linkSweeps(t *testing.T, s *Store, k Key, outside string) string {
	p := filepath.Join(s.Root(), sweepsDir)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return moveOut(t, p, outside)
}

// tree lists every path under dir with its size: what a write would change.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String() + " " + strconv.FormatInt(fi.Size(), 10) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A name that is both a path here and a name stored in the store is
// refused as ambiguous, whichever it is (a folder ./2.6.1 holding a
// manifest shadowed the store's 2.6.1 without a word); written as a path,
// or with a store rooted here, it is no longer ambiguous.
func TestANameThatIsAlsoAPathIsAmbiguous(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	s, err := Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTrial(KeyOf(m), testTrial("t1", 0), nil); err != nil {
		t.Fatal(err)
	}
	// ./2.6.1 holds another manifest of 2.6.1 (a copy from elsewhere).
	other := testManifest()
	other.Schema, other.Trials = SchemaVersion, []Trial{testTrial("x1", 0), testTrial("x2", 1)}
	b, err := EncodeManifest(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("2.6.1", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("2.6.1", manifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Resolve("2.6.1", ""); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "./2.6.1 for the one here") {
		t.Errorf("Resolve(2.6.1) = %v, %v; want it refused as ambiguous", got, err)
	}
	if got, err := s.Resolve("./2.6.1", ""); err != nil || len(got.Trials) != 2 {
		t.Errorf("Resolve(./2.6.1) = %v, %v; want the folder here", got, err)
	}
	if got, err := s.Resolve(s.Dir(KeyOf(m)), ""); err != nil || len(got.Trials) != 1 {
		t.Errorf("Resolve(the entry's directory) = %v, %v; want the stored one", got, err)
	}
	here, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := here.Resolve("2.6.1", ""); errors.Is(err, ErrAmbiguous) {
		t.Errorf("a store rooted here: %v", err)
	}
	// The same for a sweep's run id.
	if _, err := s.PutSweep("r1", []byte(`{"baseline":"a","candidate":"b","searches":[1]}`)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("r1", []byte(`{"baseline":"c","candidate":"d","searches":[1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ReadSweep("r1"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("ReadSweep(r1) = %v, want it refused as ambiguous", err)
	}
	// And for `results remove`: ./2.6.1/ENTRY, a copy of the entry here,
	// is not the store's; removing the store's one for it loses it.
	name := filepath.Join("2.6.1", filepath.Base(s.Dir(KeyOf(m))))
	if err := os.Mkdir(name, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Remove(name); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Remove(%s) = %v, want it refused as ambiguous", name, err)
	}
	if _, err := os.Stat(s.Dir(KeyOf(m))); err != nil {
		t.Errorf("the store's entry went: %v", err)
	}
	if err := os.MkdirAll("capacity", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("capacity", "r1.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Remove("capacity/r1.json"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Remove(capacity/r1.json) = %v, want it refused as ambiguous", err)
	}
	t.Chdir(s.Root())
	if _, err := s.Remove(name); err != nil {
		t.Errorf("Remove(%s) from the store's own folder: %v", name, err)
	}
}

// A label cannot pass for a name the store gives itself: the sweeps'
// folder, a name with a '+' (2.6.1+conf-..., +baseline), another release.
func TestValidateLabel(t *testing.T) {
	for _, tc := range []struct{ label, release, want string }{
		{"rc1", "2.6.1", ""},
		{"2.6.1-rc1", "2.6.1", ""},
		{"2.6.1", "2.6.1-hadoop3", ""},
		{"prod-2.6.1", "", ""},
		{"2.6.1", "", ""},
		{"2.6.1", "2.6.0", `label "2.6.1" reads as HBase 2.6.1, but these are results of 2.6.0`},
		{"2.6.1-rc1", "2.6.0", "reads as HBase 2.6.1"},
		{"2.6.0+conf-0a1b2c3d", "2.6.0", "holds a '+'"},
		{"mine+baseline", "2.6.0", "holds a '+'"},
		{"capacity", "2.6.0", "capacity sweeps"},
		{"a/b", "2.6.0", "cannot name a store directory"},
	} {
		err := ValidateLabel(tc.label, tc.release)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ValidateLabel(%q, %q) = %v, want %q", tc.label, tc.release, err, tc.want)
		}
	}
}
