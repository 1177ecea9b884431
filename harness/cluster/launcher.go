package cluster

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/regress-hbase/regress/harness/javabuild"
	"github.com/regress-hbase/regress/harness/version"
)

// HBase 0.98 does not start on JDK 9 and later as it is: its ClassSize
// refuses a java.version that is not of the 1.x.y form ("Unexpected version
// format: 11.0.13") before the master has started, and the JVM sets
// java.version after the command line's -D options. Its servers therefore
// run through a small launcher of regress's (launcher/LegacyJavaVersion.java)
// that sets java.version to "1.8.0" and then calls the real main class.

//go:embed launcher/*.java
var launcherSources embed.FS

// classLegacyJavaVersion is the launcher's main class; its first argument is
// the server's own main class.
const classLegacyJavaVersion = "regress.launch.LegacyJavaVersion"

// needsVersionLauncher says whether an HBase version's servers must start
// through the launcher on a JDK of feature release jdk: 0.x on JDK 9 and later.
func needsVersionLauncher(v string, jdk int) bool {
	maj, _, ok := version.Line(v)
	return ok && maj == 0 && jdk >= 9
}

// versionLauncher returns the class directory holding the launcher,
// compiled once per source digest (for Java 8) into dir, the user cache's
// regress/launcher when empty, with the first javac among javaHomes,
// $JAVA_HOME and PATH.
func versionLauncher(ctx context.Context, dir string, javaHomes ...string) (string, error) {
	ents, err := launcherSources.ReadDir("launcher")
	if err != nil {
		return "", err
	}
	srcs := javabuild.Sources{}
	for _, e := range ents {
		b, err := launcherSources.ReadFile("launcher/" + e.Name())
		if err != nil {
			return "", err
		}
		srcs[filepath.Join("regress", "launch", e.Name())] = b
	}
	dir = javabuild.CacheDir(dir, "launcher")
	if fi, err := os.Stat(filepath.Join(dir, srcs.Digest(), "classes")); err == nil && fi.IsDir() {
		return filepath.Join(dir, srcs.Digest(), "classes"), nil
	}
	javac, _, err := javabuild.FindJavac(javaHomes...)
	if err != nil {
		return "", fmt.Errorf("%w: HBase 0.98 runs on JDK 9 and later only through regress's launcher, which javac compiles once: install a JDK 17 (apt-get install openjdk-17-jdk-headless) or point JAVA_HOME at a JDK with javac", err)
	}
	classes, err := javabuild.Compile(ctx, javac, "8", srcs, dir)
	if err != nil {
		return "", fmt.Errorf("regress's launcher for HBase 0.98 on JDK 9 and later: %w", err)
	}
	return classes, nil
}

// mainArgs is the main class and arguments a JVM of ln runs for main with
// args: the launcher's, naming main first, when ln needs it.
func (ln launch) mainArgs(main string, args ...string) (string, []string) {
	if !ln.versionLauncher {
		return main, args
	}
	return classLegacyJavaVersion, append([]string{main}, args...)
}
