package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/version"
)

// What `regress cluster versions` knows of a version without asking Maven.
const (
	statusCached    = "cached"
	statusNotServed = "not served"
)

// versionsFile remembers, per version, what a resolution found: cached, or
// not served (listed by the metadata but its jars unreachable from here).
const versionsFile = "versions.json"

// notServedFor is how long a remembered "not served" stands: a repository
// may come to serve a release (a mirror catching up), so after it the
// version is "not checked" again and a resolution asks Maven afresh.
const notServedFor = 7 * 24 * time.Hour

// versionStatus is one remembered answer.
type versionStatus struct {
	Status  string    `json:"status"`
	Checked time.Time `json:"checked"`
}

// remember records what resolving version found; repositories other than
// Maven's own are not remembered (their content is keyed by checksum).
func (c *artifactCache) remember(version, repo, status string) {
	if repo != "" {
		return
	}
	m := c.remembered()
	m[version] = versionStatus{Status: status, Checked: time.Now().UTC()}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if err := atomicfile.WriteFile(filepath.Join(c.root, versionsFile), b, 0o644); err != nil {
		c.log.Debug("cannot remember version status", "err", err)
	}
}

// remembered reads the remembered statuses (empty when none).
func (c *artifactCache) remembered() map[string]versionStatus {
	m := map[string]versionStatus{}
	if b, err := os.ReadFile(filepath.Join(c.root, versionsFile)); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// VersionStatus is what `regress cluster versions` says of one version.
type VersionStatus struct {
	Version string
	// State is "cached", "resolvable" (its jars were fetched here before),
	// "not served" (listed, but its jars are not reachable from here) or
	// "not checked".
	State string
	// Checked is when State was last established by a resolution or a check.
	Checked time.Time
	// JDK is the JDK it would run on here; empty when none fits.
	JDK string
	// NeedsJDK says which JDKs it needs ("JDK 8 or 11") when none is here.
	NeedsJDK string
}

// VersionStatuses marks every cached or published version: cached, served
// or not (as remembered from earlier resolutions and checks) and the JDK it
// would run on. With check, versions not yet known are probed with one
// `mvn dependency:get` of their hbase-server jar each (only those matching a
// prefix in lines, when given) and the answers remembered. err reports a
// failed Maven listing; the cached versions are marked regardless.
func (l *Local) VersionStatuses(ctx context.Context, cacheDir string, check bool, lines []string) ([]VersionStatus, error) {
	c, err := l.cacheFor(Spec{CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	cached, published, lerr := l.Versions(ctx, cacheDir)
	isCached := map[string]bool{}
	for _, v := range cached {
		isCached[v] = true
	}
	known := c.remembered()
	all := append(append([]string(nil), cached...), published...)
	for v := range known { // what was learned here, even when Maven cannot be asked now
		all = append(all, v)
	}
	var out []VersionStatus
	for _, v := range version.Sort(all) {
		st := VersionStatus{Version: v, State: "not checked"}
		if r, ok := known[v]; ok && !(r.Status == statusNotServed && time.Since(r.Checked) > notServedFor) {
			st.State, st.Checked = r.Status, r.Checked
			if r.Status == statusCached {
				st.State = "resolvable"
			}
		}
		if isCached[v] {
			st.State = statusCached
		}
		if check && st.State == "not checked" && matchesLine(v, lines) {
			st.State, st.Checked = l.probeServed(ctx, c, v), time.Now().UTC()
			isCached[v] = st.State == statusCached
		}
		if j, err := FindJDK(ctx, v, "", discardLog); err == nil {
			st.JDK = "JDK " + j.Version
		} else {
			st.NeedsJDK = jdkNeeds(v)
		}
		out = append(out, st)
	}
	return out, lerr
}

func matchesLine(v string, lines []string) bool {
	if len(lines) == 0 {
		return true
	}
	for _, p := range lines {
		p = strings.TrimSuffix(p, ".")
		if v == p || strings.HasPrefix(v, p+".") || strings.HasPrefix(v, p+"-") {
			return true
		}
	}
	return false
}

// probeServed resolves version's whole runtime tree into the cache (what a
// start would do) and says whether it came: a jar alone proves little, since
// a listed release may be served while a dependency of it is not.
func (l *Local) probeServed(ctx context.Context, c *artifactCache, v string) string {
	l.logger().Info("checking whether Maven serves the jars", "version", v)
	_, err := c.resolveKeys(ctx, v, "", []entryKey{{version: v, dir: v}}, l.maven)
	switch {
	case err == nil:
		return statusCached
	case ctx.Err() != nil:
		return "not checked"
	case errors.Is(err, ErrVersionNotFound):
		return statusNotServed
	case errors.Is(err, errDependencyNotServed):
		// Reachable metadata, a jar of its tree not served; resolveKeys
		// remembered it.
		l.logger().Info("not served", "version", v, "err", err)
		return statusNotServed
	}
	// Maven or the network failed: nothing is known of the release.
	l.logger().Warn("could not check whether Maven serves the jars", "version", v, "err", err)
	return "not checked"
}

// discardLog drops FindJDK's warnings while listing many versions.
var discardLog = slog.New(slog.NewTextHandler(io.Discard, nil))
