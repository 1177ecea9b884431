package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtraJarsAreMadeAbsolute: a jar named relative to regress's working
// directory reaches the JVMs, which run in a work dir of their own, as an
// absolute path; a missing one is refused by name before any JVM starts.
func TestExtraJarsAreMadeAbsolute(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "target"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "target", "obs.jar"), []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got, err := extraJars([]string{filepath.Join("target", "obs.jar")})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(filepath.Join("target", "obs.jar"))
	if len(got) != 1 || got[0] != want || !filepath.IsAbs(got[0]) {
		t.Errorf("extraJars = %q, want [%q]", got, want)
	}
	if _, err := extraJars([]string{"target/none.jar"}); err == nil || !strings.Contains(err.Error(), "target/none.jar") {
		t.Errorf("a missing jar: error %v, want one naming it", err)
	}
}

// TestAbortWatchFindsARegionServerAbortAsTheLogGrows: the start gives up
// on the line HBase logs when a region server aborts (a standalone JVM
// stays up after it), found across reads, never in a log without it.
func TestAbortWatchFindsARegionServerAbortAsTheLogGrows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hbase.log")
	a := abortWatch{path: path}
	if got := a.check(); got != "" {
		t.Fatalf("no log yet: %q", got)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write := func(s string) {
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	write("2026-12-02T13:29:27,900 INFO  [main] regionserver.HRegionServer: Serving\n")
	if got := a.check(); got != "" {
		t.Fatalf("a healthy log: %q", got)
	}
	write("2026-12-02T13:29:27,940 ERROR [RS_OPEN_META-0] regionserver.HRegionServer: ***** ABORTING reg")
	if got := a.check(); got != "" {
		t.Fatalf("half a marker: %q", got)
	}
	write("ion server 127.0.0.1,37307,1: The coprocessor org.regress.testdata.SlowGetObserver threw java.lang.ClassNotFoundException *****\nmore\n")
	got := a.check()
	if !strings.HasPrefix(got, "2026-12-02T13:29:27,940 ERROR") || !strings.Contains(got, "ClassNotFoundException") || strings.Contains(got, "more") {
		t.Errorf("abort line = %q, want the whole ABORTING line", got)
	}
}
