// Package javabuild compiles regress's own small Java programs (the region
// server agent, the JFR-over-JMX recorder, the launcher that starts HBase 0.98
// on JDK 9+) with this machine's JDK, once per source digest, into a cache
// directory that later runs reuse.
package javabuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrNoJavac means no javac was found under the JDK homes given, $JAVA_HOME
// or PATH.
var ErrNoJavac = errors.New("no javac (a JDK's bin/javac: JAVA_HOME or PATH)")

// FindJavac returns the first javac among homes' bin, $JAVA_HOME's and
// PATH's (its symlinks resolved), and the JDK home that holds it.
func FindJavac(homes ...string) (javac, home string, err error) {
	for _, h := range append(slices.Clone(homes), os.Getenv("JAVA_HOME")) {
		if h == "" {
			continue
		}
		p := filepath.Join(h, "bin", "javac")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, h, nil
		}
	}
	p, err := exec.LookPath("javac")
	if err != nil {
		return "", "", ErrNoJavac
	}
	if resolved, err := filepath.EvalSymlinks(p); err == nil {
		p = resolved
	}
	return p, filepath.Dir(filepath.Dir(p)), nil
}

// Sources is a Java program's source files, by path under the source root
// (regress/agent/RequestThreads.java).
type Sources map[string][]byte

// Digest names the sources by content: 16 hex digits of a SHA-256 over
// their paths and texts in path order.
func (s Sources) Digest() string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(s)) {
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(p), len(s[p]))
		h.Write(s[p])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// CacheDir is dir, or the user cache's regress/<name> when dir is empty.
func CacheDir(dir, name string) string {
	if dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "regress", name)
}

// Compile compiles srcs with javac for the Java release given (--release)
// into dir/<digest>/classes and returns that directory. One already there
// is returned as it is, without javac: it was renamed into place whole, so
// a concurrent or interrupted compile never leaves half of one.
func Compile(ctx context.Context, javac, release string, srcs Sources, dir string) (string, error) {
	classes := filepath.Join(dir, srcs.Digest(), "classes")
	if fi, err := os.Stat(classes); err == nil && fi.IsDir() {
		return classes, nil
	}
	if len(srcs) == 0 {
		return "", errors.New("javabuild: no sources to compile")
	}
	work, err := os.MkdirTemp("", "regress-javac-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	var args []string
	for _, name := range slices.Sorted(maps.Keys(srcs)) {
		p := filepath.Join(work, "src", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, srcs[name], 0o644); err != nil {
			return "", err
		}
		args = append(args, p)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	out := filepath.Join(work, "classes")
	cmd := exec.CommandContext(ctx, javac, append([]string{"--release", release, "-nowarn", "-Xlint:-options", "-d", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("compiling with %s: %v: %s", javac, err, strings.TrimSpace(string(b)))
	}
	if err := os.MkdirAll(filepath.Dir(classes), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(out, classes); err != nil {
		// Another compile of the same sources got there first.
		if fi, serr := os.Stat(classes); serr == nil && fi.IsDir() {
			return classes, nil
		}
		return "", err
	}
	return classes, nil
}
