package cluster

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

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
	v = strings.TrimPrefix(v, "1.") // 1.8.0_392 means JDK 8
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

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
