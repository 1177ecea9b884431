package pairing

import (
	"slices"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

func trial(id, workload, run string, pair int) results.Trial {
	return results.Trial{ID: id, Workload: workload, RunID: run, Pair: pair}
}

// ids names each workload's pairs as "baseline/candidate" trial IDs.
func ids(m map[string][][2]*results.Trial) map[string][]string {
	out := map[string][]string{}
	for w, ps := range m {
		for _, p := range ps {
			out[w] = append(out[w], p[0].ID+"/"+p[1].ID)
		}
	}
	return out
}

// TestMatchPairsByWorkloadRunAndPair: a trial pairs only with the other
// side's trial of its workload, run and pair index; pairs come in the
// candidates' order; trials without a partner on either side are left out.
func TestMatchPairsByWorkloadRunAndPair(t *testing.T) {
	base := []results.Trial{
		trial("b1", "a", "r1", 0), trial("b2", "a", "r1", 1), trial("b3", "b", "r1", 0),
		trial("b4", "a", "r2", 0), trial("b5", "c", "r1", 0),
	}
	cand := []results.Trial{
		trial("c2", "a", "r1", 1), trial("c1", "a", "r1", 0), trial("c4", "a", "r2", 0),
		trial("c3", "b", "r1", 0), trial("c6", "b", "r1", 1), trial("c7", "a", "r3", 0),
	}
	got := ids(Match(base, cand))
	want := map[string][]string{"a": {"b2/c2", "b1/c1", "b4/c4"}, "b": {"b3/c3"}}
	if len(got) != len(want) {
		t.Fatalf("Match = %v, want %v", got, want)
	}
	for w, ps := range want {
		if !slices.Equal(got[w], ps) {
			t.Errorf("workload %s: pairs %v, want %v", w, got[w], ps)
		}
	}
	// The pairs point into the slices given, not copies.
	if p := Match(base, cand)["b"][0]; p[0] != &base[2] || p[1] != &cand[3] {
		t.Error("pairs do not point into base and cand")
	}
}

// TestIndexNamesTheFirstDuplicate: of trials sharing a key the last stands,
// and the first two found are returned for a strict caller.
func TestIndexNamesTheFirstDuplicate(t *testing.T) {
	ts := []results.Trial{trial("x", "a", "r1", 0), trial("y", "a", "r1", 1), trial("z", "a", "r1", 0), trial("w", "a", "r1", 0), trial("v", "b", "r1", 0)}
	ix, dup := Index(ts)
	if dup == nil || dup[0].ID != "x" || dup[1].ID != "z" {
		t.Fatalf("dup = %v, want x and z", dup)
	}
	if got := ix["a"][Key{"r1", 0}].ID; got != "w" {
		t.Errorf("key r1/0 holds %s, want the last, w", got)
	}
	if len(ix["a"]) != 2 || len(ix["b"]) != 1 {
		t.Errorf("index %v", ix)
	}
	if _, dup := Index(ts[3:]); dup != nil {
		t.Errorf("distinct keys: dup %v", dup)
	}
	// A duplicated baseline key pairs its candidate with the last.
	if got := ids(Match(ts, []results.Trial{trial("c", "a", "r1", 0)})); !slices.Equal(got["a"], []string{"w/c"}) {
		t.Errorf("Match over a duplicated key = %v, want w/c", got)
	}
}

func TestKeyCompare(t *testing.T) {
	keys := []Key{{"r2", 0}, {"r1", 10}, {"r1", 2}, {"", 5}}
	slices.SortFunc(keys, Key.Compare)
	want := []Key{{"", 5}, {"r1", 2}, {"r1", 10}, {"r2", 0}}
	if !slices.Equal(keys, want) {
		t.Errorf("sorted %v, want %v", keys, want)
	}
}
