// Package pairing is the one rule by which stored trials become pairs: a
// baseline trial and a candidate trial pair when they share a workload, a
// run and a pair index (pair indices match only within one run). The
// decision (compare), history's series and the reports' shift by
// percentile all pair through it; what they then compute on the pairs, and
// how strictly they judge trials that do not pair, is theirs.
package pairing

import (
	"cmp"

	"github.com/regress-hbase/regress/harness/results"
)

// Key identifies a trial's pair within its workload: its run and its pair
// index in that run.
type Key struct {
	Run  string
	Pair int
}

// KeyOf is trial t's pair key.
func KeyOf(t *results.Trial) Key { return Key{t.RunID, t.Pair} }

// Compare orders keys by run, then pair index.
func (k Key) Compare(o Key) int {
	if c := cmp.Compare(k.Run, o.Run); c != 0 {
		return c
	}
	return cmp.Compare(k.Pair, o.Pair)
}

// Index keys one side's trials by workload, then pair key, pointing into
// ts. Of trials sharing a workload and key the last stands; dup holds the
// first two found, in ts's order (nil when every key is held once), for a
// caller that refuses them.
func Index(ts []results.Trial) (ix map[string]map[Key]*results.Trial, dup *[2]*results.Trial) {
	ix = map[string]map[Key]*results.Trial{}
	for i := range ts {
		t := &ts[i]
		byKey := ix[t.Workload]
		if byKey == nil {
			byKey = map[Key]*results.Trial{}
			ix[t.Workload] = byKey
		}
		k := KeyOf(t)
		if prev := byKey[k]; prev != nil && dup == nil {
			dup = &[2]*results.Trial{prev, t}
		}
		byKey[k] = t
	}
	return ix, dup
}

// Match pairs every candidate trial with the baseline trial of its
// workload and key (the last of several, as Index keeps): each workload's
// pairs in the candidates' order, [0] the baseline trial and [1] the
// candidate, pointing into base and cand. A candidate trial without a
// partner is left out, as is a baseline trial no candidate names.
func Match(base, cand []results.Trial) map[string][][2]*results.Trial {
	ix, _ := Index(base)
	out := map[string][][2]*results.Trial{}
	for i := range cand {
		c := &cand[i]
		if b := ix[c.Workload][KeyOf(c)]; b != nil {
			out[c.Workload] = append(out[c.Workload], [2]*results.Trial{b, c})
		}
	}
	return out
}
