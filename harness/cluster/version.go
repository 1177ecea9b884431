package cluster

import (
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/version"
)

// nearestVersions picks up to n published versions closest to want: from the
// same major.minor line when it has any, else the same major, else all, taking
// the neighbours of where want would sort.
func nearestVersions(want string, published []string, n int) []string {
	wantSeg := version.Segments(want)
	wantH3 := strings.HasSuffix(want, "-hadoop3")
	filter := func(prefix int) []string {
		var out []string
		for _, p := range published {
			ps := version.Segments(p)
			if len(ps) < prefix || len(wantSeg) < prefix {
				continue
			}
			match := true
			for i := 0; i < prefix; i++ {
				if ps[i] != wantSeg[i] {
					match = false
					break
				}
			}
			if match && strings.HasSuffix(p, "-hadoop3") == wantH3 {
				out = append(out, p)
			}
		}
		return out
	}
	var pool []string
	for _, prefix := range []int{2, 1, 0} {
		if pool = filter(prefix); len(pool) > 0 {
			break
		}
	}
	if len(pool) == 0 {
		pool = append(pool, published...)
	}
	pool = version.Sort(append([]string(nil), pool...))
	at := sort.Search(len(pool), func(i int) bool { return version.Compare(pool[i], want) >= 0 })
	lo, hi := at-n/2, at+(n-n/2)
	if lo < 0 {
		hi -= lo
		lo = 0
	}
	if hi > len(pool) {
		lo -= hi - len(pool)
		hi = len(pool)
		if lo < 0 {
			lo = 0
		}
	}
	return pool[lo:hi]
}
