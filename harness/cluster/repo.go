package cluster

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// CheckRepo refuses repository URLs Maven cannot use: http(s) or file, absolute.
func CheckRepo(repo string) error {
	u, err := url.Parse(repo)
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("repository %q: give a URL such as https://repository.apache.org/content/repositories/orgapachehbase-1234/ or file:///path/to/repo", repo)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return fmt.Errorf("repository %q names no host", repo)
		}
	case "file":
		if u.Path == "" || !filepath.IsAbs(u.Path) {
			return fmt.Errorf("repository %q: a file URL needs an absolute path, e.g. file:///srv/staging", repo)
		}
		// Checked here, before any JVM starts: Maven would only say the
		// artifact is missing, after a start.
		if fi, err := os.Stat(u.Path); err != nil || !fi.IsDir() {
			return fmt.Errorf("repository %q: %s is not a directory: give the folder of a Maven repository (file:///path/to/repo)", repo, u.Path)
		}
	default:
		return fmt.Errorf("repository %q: scheme %q is not one Maven resolves from here; use https://, http:// or file://", repo, u.Scheme)
	}
	return nil
}

// repoDir is the cache directory of one repository: repo-<12 hex of its URL's SHA-256>.
func repoDir(repo string) string {
	sum := sha256.Sum256([]byte(strings.TrimRight(repo, "/")))
	return "repo-" + hex.EncodeToString(sum[:])[:12]
}

// repoKeys asks repo which artifact versions of version it serves and the
// SHA-1 of each one's hbase-server jar, and names their cache entries
// repo-<url hash>/<version>-<jar sha1 prefix>.
func repoKeys(ctx context.Context, repo, version string, plain bool) ([]entryKey, error) {
	if err := CheckRepo(repo); err != nil {
		return nil, err
	}
	var keys []entryKey
	var errs []string
	for _, v := range candidates(version, plain) {
		sum, err := repoJarSHA1(ctx, repo, v)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		keys = append(keys, entryKey{version: v, sha1: sum, dir: filepath.Join(repoDir(repo), v+"-"+sum[:12])})
	}
	if len(keys) == 0 {
		return nil, &VersionNotFoundError{Version: version, Repo: repo, Detail: strings.Join(errs, "; ")}
	}
	return keys, nil
}

// repoJarSHA1 returns the SHA-1 of org.apache.hbase:hbase-server:v's jar in
// repo: computed for a file repository, read from the .sha1 Maven deploys
// beside it for a remote one.
func repoJarSHA1(ctx context.Context, repo, v string) (string, error) {
	rel := "org/apache/hbase/hbase-server/" + v + "/hbase-server-" + v + ".jar"
	u, _ := url.Parse(repo)
	if u.Scheme == "file" {
		p := filepath.Join(u.Path, filepath.FromSlash(rel))
		sum, err := fileSHA1(p)
		if err != nil {
			return "", fmt.Errorf("%s: %w", p, err)
		}
		return sum, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	target := strings.TrimRight(repo, "/") + "/" + rel + ".sha1"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("fetching %s: %w", target, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: HTTP %s", target, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 256))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", target, err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 || len(f[0]) != 40 {
		return "", fmt.Errorf("%s does not hold a SHA-1", target)
	}
	return strings.ToLower(f[0]), nil
}

func fileSHA1(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha1.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// isHBaseJar says whether a jar file name is one of HBase's own (hbase-*.jar,
// not hbase-thirdparty's shaded libraries, which have their own releases).
func isHBaseJar(name string) bool {
	return strings.HasPrefix(name, "hbase-") && strings.HasSuffix(name, ".jar") &&
		!strings.HasPrefix(name, "hbase-shaded-") && !strings.HasPrefix(name, "hbase-unsafe-") &&
		!strings.HasPrefix(name, "hbase-noop-htrace-")
}

// hbaseChecksums returns the SHA-256 of every HBase jar directly in dir.
func hbaseChecksums(dir string) (map[string]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading jars in %s: %w", dir, err)
	}
	sums := map[string]string{}
	for _, e := range ents {
		if e.IsDir() || !isHBaseJar(e.Name()) {
			continue
		}
		s, err := fileSHA256(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("checksum of %s: %w", e.Name(), err)
		}
		sums[e.Name()] = s
	}
	return sums, nil
}

// JarsDigest condenses jar checksums into one hex SHA-256, so two sets of
// jars compare (and name store targets) with one string.
func JarsDigest(sums map[string]string) string {
	if len(sums) == 0 {
		return ""
	}
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s  %s\n", sums[n], n)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeChecksums writes sums as sha256sum does: "<hex>  <name>" per line.
func writeChecksums(path string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func readChecksums(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if ok {
			sums[name] = sum
		}
	}
	return sums, sc.Err()
}
