package cluster

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fakeJava writes an executable `java` into dir/bin that reports JDK version v,
// so JDK checks are tested without the JDK they are about.
func fakeJava(t *testing.T, dir, v string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho 'openjdk version \"" + v + "\" 2024-01-01' >&2\n"
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// onlyTheseJDKs hides this machine's /usr/lib/jvm and REGRESS_JDK<N>_HOME from FindJDK.
func onlyTheseJDKs(t *testing.T) {
	t.Helper()
	old := jvmDir
	jvmDir = t.TempDir()
	t.Cleanup(func() { jvmDir = old })
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "REGRESS_JDK") {
			t.Setenv(k, "")
		}
	}
}

func TestStartRefusesBadVersionBeforeRunningAnything(t *testing.T) {
	// An empty PATH proves nothing was executed: java/mvn lookups would fail differently.
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	cache := t.TempDir()
	_, err := NewLocal(cache).Start(context.Background(), Spec{Version: "2.6.1/../../etc"})
	if !errors.Is(err, ErrBadVersion) {
		t.Fatalf("Start with a path in the version: err = %v, want ErrBadVersion", err)
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Fatalf("cache dir got entries %v for a refused version", ents)
	}
}

func TestStartWithoutJava(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.1"})
	if !errors.Is(err, ErrJavaMissing) || !strings.Contains(err.Error(), "JAVA_HOME") {
		t.Fatalf("err = %v, want ErrJavaMissing mentioning JAVA_HOME", err)
	}
}

func TestStartWithBrokenJavaHome(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("JAVA_HOME", t.TempDir()) // no bin/java inside
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.1"})
	if !errors.Is(err, ErrJavaMissing) || !strings.Contains(err.Error(), "JAVA_HOME=") {
		t.Fatalf("err = %v, want ErrJavaMissing naming JAVA_HOME", err)
	}
}

func TestStartWithoutMavenOnColdCache(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "17.0.9"))
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.6.1"})
	if !errors.Is(err, ErrMavenMissing) || !strings.Contains(err.Error(), "install Maven") {
		t.Fatalf("err = %v, want ErrMavenMissing saying to install Maven", err)
	}
}

func TestStartRefusesOldHBaseOnJDK17(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "17.0.9"))
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.4.18"})
	if !errors.Is(err, ErrJDKIncompatible) {
		t.Fatalf("err = %v, want ErrJDKIncompatible", err)
	}
	for _, want := range []string{"2.4.18", "JDK 8 or 11", "JDK 17", "JAVA_HOME"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestJavaHomeSelectsTheJDK(t *testing.T) {
	onlyTheseJDKs(t)
	// java on PATH is 17, JAVA_HOME is 11: 2.4 must pass the JDK check and
	// only then fail for want of mvn.
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "17.0.9"))
	home := t.TempDir()
	fakeJava(t, home, "11.0.21")
	t.Setenv("JAVA_HOME", home)
	_, err := NewLocal(t.TempDir()).Start(context.Background(), Spec{Version: "2.4.18"})
	if !errors.Is(err, ErrMavenMissing) {
		t.Fatalf("err = %v, want ErrMavenMissing (the JDK 11 from JAVA_HOME accepted)", err)
	}
}

func TestParseJavaMajor(t *testing.T) {
	cases := map[string]int{
		`openjdk version "17.0.15" 2025-04-15`:                   17,
		`java version "1.8.0_392"`:                               8,
		`openjdk version "11.0.21" 2023-10-17 LTS`:               11,
		`openjdk version "21" 2023-09-19`:                        21,
		"Picked up JAVA_TOOL_OPTIONS: x\nopenjdk version \"17\"": 17,
	}
	for out, want := range cases {
		got, err := parseJavaMajor(out)
		if err != nil || got != want {
			t.Errorf("parseJavaMajor(%q) = %d, %v; want %d", out, got, err, want)
		}
	}
	if _, err := parseJavaMajor("command not found"); err == nil {
		t.Error("parseJavaMajor of garbage succeeded")
	}
}

