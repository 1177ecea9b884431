package cluster

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/regress-hbase/regress/harness/version"
)

// Home starts standalone HBase from an HBase home: an unpacked binary release
// (hbase-X-bin.tar.gz, as RC voters get it) or the .tar.gz itself, unpacked
// once into the cache. It starts HMaster the way the home's bin/hbase does
// (classpath: conf, lib/*.jar, lib/client-facing-thirdparty/*.jar), with this
// harness's conf dir, heap and JVM options instead of the home's conf/ and
// hbase-env.sh, on loopback with free ports, with the local provider's
// readiness checks, cleanup and process watch.
type Home struct {
	// Path is the home directory or its .tar.gz.
	Path string
	// Local supplies readiness checks, stop grace, logger and cache dir.
	Local *Local
}

// NewHome returns a provider for the home at path (tarballs unpack under cacheDir, "" for the default).
func NewHome(path, cacheDir string) *Home { return &Home{Path: path, Local: NewLocal(cacheDir)} }

// Name identifies the provider.
func (h *Home) Name() string { return "home" }

// ErrBadHome marks a path that is not an HBase binary home or tarball.
var ErrBadHome = errors.New("not an HBase home")

// Start unpacks the tarball if needed, reads the version from the home's jars
// and starts it. A Spec.Version, when given, must match the jars.
func (h *Home) Start(ctx context.Context, s Spec) (Cluster, error) {
	if err := checkConf(s.Conf); err != nil {
		return nil, err
	}
	if err := checkTopology(s); err != nil {
		return nil, err
	}
	dir, err := h.dir(ctx, s)
	if err != nil {
		return nil, err
	}
	version, err := HomeVersion(dir)
	if err != nil {
		return nil, err
	}
	if s.Version != "" && s.Version != version && s.Version+"-hadoop3" != version && s.Version+"-hadoop2" != version {
		return nil, fmt.Errorf("%w: %s holds HBase %s (read from its jars), not %s: drop the version or name the right home", ErrBadHome, h.Path, version, s.Version)
	}
	jdk, err := FindJDK(ctx, version, s.JavaHome, h.Local.logger())
	if err != nil {
		return nil, err
	}
	jars, err := homeClasspath(dir, jdk.Major)
	if err != nil {
		return nil, err
	}
	sums, err := hbaseChecksums(filepath.Join(dir, "lib"))
	if err != nil {
		return nil, err
	}
	return h.Local.launch(ctx, s, launch{version: version, jdk: jdk, jars: jars,
		info: Info{Provider: "home", Home: h.Path, Checksums: sums}})
}

// dir returns the home directory, unpacking a tarball into the cache first.
func (h *Home) dir(ctx context.Context, s Spec) (string, error) {
	p, err := filepath.Abs(h.Path)
	if err != nil {
		return "", fmt.Errorf("HBase home %s: %w", h.Path, err)
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrBadHome, h.Path, err)
	}
	if st.IsDir() {
		return p, nil
	}
	if !strings.HasSuffix(p, ".tar.gz") && !strings.HasSuffix(p, ".tgz") {
		return "", fmt.Errorf("%w: %s is a file but not a .tar.gz: give the unpacked release directory or its hbase-X-bin.tar.gz", ErrBadHome, h.Path)
	}
	cache, err := h.Local.cacheFor(s)
	if err != nil {
		return "", err
	}
	return unpackHome(ctx, p, filepath.Join(cache.root, "homes"))
}

// unpackHome unpacks tarball into root/<sha256 prefix>/ once (temp dir, then
// rename) and returns the release directory inside it.
func unpackHome(ctx context.Context, tarball, root string) (string, error) {
	sum, err := fileSHA256(tarball)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", tarball, err)
	}
	dst := filepath.Join(root, sum[:16])
	if _, err := os.Stat(filepath.Join(dst, ".complete")); err != nil {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return "", fmt.Errorf("creating %s: %w", root, err)
		}
		tmp, err := os.MkdirTemp(root, ".unpack-")
		if err != nil {
			return "", fmt.Errorf("creating a temp dir in %s: %w", root, err)
		}
		defer os.RemoveAll(tmp)
		if err := untar(ctx, tarball, tmp); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(tmp, ".complete"), []byte(sum+"\n"), 0o644); err != nil {
			return "", err
		}
		os.RemoveAll(dst)
		if err := os.Rename(tmp, dst); err != nil {
			return "", fmt.Errorf("moving the unpacked %s into %s: %w", tarball, dst, err)
		}
	}
	// A release tarball holds one top directory, hbase-X/.
	ents, err := os.ReadDir(dst)
	if err != nil {
		return "", err
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "lib")); err == nil {
		return dst, nil
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("%w: %s holds %d top directories (%v), want one hbase-X/ with lib/ inside", ErrBadHome, tarball, len(dirs), dirs)
	}
	return filepath.Join(dst, dirs[0]), nil
}

