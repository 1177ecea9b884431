package report

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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
	// A named --out holding files that are no reports of regress's is refused.
	other := filepath.Join(base, "mine")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "vote.txt"), []byte("my own"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NamedOutDir(other); !errors.Is(err, ErrOutTaken) {
		t.Errorf("a named --out holding other files: %v, want ErrOutTaken", err)
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

// TestANamedOutOfEarlierReportsIsReplacedWhole: a fixed --out (a reused CI
// workspace's reports/ci) takes run after run: the new reports replace the
// earlier ones whole, nothing of them is left, and an aborted run leaves
// them as they were.
func TestANamedOutOfEarlierReportsIsReplacedWhole(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ci")
	write := func(files ...string) *OutDir {
		t.Helper()
		d, err := NamedOutDir(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d.Tmp, f), []byte(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	if err := write("vote.txt", "first-only.txt").Commit(); err != nil {
		t.Fatal(err)
	}
	if !HoldsReports(out) {
		t.Fatalf("a committed report folder holds no %s", Marker)
	}
	write("vote.txt").Abort()
	if b, _ := os.ReadFile(filepath.Join(out, "first-only.txt")); string(b) != "first-only.txt" {
		t.Fatal("an aborted run removed the earlier reports")
	}
	if err := write("vote.txt", "second.txt").Commit(); err != nil {
		t.Fatal(err)
	}
	names := func(dir string) []string {
		es, _ := os.ReadDir(dir)
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	if got := names(out); !slices.Equal(got, []string{Marker, "second.txt", "vote.txt"}) {
		t.Errorf("after the second run %s holds %v", out, got)
	}
	if got := names(filepath.Dir(out)); !slices.Equal(got, []string{"ci"}) {
		t.Errorf("leftovers beside the reports: %v", got)
	}
	// Without the one-step exchange (other systems): moved aside, then removed.
	exchange = func(a, b string) error { return errors.ErrUnsupported }
	defer func() { exchange = renameExchange }()
	if err := write("third.txt").Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(out); !slices.Equal(got, []string{Marker, "third.txt"}) {
		t.Errorf("after the third run %s holds %v", out, got)
	}
	if got := names(filepath.Dir(out)); !slices.Equal(got, []string{"ci"}) {
		t.Errorf("leftovers beside the reports: %v", got)
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
	if left, _ := os.ReadDir(dir); len(left) != 2 {
		t.Errorf("%s holds %v, want vote.txt and %s alone", dir, left, Marker)
	}
}

// Comparisons racing on one --out take it one at a time: each writes its
// reports whole in turn (a later one replacing an earlier one's, as a
// reused workspace's run does), none fails at its rename with its reports
// left aside, and the folder ends holding one comparison's reports.
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
		if err := <-errs; err != nil {
			t.Errorf("a racing comparison: %v", err)
			continue
		}
		won++
	}
	if won != n {
		t.Errorf("%d of %d comparisons wrote their reports", won, n)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "vote.txt")); err != nil || len(b) != 1 {
		t.Errorf("vote.txt after the race: %q, %v: want one comparison's", b, err)
	}
	left, _ := os.ReadDir(filepath.Dir(dir))
	if len(left) != 1 {
		t.Errorf("beside the reports: %v, want nothing left", left)
	}
}