func TestJDKFits(t *testing.T) {
	cases := []struct {
		version string
		jdk     int
		ok      bool
	}{
		{"2.6.1-hadoop3", 17, true},
		{"2.5.11", 17, true},
		{"3.0.0-beta-1", 17, true},
		{"2.4.18", 17, false},
		{"2.4.18", 11, true},
		{"2.4.18", 8, true},
		{"1.7.2", 21, false},
		{"3.0.0", 8, false},
		{"1.7.2", 11, true},
		{"1.7.2", 8, true},
		{"0.98.24-hadoop2", 11, true}, // through regress's launcher
		{"0.98.24-hadoop2", 17, false},
		{"0.98.24-hadoop2", 8, true},
		{"2.6.1", 21, true}, // newer than known: allowed with a warning
		{"2.4.18", 21, false},
	}
	for _, c := range cases {
		if ok, _ := jdkFits(c.version, c.jdk); ok != c.ok {
			t.Errorf("jdkFits(%s, JDK %d) = %v, want %v", c.version, c.jdk, ok, c.ok)
		}
	}
}

func TestStartRefusesTakenPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	t.Setenv("PATH", t.TempDir()) // refused before java is even looked up
	_, err = NewLocal(t.TempDir()).Start(context.Background(), Spec{
		Version: "2.6.1",
		Conf:    map[string]string{"hbase.zookeeper.property.clientPort": port},
	})
	if !errors.Is(err, ErrPortInUse) || !strings.Contains(err.Error(), port) {
		t.Fatalf("err = %v, want ErrPortInUse naming port %s", err, port)
	}
}

func TestCheckConfRejectsMalformed(t *testing.T) {
	for _, conf := range []map[string]string{
		{"hbase.master.port": "abc"},
		{"hbase.master.port": "70000"},
		{"": "x"},
		{"a<b": "x"},
	} {
		if err := checkConf(conf); err == nil {
			t.Errorf("checkConf(%v) accepted malformed input", conf)
		}
	}
}

func TestIsNotFound(t *testing.T) {
	cases := []struct {
		out, version string
		want         bool
	}{
		{"[ERROR] Failed to execute goal on project hbase-standalone-runtime: Could not resolve dependencies for project regress.local:hbase-standalone-runtime:pom:1: Could not find artifact org.apache.hbase:hbase-server:jar:2.6.99-hadoop3 in central (https://repo.example/maven2) -> [Help 1]", "2.6.99-hadoop3", true},
		{"[ERROR] Failed to execute goal on project x: Could not resolve dependencies for project x: Failure to find org.apache.hbase:hbase-server:jar:2.6.99 in https://repo.example/maven2 was cached in the local repository", "2.6.99", true},
		{"\x1b[0m[ERROR] x: org.apache.hbase:hbase-server:pom:2.6.99 was not found in https://repo.example/maven2 during a previous attempt.", "2.6.99", true},
		{"[ERROR] Could not transfer artifact org.apache.hbase:hbase-server:pom:2.6.1 from/to central: Connection refused", "2.6.1", false},
		{"[ERROR] Could not find artifact org.apache.hadoop:hadoop-common:jar:3.3.5 in central", "2.6.1", false},
		{"\x1b[0m[ERROR] Failed to execute goal on project x: The following artifacts could not be resolved: org.apache.hbase:hbase-http:jar:3.0.0-beta-1: Could not find artifact org.apache.hbase:hbase-http:jar:3.0.0-beta-1 in central", "3.0.0-beta-1", false},
		{"[ERROR] Could not find artifact org.apache.hbase:hbase-server:jar:2.6.10 in central", "2.6.1", false},
		{"[ERROR] Could not find artifact org.apache.hbase:hbase-server:jar:2.6.1-hadoop3 in central", "2.6.1", false},
	}
	for _, c := range cases {
		if got := isNotFound(c.out, c.version); got != c.want {
			t.Errorf("isNotFound(%q, %s) = %v, want %v", c.out, c.version, got, c.want)
		}
	}
}

