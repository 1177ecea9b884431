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
)

// CacheDirEnv names the environment variable that overrides the artifact cache root.
const CacheDirEnv = "REGRESS_CACHE_DIR"

// classpathFile marks a complete cache entry: it is written last and lists the jars.
const classpathFile = "classpath.txt"

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
// first: a plain version prefers its -hadoop3 build, which is the one made for
// the Hadoop line that runs on JDK 17.
func candidates(version string) []string {
	if strings.Contains(version, "-hadoop") {
		return []string{version}
	}
	if maj, _, ok := hbaseLine(version); ok && maj == 2 {
		return []string{version + "-hadoop3", version}
	}
	return []string{version}
}

// lookup returns the cached jars for version without touching Maven.
func (c *artifactCache) lookup(version string) (resolved string, jars []string, ok bool) {
	for _, v := range candidates(version) {
		if jars, err := c.readEntry(v); err == nil {
			return v, jars, true
		}
	}
	return "", nil, false
}

// readEntry reads the classpath of a complete entry and checks its jars exist.
func (c *artifactCache) readEntry(v string) ([]string, error) {
	dir := filepath.Join(c.root, v)
	f, err := os.Open(filepath.Join(dir, classpathFile))
	if err != nil {
		return nil, err
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
			return nil, fmt.Errorf("cache entry %s is incomplete: %w", dir, err)
		}
		jars = append(jars, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(jars) == 0 {
		return nil, fmt.Errorf("cache entry %s lists no jars", dir)
	}
	return jars, nil
}

// cached lists the versions with a complete cache entry.
func (c *artifactCache) cached() []string {
	ents, _ := os.ReadDir(c.root)
	var out []string
	for _, e := range ents {
		if e.IsDir() && ValidateVersion(e.Name()) == nil {
			if _, err := c.readEntry(e.Name()); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	return SortVersions(out)
}

// resolve returns the jars for version, running Maven only when no complete
// cache entry exists. A file lock keeps concurrent test binaries from running
// Maven at the same time.
func (c *artifactCache) resolve(ctx context.Context, version string, mvn func() (*maven, error)) (string, []string, error) {
	if v, jars, ok := c.lookup(version); ok {
		return v, jars, nil
	}
	if err := os.MkdirAll(c.root, 0o755); err != nil {
		return "", nil, fmt.Errorf("creating cache dir %s (set --cache-dir or %s): %w", c.root, CacheDirEnv, err)
	}
	// One lock for the whole cache, not one per version: concurrent mvn runs
	// writing the same artifacts into ~/.m2 are not safe.
	unlock, err := lockFile(ctx, filepath.Join(c.root, ".resolve.lock"))
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	if v, jars, ok := c.lookup(version); ok { // another process finished it meanwhile
		return v, jars, nil
	}
	m, err := mvn()
	if err != nil {
		return "", nil, err
	}
	var notFound error
	for _, v := range candidates(version) {
		start := time.Now()
		c.log.Info("resolving HBase jars with mvn", "version", v, "cache", filepath.Join(c.root, v))
		err := c.fill(ctx, m, v)
		if err == nil {
			jars, err := c.readEntry(v)
			if err != nil {
				return "", nil, err
			}
			c.log.Info("resolved HBase jars", "version", v, "jars", len(jars), "took", time.Since(start).Round(time.Millisecond))
			return v, jars, nil
		}
		if !errors.Is(err, ErrVersionNotFound) {
			return "", nil, err
		}
		c.log.Info("not published", "version", v)
		if notFound == nil {
			notFound = err
		}
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
	return "", nil, nf
}

// fill resolves one artifact version into a temp dir and renames it into place.
func (c *artifactCache) fill(ctx context.Context, m *maven, v string) error {
	tmp, err := os.MkdirTemp(c.root, ".resolve-"+v+"-")
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
	dst := filepath.Join(c.root, v)
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
