package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/regress-hbase/regress/harness/version"
)

// CacheDirEnv names the environment variable that overrides the artifact cache root.
const CacheDirEnv = "REGRESS_CACHE_DIR"

// classpathFile marks a complete cache entry: it is written last and lists the jars.
const classpathFile = "classpath.txt"

// checksumsFile lists "sha256  jar" for each HBase jar of an entry.
const checksumsFile = "checksums.txt"

// DefaultCacheDir returns the artifact cache root: $REGRESS_CACHE_DIR, else
// <user cache dir>/regress/hbase.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache directory (set %s): %w", CacheDirEnv, err)
	}
	return filepath.Join(base, "regress", "hbase"), nil
}

// artifactCache holds one directory of jars per resolved HBase version.
type artifactCache struct {
	root string
	log  *slog.Logger
}

// candidates lists the artifact versions to try for a requested one, best
// first: a plain 2.x version prefers its -hadoop3 build, which is the one
// made for the Hadoop line that runs on JDK 11 and 17, unless plain asks for
// the plain build (Spec.Plain: the other side of a run has no -hadoop3
// build). A 0.x version (0.98.0) names its -hadoop2 build: 0.98 was published
// only as -hadoop1 and -hadoop2.
func candidates(v string, plain bool) []string {
	if strings.Contains(v, "-hadoop") {
		return []string{v}
	}
	maj, _, ok := version.Line(v)
	switch {
	case ok && maj == 0:
		return []string{v + "-hadoop2", v}
	case plain:
		return []string{v}
	case ok && maj == 2:
		return []string{v + "-hadoop3", v}
	}
	return []string{v}
}

// readEntry reads the classpath of a complete entry, checks its jars exist
// and reads (or, for entries older than checksums.txt, computes) the HBase
// jars' checksums.
func (c *artifactCache) readEntry(k entryKey) (cacheEntry, error) {
	dir := filepath.Join(c.root, k.dir)
	f, err := os.Open(filepath.Join(dir, classpathFile))
	if err != nil {
		return cacheEntry{}, err
	}
	defer f.Close()
	var jars []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if name == "" {
			continue
		}
		p := filepath.Join(dir, "lib", name)
		if _, err := os.Stat(p); err != nil {
			return cacheEntry{}, fmt.Errorf("cache entry %s is incomplete: %w", dir, err)
		}
		jars = append(jars, p)
	}
	if err := sc.Err(); err != nil {
		return cacheEntry{}, err
	}
	if len(jars) == 0 {
		return cacheEntry{}, fmt.Errorf("cache entry %s lists no jars", dir)
	}
	sums, err := readChecksums(filepath.Join(dir, checksumsFile))
	if err != nil {
		if sums, err = hbaseChecksums(filepath.Join(dir, "lib")); err != nil {
			return cacheEntry{}, err
		}
	}
	return cacheEntry{version: k.version, jars: jars, checksums: sums}, nil
}

