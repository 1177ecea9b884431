package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// findJava returns the java executable: $JAVA_HOME/bin/java when JAVA_HOME is
// set (so users pick the JDK that way), else the first java on PATH.
func findJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		return "", fmt.Errorf("%w: JAVA_HOME=%s has no bin/java: point JAVA_HOME at a JDK 17 install or unset it to use java from PATH", ErrJavaMissing, home)
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("%w on PATH: install a JDK 17 (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME", ErrJavaMissing)
	}
	return p, nil
}

// findMaven returns the mvn executable on PATH.
func findMaven() (string, error) {
	p, err := exec.LookPath("mvn")
	if err != nil {
		return "", fmt.Errorf("%w on PATH: it resolves the HBase jars from Maven Central; install Maven (e.g. apt-get install maven) or use a version already in the cache", ErrMavenMissing)
	}
	return p, nil
}

// javaVersionRE finds the quoted version in `java -version` output, e.g.
// openjdk version "17.0.15" 2025-04-15 or java version "1.8.0_392".
var javaVersionRE = regexp.MustCompile(`version "([^"]+)"`)

// parseJavaMajor extracts the feature release (8, 11, 17, ...) from `java -version` output.
func parseJavaMajor(out string) (int, error) {
	m := javaVersionRE.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("cannot find a version in `java -version` output %q", firstLine(out))
	}
	v := m[1]
	if strings.HasPrefix(v, "1.") { // 1.8.0_392 means JDK 8
		v = v[2:]
	}
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		v = v[:end]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("cannot parse java version %q: %w", m[1], err)
	}
	return n, nil
}

// javaMajor runs `java -version` and returns the JDK's feature release.
func javaMajor(ctx context.Context, java string) (int, error) {
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("running %s -version: %w: %s", java, err, firstLine(string(out)))
	}
	return parseJavaMajor(string(out))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
