package results

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestCheckKnowsEveryKindOfLeftover(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	good, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTrial(KeyOf(good), testTrial("t1", 0), strings.NewReader("#[Histogram log format version 1.3]\n")); err != nil {
		t.Fatal(err)
	}
	empty := testManifest()
	empty.Version = "2.6.2"
	if _, err := s.Ensure(empty); err != nil {
		t.Fatal(err)
	}
	lost := testManifest()
	lost.Version = "2.6.3"
	lm, err := s.Ensure(lost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTrial(KeyOf(lm), testTrial("t1", 0), strings.NewReader("#[Histogram log format version 1.3]\n")); err != nil {
		t.Fatal(err)
	}
	root, gdir := s.Root(), s.Dir(KeyOf(good))
	mustDo := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustDo(os.Remove(filepath.Join(s.Dir(KeyOf(lm)), manifestFile)))                                  // deleted beside its .hlog
	mustDo(os.MkdirAll(filepath.Join(root, ".removing-2.6.0-smoke-0123456789ab-1", "trials"), 0o755)) // interrupted removal
	mustDo(os.WriteFile(filepath.Join(gdir, ".manifest.json.tmp-123"), []byte("{"), 0o644))           // interrupted write
	mustDo(os.WriteFile(filepath.Join(gdir, "trials", ".t2.hlog.tmp-9"), nil, 0o644))
	mustDo(os.WriteFile(filepath.Join(gdir, "trials", "t9.hlog"), nil, 0o644))      // named by no manifest
	mustDo(os.WriteFile(filepath.Join(root, "notes.txt"), nil, 0o644))              // stray file
	mustDo(os.MkdirAll(filepath.Join(root, "2.6.1", "stray"), 0o755))               // stray directory
	mustDo(os.Symlink(filepath.Join(root, "2.6.1"), filepath.Join(root, "linked"))) // symlinked target
	mustDo(os.Symlink(gdir, filepath.Join(root, "2.6.1", "smoke-link")))            // symlinked entry
	mustDo(os.Mkdir(filepath.Join(gdir, "trials", "subdir"), 0o755))                // a directory among the logs
	mustDo(os.Remove(filepath.Join(root, lockFile)))
	mustDo(os.Mkdir(filepath.Join(root, lockFile), 0o755)) // the lock file a directory: writers fail

	sts, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var goodNames []string
	for _, st := range sts {
		switch {
		case st.Leftover:
			got[st.Name] = st.Err.Error()
		case st.Err != nil:
			t.Errorf("DAMAGED %s: %v, want only leftovers", st.Name, st.Err)
		default:
			goodNames = append(goodNames, st.Name)
		}
	}
	if len(goodNames) != 1 || goodNames[0] != "2.6.1/smoke-0123456789ab" {
		t.Errorf("good entries %v, want only 2.6.1/smoke-0123456789ab", goodNames)
	}
	want := map[string]string{
		"2.6.2/smoke-0123456789ab":                        "an empty entry",
		"2.6.3/smoke-0123456789ab":                        "manifest.json is missing beside 1 .hlog files",
		".removing-2.6.0-smoke-0123456789ab-1":            "interrupted",
		"2.6.1/smoke-0123456789ab/.manifest.json.tmp-123": "temporary file",
		"2.6.1/smoke-0123456789ab/trials/.t2.hlog.tmp-9":  "temporary file",
		"2.6.1/smoke-0123456789ab/trials/t9.hlog":         "the manifest does not name",
		"notes.txt":                              "a regular file where a target directory belongs",
		"2.6.1/stray":                            "no store entry",
		"linked":                                 "a symbolic link where a target directory belongs",
		"2.6.1/smoke-link":                       "a symbolic link where an entry directory belongs",
		"2.6.1/smoke-0123456789ab/trials/subdir": "a directory in trials/, which holds only the .hlog files the manifest names: move it out of the store",
		".lock":                                  "a directory where the store's lock file belongs",
	}
	for name, w := range want {
		if !strings.Contains(got[name], w) {
			t.Errorf("%s: %q, want a leftover saying %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("leftovers %v, want the %d above", names, len(want))
	}
}

func TestCheckWaitsForARemovalInProgress(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ensure(testManifest()); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.lock() // as `results remove` holds it between its rename and its delete
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := s.WithContext(ctx).Check()
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("check read the store while a writer held its lock (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRemoveIfEmptyKeepsAnythingStored(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Ensure(testManifest())
	if err != nil {
		t.Fatal(err)
	}
	k := KeyOf(m)
	if _, err := s.AppendTrial(k, testTrial("t1", 0), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveIfEmpty(k); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(k); err != nil {
		t.Fatalf("an entry with a trial was removed: %v", err)
	}
	e := testManifest()
	e.Version = "2.6.2"
	em, err := s.Ensure(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveIfEmpty(KeyOf(em)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Root(), "2.6.2")); !os.IsNotExist(err) {
		t.Errorf("the empty entry's target is still there: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(s.Root(), ".removing-*")); len(leftovers) > 0 {
		t.Errorf("left %v", leftovers)
	}
}

// TestCheckNamesLinksAndStrayFilesAmongSweeps: a symbolic link in the
// sweeps' directory (capacity/r.json -> /dev/zero) is damaged to `results
// list` and `capacity --from`, but `results check` named it nowhere and
// said all good (exit 0); a file there that is no .json was skipped too.
func TestCheckNamesLinksAndStrayFilesAmongSweeps(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		make       func(path string) error
	}{
		{"r3.json", "symbolic link where a capacity sweep belongs", func(p string) error { return os.Symlink(os.DevNull, p) }},
		{"r4.json", "symbolic link where a capacity sweep belongs", func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "nowhere.json"), p) }},
		{"notes.txt", "a regular file that is no capacity sweep", func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) }},
	} {
		s, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(s.Root(), sweepsDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := tc.make(filepath.Join(dir, tc.name)); err != nil {
			t.Fatal(err)
		}
		sts, err := s.Check()
		if err != nil {
			t.Fatal(err)
		}
		var named []string
		for _, st := range sts {
			if st.Err != nil && strings.Contains(st.Err.Error(), tc.want) {
				named = append(named, st.Name)
			}
		}
		if len(named) != 1 || named[0] != sweepsDir+"/"+tc.name {
			t.Errorf("%s: check named %v (all: %+v), want %s/%s as %q", tc.name, named, sts, sweepsDir, tc.name, tc.want)
		}
	}
}

// A directory where the lock file belongs stops every writer: they say so
// and how to fix it, as check does.
func TestALockThatIsADirectoryIsNamed(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.Root(), lockFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ensure(testManifest()); err == nil || !strings.Contains(err.Error(), "a directory, where the store's lock file belongs: delete it") {
		t.Errorf("a write with .lock a directory: %v", err)
	}
}

// An import ended by a signal stops between its logs and leaves no folder
// (the process exits soon after the signal, and a thousand logs took
// longer); a folder left by an import killed outright is removed by the
// next import, which holds the lock no other import can hold meanwhile.
func TestInterruptedImportsLeaveNoFolder(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(s.Root(), importingPrefix+"2.6.1-123")
	if err := os.MkdirAll(filepath.Join(stale, trialsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := testManifest()
	var ps []Pending
	for i := range 50 {
		ps = append(ps, Pending{Trial: testTrial(fmt.Sprintf("s%d", i), i), Hlog: []byte("#[Histogram log format version 1.3]\n")})
	}
	if _, _, _, err := s.WithContext(ctx).ImportSummaries(m, ps); !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted import: %v, want it stopped", err)
	}
	left, _ := filepath.Glob(filepath.Join(s.Root(), importingPrefix+"*"))
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if _, err := s.Load(KeyOf(m)); !errors.Is(err, ErrNotFound) {
		t.Errorf("an interrupted import stored %v", err)
	}
}
