package cluster

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/javabuild"
)

// TestVersionLauncherOnlyFor098OnNewJDKs: 0.98 on JDK 9 and later starts
// through the launcher, naming the server's main class first; 0.98 on 8
// and every later line start as they are.
func TestVersionLauncherOnlyFor098OnNewJDKs(t *testing.T) {
	for _, tc := range []struct {
		version string
		jdk     int
		want    bool
	}{
		{"0.98.0-hadoop2", 11, true},
		{"0.98.24-hadoop2", 17, true},
		{"0.98.0-hadoop2", 8, false},
		{"1.7.2", 11, false},
		{"2.6.1-hadoop3", 17, false},
		{"emr", 11, false},
	} {
		if got := needsVersionLauncher(tc.version, tc.jdk); got != tc.want {
			t.Errorf("needsVersionLauncher(%s, %d) = %v, want %v", tc.version, tc.jdk, got, tc.want)
		}
	}
	main, args := launch{versionLauncher: true}.mainArgs(classHMaster, "start")
	if main != classLegacyJavaVersion || !slices.Equal(args, []string{classHMaster, "start"}) {
		t.Errorf("through the launcher: %s %q", main, args)
	}
	main, args = launch{}.mainArgs(classHRegionServer, "start")
	if main != classHRegionServer || !slices.Equal(args, []string{"start"}) {
		t.Errorf("without the launcher: %s %q", main, args)
	}
}

// TestVersionLauncherSetsJavaVersion compiles the launcher with this
// machine's JDK (no JDK fails the test) and runs a main class through it:
// the class sees java.version "1.8.0" (the form 0.98's ClassSize accepts),
// the JVM's own value in regress.java.version, and its own arguments.
func TestVersionLauncherSetsJavaVersion(t *testing.T) {
	javac, home, err := javabuild.FindJavac()
	if err != nil {
		t.Fatalf("this test needs a JDK: %v", err)
	}
	dir := t.TempDir()
	classes, err := versionLauncher(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	probe := javabuild.Sources{"Probe.java": []byte(`public class Probe {
  public static void main(String[] a) {
    System.out.println(System.getProperty("java.version") + " " + System.getProperty("regress.java.version") + " " + String.join(",", a));
  }
}
`)}
	probeClasses, err := javabuild.Compile(context.Background(), javac, "8", probe, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cp := classes + string(filepath.ListSeparator) + probeClasses
	out, err := exec.Command(filepath.Join(home, "bin", "java"), "-cp", cp, classLegacyJavaVersion, "Probe", "start", "x").CombinedOutput()
	if err != nil {
		t.Fatalf("running through the launcher: %v: %s", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) != 3 || f[0] != "1.8.0" || f[1] == "null" || strings.HasPrefix(f[1], "1.") || f[2] != "start,x" {
		t.Errorf("the class saw %q; want java.version 1.8.0, the JDK's own in regress.java.version, and its arguments start,x", out)
	}
	// Compiled once: a second call finds it without javac.
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	if again, err := versionLauncher(context.Background(), dir); err != nil || again != classes {
		t.Errorf("second call without javac: %q, %v; want the cached %q", again, err, classes)
	}
}