// untar unpacks a .tar.gz into dir, refusing entries that leave it.
func untar(ctx context.Context, tarball, dir string) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%w: %s is not gzip: %v", ErrBadHome, tarball, err)
	}
	tr := tar.NewReader(gz)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: reading %s: %v", ErrBadHome, tarball, err)
		}
		name := filepath.Clean(hdr.Name)
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%w: %s has an entry outside its directory: %q", ErrBadHome, tarball, hdr.Name)
		}
		target := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(hdr.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, cerr := io.Copy(out, tr)
			if err := out.Close(); cerr == nil {
				cerr = err
			}
			if cerr != nil {
				return fmt.Errorf("unpacking %s: %w", hdr.Name, cerr)
			}
		case tar.TypeSymlink:
			// bin/ and docs symlinks are not needed to start the jars.
		}
	}
}

// pomVersionRE finds version= in a jar's META-INF/maven/.../pom.properties.
var pomVersionRE = regexp.MustCompile(`(?m)^version=(\S+)\s*$`)

// HomeVersion reads the HBase version of a home from its hbase-common (else
// hbase-server) jar: the pom.properties Maven puts inside, else the jar's name.
// The directory's name is never trusted.
func HomeVersion(dir string) (string, error) {
	lib := filepath.Join(dir, "lib")
	for _, art := range []string{"hbase-common", "hbase-server"} {
		jars, _ := filepath.Glob(filepath.Join(lib, art+"-*.jar"))
		sort.Strings(jars)
		for _, j := range jars {
			base := filepath.Base(j)
			if strings.Contains(base, "-tests") || strings.Contains(base, "-sources") {
				continue
			}
			if v, err := jarPomVersion(j, art); err == nil && version.Validate(v) == nil {
				return v, nil
			}
			v := strings.TrimSuffix(strings.TrimPrefix(base, art+"-"), ".jar")
			if version.Validate(v) == nil {
				return v, nil
			}
		}
	}
	if _, err := os.Stat(lib); err != nil {
		return "", fmt.Errorf("%w: %s has no lib/: give an unpacked HBase binary release (hbase-X-bin.tar.gz), not a source release", ErrBadHome, dir)
	}
	return "", fmt.Errorf("%w: %s/lib holds no hbase-common or hbase-server jar to read the version from", ErrBadHome, dir)
}

// jarPomVersion reads version= from META-INF/maven/org.apache.hbase/<artifact>/pom.properties in jar.
func jarPomVersion(jar, artifact string) (string, error) {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return "", err
	}
	defer zr.Close()
	f, err := zr.Open("META-INF/maven/org.apache.hbase/" + artifact + "/pom.properties")
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return "", err
	}
	m := pomVersionRE.FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("%s: pom.properties names no version", jar)
	}
	return string(m[1]), nil
}

// homeClasspath lists a home's jars in bin/hbase's order: lib/*.jar, then
// lib/jdk11/*.jar on JDK 11+ (2.5+ ship it), then lib/client-facing-thirdparty/*.jar.
func homeClasspath(dir string, jdk int) ([]string, error) {
	var jars []string
	add := func(sub string) {
		js, _ := filepath.Glob(filepath.Join(dir, sub, "*.jar"))
		sort.Strings(js)
		jars = append(jars, js...)
	}
	add("lib")
	if len(jars) == 0 {
		return nil, fmt.Errorf("%w: %s/lib holds no jars", ErrBadHome, dir)
	}
	if jdk >= 11 {
		add(filepath.Join("lib", "jdk11"))
	}
	add(filepath.Join("lib", "client-facing-thirdparty"))
	return jars, nil
}
