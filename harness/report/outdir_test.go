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
