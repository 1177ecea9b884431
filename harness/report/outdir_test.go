package report

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOutDirNeverOverwrites: two default report directories of one second are
// two folders (-2), a named one that holds files is refused, and a committed
// folder holds what was written into its temporary folder and nothing beside it.
func TestOutDirNeverOverwrites(t *testing.T) {
	base := t.TempDir()
	at := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	var got []string
	for i, verdict := range []string{"REGRESSION", "PASS", "PASS"} {
		d, err := NewOutDir(base, "", at)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Tmp, "vote.txt"), []byte(verdict), 0o644); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			d.Abort()
			continue
		}
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.Path)
	}
	want := []string{filepath.Join(base, "20261206T050000Z"), filepath.Join(base, "20261206T050000Z-2")}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("report dir %d: %s, want %s", i, got[i], want[i])
		}
	}
	if b, _ := os.ReadFile(filepath.Join(want[0], "vote.txt")); string(b) != "REGRESSION" {
		t.Errorf("the first report was overwritten: %q", b)
	}
	left, _ := os.ReadDir(base)
	if len(left) != 2 {
		t.Errorf("%d entries under %s, want the two reports and no leftover of the aborted one: %v", len(left), base, left)
	}
	if _, err := NamedOutDir(want[0]); !errors.Is(err, ErrOutTaken) {
		t.Errorf("a named --out holding a report: %v, want ErrOutTaken", err)
	}
	empty := filepath.Join(base, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := NamedOutDir(empty)
	if err != nil {
		t.Fatalf("an empty named --out: %v", err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(empty); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("committed dir: %v, %v, want mode 0755", fi, err)
	}
}

// --out DIR/ is DIR: the reports land in it, not in a temporary folder
// hidden inside it.
func TestNamedOutDirWithATrailingSlash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d, err := NamedOutDir(dir + string(filepath.Separator))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Tmp, "vote.txt"), []byte("PASS"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatalf("commit of --out %s/: %v", dir, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "vote.txt")); err != nil || string(b) != "PASS" {
		t.Errorf("vote.txt in %s: %q, %v", dir, b, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("%s holds %v, want vote.txt alone", dir, left)
	}
}

// Comparisons racing on one --out take it one at a time: exactly one
// writes its reports, every other is told the folder holds files
// (ErrOutTaken), none fails at its rename with its reports left aside.
func TestNamedOutDirRaced(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			d, err := NamedOutDir(dir)
			if err != nil {
				errs <- err
				return
			}
			// Rendering takes a while: the window the others raced into.
			time.Sleep(20 * time.Millisecond)
			if err := os.WriteFile(filepath.Join(d.Tmp, "vote.txt"), []byte{byte('0' + i)}, 0o644); err != nil {
				d.Abort()
				errs <- err
				return
			}
			errs <- d.Commit()
		}()
	}
	won := 0
	for range n {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, ErrOutTaken):
			t.Errorf("a losing comparison: %v, want ErrOutTaken", err)
		}
	}
	if won != 1 {
		t.Errorf("%d comparisons wrote their reports, want 1", won)
	}
	left, _ := os.ReadDir(filepath.Dir(dir))
	if len(left) != 1 {
		t.Errorf("beside the reports: %v, want nothing left", left)
	}
}
