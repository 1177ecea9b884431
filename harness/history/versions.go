package history

import (
	"errors"
	"fmt"
	"strings"

	"github.com/regress-hbase/regress/harness/version"
)

// ErrNoVersions says a range was given but no versions are known to resolve it against.
var ErrNoVersions = errors.New("no HBase versions known")

// ResolveVersions turns --versions into releases in release order. spec is
// a comma-separated list whose items are versions (2.6.0) or ranges
// (2.5.10..2.6.4); a range is resolved against known (what `regress cluster
// versions` lists: the cache and Maven's metadata) and holds every release
// from its first to its last version, both included. Build variants count
// once (2.6.1 and 2.6.1-hadoop3 are release 2.6.1) and pre-releases
// (2.0.0-beta-1) are left out of a range unless they are one of its ends.
// Listed versions need not be known (a start says whether one exists);
// a version named twice is refused.
func ResolveVersions(spec string, known []string) ([]string, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, errors.New("--versions is empty: give releases as a list (2.6.0,2.6.2,2.6.4) or a range (2.5.10..2.6.4)")
	}
	releases := map[string]bool{}
	for _, v := range known {
		if r := version.Release(v); r != "" {
			releases[r] = true
		}
	}
	var out []string
	seen := map[string]string{}
	add := func(v, item string) error {
		if prev, dup := seen[version.Release(v)]; dup {
			return fmt.Errorf("--versions: %s appears twice (in %q and %q); name each release once", version.Release(v), prev, item)
		}
		seen[version.Release(v)] = item
		out = append(out, v)
		return nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("--versions %q has an empty item; separate releases with single commas", spec)
		}
		from, to, isRange := strings.Cut(item, "..")
		if !isRange {
			if err := version.Validate(item); err != nil {
				return nil, fmt.Errorf("--versions: %w", err)
			}
			if err := add(item, item); err != nil {
				return nil, err
			}
			continue
		}
		vs, err := expandRange(strings.TrimSpace(from), strings.TrimSpace(to), item, releases)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if err := add(v, item); err != nil {
				return nil, err
			}
		}
	}
	return version.Sort(out), nil
}

// CheckVersions checks --versions as written, without resolving it, so a
// bad item is refused before anything lists versions (Maven): every item is
// a version or a range with both ends, the older first.
func CheckVersions(spec string) error {
	if strings.TrimSpace(spec) == "" {
		return errors.New("--versions is empty: give releases as a list (2.6.0,2.6.2,2.6.4) or a range (2.5.10..2.6.4)")
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return fmt.Errorf("--versions %q has an empty item; separate releases with single commas", spec)
		}
		from, to, isRange := strings.Cut(item, "..")
		if !isRange {
			if err := version.Validate(item); err != nil {
				return fmt.Errorf("--versions: %w", err)
			}
			continue
		}
		if err := checkRange(strings.TrimSpace(from), strings.TrimSpace(to), item); err != nil {
			return err
		}
	}
	return nil
}

// checkRange checks a range's two ends as written: both given, both
// versions, the older first.
func checkRange(from, to, item string) error {
	for _, v := range []string{from, to} {
		if v == "" {
			return fmt.Errorf("--versions %q: a range needs both ends, e.g. 2.5.10..2.6.4 (for every release from one on, name the last one too; `regress cluster versions` lists them)", item)
		}
		if err := version.Validate(v); err != nil {
			return fmt.Errorf("--versions %q: %w", item, err)
		}
	}
	if version.Compare(version.Release(from), version.Release(to)) > 0 {
		return fmt.Errorf("--versions %q runs backwards: write the older release first (%s..%s)", item, version.Release(to), version.Release(from))
	}
	return nil
}

func expandRange(from, to, item string, releases map[string]bool) ([]string, error) {
	if err := checkRange(from, to, item); err != nil {
		return nil, err
	}
	if len(releases) == 0 {
		return nil, fmt.Errorf("--versions %q: %w to resolve the range against (no Maven to list them and none cached; see `regress cluster versions`): list the releases instead, e.g. 2.6.0,2.6.1,2.6.2", item, ErrNoVersions)
	}
	from, to = version.Release(from), version.Release(to)
	for _, end := range []string{from, to} {
		if !releases[end] {
			return nil, fmt.Errorf("--versions %q: %s is not among the %d versions `regress cluster versions` knows; check the spelling (known near it: %s)",
				item, end, len(releases), strings.Join(nearest(end, releases, 4), ", "))
		}
	}
	var out []string
	for r := range releases {
		if version.Compare(r, from) < 0 || version.Compare(r, to) > 0 {
			continue
		}
		if version.PreRelease(r) && r != from && r != to {
			continue
		}
		out = append(out, r)
	}
	return version.Sort(out), nil
}

// nearest lists up to n known releases closest to v in release order.
func nearest(v string, releases map[string]bool, n int) []string {
	all := make([]string, 0, len(releases))
	for r := range releases {
		all = append(all, r)
	}
	all = version.Sort(all)
	at := 0
	for at < len(all) && version.Compare(all[at], v) < 0 {
		at++
	}
	lo := max(0, at-n/2)
	hi := min(len(all), lo+n)
	lo = max(0, hi-n)
	return all[lo:hi]
}