func TestMavenErrorLinesKeepsTheCause(t *testing.T) {
	out := "\x1b[0m\x1b[0m[ERROR] Failed to execute goal: Could not find artifact org.apache.hbase:hbase-http:jar:3.0.0-beta-1\n[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n"
	got := mavenErrorLines(out)
	if !strings.HasPrefix(got, "Failed to execute goal") || strings.Contains(got, "\x1b") || strings.Contains(got, "stack trace") {
		t.Fatalf("mavenErrorLines = %q, want only the cause without colour codes", got)
	}
}

func TestNearestVersionsFromMetadata(t *testing.T) {
	published, err := readMetadataVersions("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(published, "2.6.1-hadoop3") || !slices.Contains(published, "3.0.0-beta-1") {
		t.Fatalf("metadata fixture parsed to %d versions without 2.6.1-hadoop3 or 3.0.0-beta-1", len(published))
	}
	cases := []struct {
		want     string
		contains []string
		prefix   string
	}{
		{"2.6.99", []string{"2.6.6"}, "2.6."},
		{"2.6.99-hadoop3", []string{"2.6.4-hadoop3"}, "2.6."},
		{"2.5.0.1", []string{"2.5.0", "2.5.1"}, "2.5."},
		{"3.0.0-beta-9", []string{"3.0.0-beta-1"}, "3."},
		{"9.9.9", nil, ""},
	}
	for _, c := range cases {
		got := nearestVersions(c.want, published, 6)
		if len(got) == 0 || len(got) > 6 {
			t.Errorf("nearestVersions(%s) = %v, want 1..6 versions", c.want, got)
			continue
		}
		for _, w := range c.contains {
			if !slices.Contains(got, w) {
				t.Errorf("nearestVersions(%s) = %v, want it to include %s", c.want, got, w)
			}
		}
		for _, g := range got {
			if !strings.HasPrefix(g, c.prefix) {
				t.Errorf("nearestVersions(%s) = %v: %s is not on line %s", c.want, got, g, c.prefix)
			}
		}
	}
}

func TestVersionNotFoundErrorMessage(t *testing.T) {
	err := error(&VersionNotFoundError{Version: "2.6.99", Nearest: []string{"2.6.5", "2.6.6"}})
	if !errors.Is(err, ErrVersionNotFound) || !strings.Contains(err.Error(), "not on Maven Central") || !strings.Contains(err.Error(), "2.6.6") {
		t.Fatalf("message %q lacks the version, the cause or the nearest versions", err)
	}
}

func TestTailFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	var b strings.Builder
	for i := range 100 {
		b.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got := tailFile(p, 30)
	if len(got) != 30 || got[0] != "line 70" || got[29] != "line 99" {
		t.Fatalf("tailFile = %d lines from %q to %q, want lines 70..99", len(got), got[0], got[len(got)-1])
	}
}

func TestCachedVersionSkipsMaven(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "2.6.1-hadoop3")
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "a.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, classpathFile), []byte("a.jar\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &artifactCache{root: root, log: discardLogger()}
	noMaven := func() (*maven, error) { t.Fatal("Maven was called for a cached version"); return nil, nil }
	for _, asked := range []string{"2.6.1", "2.6.1-hadoop3"} {
		v, jars, err := c.resolve(context.Background(), asked, noMaven)
		if err != nil || v != "2.6.1-hadoop3" || len(jars) != 1 {
			t.Errorf("resolve(%s) = %s, %v, %v; want the cached 2.6.1-hadoop3", asked, v, jars, err)
		}
	}
	if got := c.cached(); !slices.Equal(got, []string{"2.6.1-hadoop3"}) {
		t.Errorf("cached() = %v", got)
	}
	// A missing jar makes the entry incomplete, so it is resolved again.
	os.Remove(filepath.Join(dir, "lib", "a.jar"))
	if _, ok := c.lookup("2.6.1"); ok {
		t.Error("lookup accepted an entry whose jar is gone")
	}
}
