package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sweepBody = `{"baseline": "2.6.1", "candidate": "2.6.2", "suite": "capacity", "run_id": "20261201T101500", "searches": [{"workload": "workloada"}]}`

func TestPutSweepStoresAChecksummedSweepThatReadsBack(t *testing.T) {
	st, _ := Open(t.TempDir())
	path, err := st.PutSweep("20261201T101500", []byte(sweepBody))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(st.Root(), "capacity", "20261201T101500.json"); path != want {
		t.Errorf("stored at %s, want %s", path, want)
	}
	for _, ref := range []string{"20261201T101500", path} {
		body, from, err := st.ReadSweep(ref)
		if err != nil || from != path || !strings.Contains(string(body), `"workload":"workloada"`) {
			t.Errorf("ReadSweep(%q) = %s from %s, %v", ref, body, from, err)
		}
	}
	e, _, err := ReadSweepFile(path)
	if err != nil || e.Legacy || e.Baseline != "2.6.1" || e.Candidate != "2.6.2" || e.RunID != "20261201T101500" || e.Name != "capacity/20261201T101500" {
		t.Errorf("entry %+v, %v", e, err)
	}
}

func TestReadSweepFileTellsGoodFromDamaged(t *testing.T) {
	st, _ := Open(t.TempDir())
	good, err := st.PutSweep("good", []byte(sweepBody))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(good)
	for _, tc := range []struct {
		name, body string
		legacy     bool
		want       error
	}{
		{"enveloped", string(b), false, nil},
		{"plain sweep from before the envelope", sweepBody, true, nil},
		{"edited", strings.Replace(string(b), "2.6.2", "2.6.3", 1), false, ErrCorrupt},
		{"cut short", string(b[:len(b)/2]), false, ErrCorrupt},
		{"another JSON file", `{"format": "regress-manifest", "sha256": "00"}`, false, ErrCorrupt},
		{"JSON but no sweep", `{"baseline": "2.6.1"}`, true, ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.json")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			e, body, err := ReadSweepFile(p)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Errorf("err %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil || e.Legacy != tc.legacy || e.Candidate != "2.6.2" || len(body) == 0 {
				t.Errorf("entry %+v, %v; want legacy %v", e, err, tc.legacy)
			}
		})
	}
	if _, _, err := ReadSweepFile(filepath.Join(st.Root(), "nosuch.json")); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing sweep: %v, want ErrNotFound", err)
	}
	if _, _, err := st.ReadSweep("nosuch"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "run id") {
		t.Errorf("a missing run id: %v, want ErrNotFound naming the run id", err)
	}
}

func TestCheckListsSweepsBesideEntriesAndRemoveTakesThem(t *testing.T) {
	st, _ := Open(t.TempDir())
	if _, err := st.Ensure(testManifest()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutSweep("run1", []byte(sweepBody)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(st.Root(), "capacity", "run2.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	sts, err := st.Check()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range sts {
		got[s.Name] = s.Err == nil
		if s.Name == "capacity/run1" && (s.Sweep == nil || s.Sweep.Candidate != "2.6.2") {
			t.Errorf("good sweep status %+v", s)
		}
	}
	if len(sts) != 3 || !got["capacity/run1"] || got["capacity/run2"] {
		t.Errorf("check: %+v, want the entry, capacity/run1 good and capacity/run2 damaged", sts)
	}
	if entries, err := st.List(); err != nil || len(entries) != 1 {
		t.Errorf("List: %v, %v; sweeps are no trial entries", entries, err)
	}
	for _, name := range []string{"capacity/run2", "capacity/run1.json"} {
		if _, err := st.Remove(name); err != nil {
			t.Errorf("Remove(%s): %v", name, err)
		}
	}
	if good, bad, err := st.Sweeps(); err != nil || len(good)+len(bad) != 0 {
		t.Errorf("after removal: %v %v %v", good, bad, err)
	}
	if _, err := st.Remove("capacity/run1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing it twice: %v, want ErrNotFound", err)
	}
}

// FuzzReadSweepFile feeds the sweep reader a stored sweep, the plain sweep
// the old code wrote, and their mutations: it must return an error or a
// sweep with both sides named, never panic.
func FuzzReadSweepFile(f *testing.F) {
	st, _ := Open(f.TempDir())
	p, err := st.PutSweep("seed", []byte(sweepBody))
	if err != nil {
		f.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	f.Add(b)
	f.Add([]byte(sweepBody))
	old, _ := os.ReadFile(filepath.Join("..", "capacity", "testdata", "store", "capacity", "20261201T101500.json"))
	f.Add(old)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "x.json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		e, body, err := ReadSweepFile(p)
		if err != nil {
			return
		}
		if e.Baseline == "" || e.Candidate == "" || len(body) == 0 {
			t.Fatalf("read a sweep without sides: %+v", e)
		}
	})
}