// cached lists the versions with a complete cache entry.
func (c *artifactCache) cached() []string {
	ents, _ := os.ReadDir(c.root)
	var out []string
	for _, e := range ents {
		if e.IsDir() && version.Validate(e.Name()) == nil {
			if _, err := c.readEntry(entryKey{version: e.Name(), dir: e.Name()}); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	return version.Sort(out)
}

// cacheEntry is one complete cache entry: the artifact version resolved,
// its jars in classpath order and the SHA-256 of each HBase jar.
type cacheEntry struct {
	version   string
	jars      []string
	checksums map[string]string
}

// resolve returns the jars for version from Maven's own repositories (see resolveEntry).
func (c *artifactCache) resolve(ctx context.Context, version string, mvn func() (*maven, error)) (string, []string, error) {
	e, err := c.resolveEntry(ctx, version, "", false, mvn)
	return e.version, e.jars, err
}

// resolveEntry returns the jars for version, running Maven only when no
// complete cache entry exists. With repo, the entry is keyed by the repository
// and the checksum of the hbase-server jar it serves now, so two repositories
// (RC0 and RC1 of one version) or a repository whose jars changed never share
// an entry; Maven then runs with a local repository of that repository's own,
// so its jars never reach ~/.m2 where they would pass for the release. A file
// lock keeps concurrent test binaries from running Maven at the same time.
func (c *artifactCache) resolveEntry(ctx context.Context, version, repo string, plain bool, mvn func() (*maven, error)) (cacheEntry, error) {
	var keys []entryKey
	if repo != "" {
		var err error
		if keys, err = repoKeys(ctx, repo, version, plain); err != nil {
			return cacheEntry{}, err
		}
	} else {
		keys = plainKeys(version, plain)
	}
	return c.resolveKeys(ctx, version, repo, keys, mvn)
}

// resolveKeys returns the first of keys' entries that is cached or that Maven resolves.
func (c *artifactCache) resolveKeys(ctx context.Context, version, repo string, keys []entryKey, mvn func() (*maven, error)) (cacheEntry, error) {
	if e, ok := c.lookupKeys(keys); ok {
		return e, nil
	}
	if err := os.MkdirAll(c.root, 0o755); err != nil {
		return cacheEntry{}, fmt.Errorf("creating cache dir %s (set --cache-dir or %s): %w", c.root, CacheDirEnv, err)
	}
	// One lock for the whole cache, not one per version: concurrent mvn runs
	// writing the same artifacts into ~/.m2 are not safe.
	unlock, err := lockFile(ctx, filepath.Join(c.root, ".resolve.lock"))
	if err != nil {
		return cacheEntry{}, err
	}
	defer unlock()
	if e, ok := c.lookupKeys(keys); ok { // another process finished it meanwhile
		return e, nil
	}
	m, err := mvn()
	if err != nil {
		return cacheEntry{}, err
	}
	if repo != "" {
		m2 := filepath.Join(c.root, repoDir(repo), "m2")
		// HBase's artifacts are fetched from the repository afresh each time
		// (its jars may have changed under the same URL); the rest of the tree
		// stays cached in the repository's local repo.
		if err := os.RemoveAll(filepath.Join(m2, "org", "apache", "hbase")); err != nil {
			return cacheEntry{}, fmt.Errorf("clearing HBase artifacts from %s: %w", m2, err)
		}
		m = m.withRepo(repo, m2)
	}
	var notFound error
	for _, k := range keys {
		start := time.Now()
		c.log.Info("resolving HBase jars with mvn", "version", k.version, "repository", repo, "cache", filepath.Join(c.root, k.dir))
		err := c.fill(ctx, m, k)
		if err == nil {
			e, err := c.readEntry(k)
			if err != nil {
				return cacheEntry{}, err
			}
			c.log.Info("resolved HBase jars", "version", k.version, "jars", len(e.jars), "took", time.Since(start).Round(time.Millisecond))
			c.remember(k.version, repo, statusCached)
			return e, nil
		}
		if !errors.Is(err, ErrVersionNotFound) {
			if repo == "" && ctx.Err() == nil && errors.Is(err, errDependencyNotServed) {
				// Listed, yet its tree did not come (2.6.5 here: the jars of
				// hbase-common and hbase-thirdparty are not served). Only
				// Maven's definite answer is remembered: a failed download
				// (the network, a proxy, Maven itself) says nothing of the
				// release, and remembered it would hide it for good.
				c.remember(k.version, "", statusNotServed)
			}
			return cacheEntry{}, err
		}
		c.log.Info("not published", "version", k.version)
		if repo == "" {
			c.remember(k.version, "", statusNotServed)
		}
		if notFound == nil {
			notFound = err
		}
	}
	if repo != "" {
		return cacheEntry{}, notFound
	}
	// Name the version the user asked for, and help them pick a real one.
	nf := &VersionNotFoundError{Version: version}
	lctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if published, err := m.publishedVersions(lctx); err == nil {
		nf.Nearest = nearestVersions(version, published, 6)
	} else {
		c.log.Warn("cannot list published versions", "err", err)
	}
	return cacheEntry{}, nf
}

// plainKeys are the entries of version resolved through Maven's own
// settings (plain: its plain build only).
func plainKeys(version string, plain bool) []entryKey {
	var keys []entryKey
	for _, v := range candidates(version, plain) {
		keys = append(keys, entryKey{version: v, dir: v})
	}
	return keys
}

// lookup returns the cached jars for version without touching Maven.
func (c *artifactCache) lookup(version string) (cacheEntry, bool) {
	return c.lookupKeys(plainKeys(version, false))
}

// entryKey names one cache entry: the artifact version and its directory
// under the cache root; sha1 is the repository's hbase-server jar, when the
// entry comes from a repository.
type entryKey struct {
	version, dir, sha1 string
}

func (c *artifactCache) lookupKeys(keys []entryKey) (cacheEntry, bool) {
	for _, k := range keys {
		if e, err := c.readEntry(k); err == nil {
			return e, true
		}
	}
	return cacheEntry{}, false
}

// fill resolves one artifact version into a temp dir and renames it into place.
func (c *artifactCache) fill(ctx context.Context, m *maven, k entryKey) error {
	v := k.version
	dst := filepath.Join(c.root, k.dir)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("creating cache dir %s: %w", filepath.Dir(dst), err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".resolve-"+v+"-")
	if err != nil {
		return fmt.Errorf("creating temp dir in cache %s: %w", c.root, err)
	}
	defer os.RemoveAll(tmp)
	if err := m.copyDependencies(ctx, tmp, v); err != nil {
		return err
	}
	ents, err := os.ReadDir(filepath.Join(tmp, "lib"))
	if err != nil {
		return fmt.Errorf("reading resolved jars of %s: %w", v, err)
	}
	var b strings.Builder
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".jar") {
			b.WriteString(e.Name() + "\n")
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, classpathFile), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing classpath of %s: %w", v, err)
	}
	sums, err := hbaseChecksums(filepath.Join(tmp, "lib"))
	if err != nil {
		return err
	}
	if k.sha1 != "" {
		// Maven must have used the repository's jar, not one it had already.
		got, err := fileSHA1(filepath.Join(tmp, "lib", "hbase-server-"+v+".jar"))
		if err != nil {
			return fmt.Errorf("checking the resolved hbase-server jar of %s: %w", v, err)
		}
		if got != k.sha1 {
			return fmt.Errorf("resolving HBase %s from %s: Maven resolved an hbase-server jar with SHA-1 %s, but the repository serves %s: remove %s and retry", v, m.repo, got, k.sha1, m.repoLocal)
		}
	}
	if err := writeChecksums(filepath.Join(tmp, checksumsFile), sums); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil { // an incomplete earlier attempt
		return fmt.Errorf("removing stale cache entry %s: %w", dst, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("moving resolved jars into %s: %w", dst, err)
	}
	return nil
}

// lockFile takes an exclusive flock on path, polling so ctx can cancel the wait.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening cache lock %s: %w", path, err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for another regress to finish resolving into %s: %w", path, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
