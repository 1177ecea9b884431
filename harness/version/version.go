// Package version orders and checks HBase version strings ("2.6.1",
// "2.6.1-hadoop3", "3.0.0-beta-1"): the one place cluster, history and job
// compare releases.
package version

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ErrBad marks a version string that is not a plausible release name.
var ErrBad = errors.New("invalid HBase version string")

// alphabet is the whole alphabet a version may use: it keeps versions safe to
// put into paths, pom files and command lines.
var alphabet = regexp.MustCompile(`^[0-9][0-9A-Za-z.-]*$`)

// Validate refuses version strings that are not made of [0-9A-Za-z.-]
// starting with a digit, before they reach a path or a command line.
func Validate(v string) error {
	if len(v) > 64 || !alphabet.MatchString(v) {
		return fmt.Errorf("%w: %q: use a release name such as 2.6.1 or 2.6.1-hadoop3 (digits, letters, '.' and '-', starting with a digit)", ErrBad, v)
	}
	return nil
}

// Segments cuts a version into its dot/dash separated segments.
func Segments(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' })
}

// Compare orders HBase versions: numeric segments numerically, other
// segments as text, and a version before its own suffixed variants
// ("2.6.1" < "2.6.1-hadoop3" < "2.6.2"), but after its pre-releases
// ("3.0.0-beta-1" < "3.0.0").
func Compare(a, b string) int {
	as, bs := Segments(a), Segments(b)
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

// PreRelease says whether v is an alpha, beta, release candidate or
// snapshot (3.0.0-beta-1, 2.6.1-SNAPSHOT): a segment after the first that
// Compare puts before the bare version.
func PreRelease(v string) bool {
	segs := Segments(v)
	for _, s := range segs[min(1, len(segs)):] {
		if isPreRelease(s) {
			return true
		}
	}
	return false
}

// Release is the release a version string names: its build variant
// (-hadoop2, -hadoop3) dropped.
func Release(v string) string {
	for _, s := range []string{"-hadoop3", "-hadoop2"} {
		v = strings.TrimSuffix(v, s)
	}
	return v
}

// SameRelease reports whether two version strings name one release
// (2.6.1 and 2.6.1-hadoop3 do).
func SameRelease(a, b string) bool { return Release(a) == Release(b) }

// Sort sorts versions in place with Compare and drops duplicates.
func Sort(vs []string) []string {
	sort.Slice(vs, func(i, j int) bool { return Compare(vs[i], vs[j]) < 0 })
	out := vs[:0]
	for i, v := range vs {
		if i == 0 || v != vs[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Line returns the major and minor number of a version ("2.6.1-hadoop3" -> 2, 6).
func Line(v string) (major, minor int, ok bool) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	minStr := parts[1]
	if i := strings.IndexFunc(minStr, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minStr = minStr[:i]
	}
	mnr, err2 := strconv.Atoi(minStr)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return maj, mnr, true
}

// release is a release's name: major.minor.patch, then any suffix.
var release = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+([.-][0-9A-Za-z][0-9A-Za-z.-]*)?$`)

// ValidateRelease is Validate for a version that must name one HBase
// release (2.6.1, 2.6.1-hadoop3, 3.0.0-beta-1): a line (2.6), a tag (v2.6.1)
// or a word (emr) is refused, as no release is called that.
func ValidateRelease(v string) error {
	if err := Validate(v); err != nil {
		return err
	}
	if !release.MatchString(v) {
		return fmt.Errorf("%w: %q names no release: give major.minor.patch, e.g. 2.6.1 or 2.6.1-hadoop3", ErrBad, v)
	}
	return nil
}
