package cluster

import (
	"sort"
	"strconv"
	"strings"
)

// splitVersion cuts a version into its dot/dash separated segments.
func splitVersion(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' })
}

// CompareVersions orders HBase versions: numeric segments numerically, other
// segments as text, and a version before its own suffixed variants
// ("2.6.1" < "2.6.1-hadoop3" < "2.6.2").
func CompareVersions(a, b string) int {
	as, bs := splitVersion(a), splitVersion(b)
	for i := 0; i < len(as) && i < len(bs); i++ {
		an, aerr := strconv.Atoi(as[i])
		bn, berr := strconv.Atoi(bs[i])
		switch {
		case aerr == nil && berr == nil:
			if an != bn {
				if an < bn {
					return -1
				}
				return 1
			}
		case aerr == nil: // numbers sort before words
			return -1
		case berr == nil:
			return 1
		default:
			if c := strings.Compare(as[i], bs[i]); c != 0 {
				return c
			}
		}
	}
	switch {
	case len(as) < len(bs):
		if isPreRelease(bs[len(as)]) {
			return 1
		}
		return -1
	case len(as) > len(bs):
		if isPreRelease(as[len(bs)]) {
			return -1
		}
		return 1
	}
	return 0
}

// isPreRelease says whether a suffix segment marks a release before the bare
// version (3.0.0-beta-1 < 3.0.0), unlike build variants (2.6.1-hadoop3 > 2.6.1).
func isPreRelease(seg string) bool {
	s := strings.ToLower(seg)
	for _, p := range []string{"alpha", "beta", "rc", "snapshot"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// SortVersions sorts versions in place with CompareVersions and drops duplicates.
func SortVersions(vs []string) []string {
	sort.Slice(vs, func(i, j int) bool { return CompareVersions(vs[i], vs[j]) < 0 })
	out := vs[:0]
	for i, v := range vs {
		if i == 0 || v != vs[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// nearestVersions picks up to n published versions closest to want: from the
// same major.minor line when it has any, else the same major, else all, taking
// the neighbours of where want would sort.
func nearestVersions(want string, published []string, n int) []string {
	wantSeg := splitVersion(want)
	wantH3 := strings.HasSuffix(want, "-hadoop3")
	filter := func(prefix int) []string {
		var out []string
		for _, p := range published {
			ps := splitVersion(p)
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
	pool = SortVersions(append([]string(nil), pool...))
	at := sort.Search(len(pool), func(i int) bool { return CompareVersions(pool[i], want) >= 0 })
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
