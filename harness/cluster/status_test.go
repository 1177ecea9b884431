package cluster

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestVersionStatusesMarkCachedAndRememberedVersions(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "17.0.9")) // java, no mvn: nothing is published
	root := t.TempDir()
	dir := filepath.Join(root, "2.6.1-hadoop3")
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(dir, "lib", "a.jar"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, classpathFile), []byte("a.jar\n"), 0o644)
	c := &artifactCache{root: root, log: discardLogger()}
	c.remember("2.6.1-hadoop3", "", statusCached)
	c.remember("2.6.5", "", statusNotServed)
	c.remember("2.6.0-hadoop3", "", statusCached) // resolved once, entry since removed
	c.remember("1.7.2", "", statusCached)
	c.remember("9.9.9", "https://staging", statusNotServed) // repositories are not remembered
	sts, _ := NewLocal(root).VersionStatuses(context.Background(), root, false, nil)
	got := map[string]VersionStatus{}
	for _, s := range sts {
		got[s.Version] = s
	}
	if s := got["2.6.1-hadoop3"]; s.State != statusCached || s.JDK != "JDK 17.0.9" {
		t.Errorf("2.6.1-hadoop3: %+v, want cached on JDK 17.0.9", s)
	}
	for v, want := range map[string]string{"2.6.5": statusNotServed, "2.6.0-hadoop3": "resolvable", "1.7.2": "resolvable"} {
		if got[v].State != want {
			t.Errorf("%s: state %q, want %q", v, got[v].State, want)
		}
	}
	if s := got["1.7.2"]; s.JDK != "" || s.NeedsJDK != "JDK 8 or 11" {
		t.Errorf("1.7.2 with only JDK 17 here: %+v, want needs JDK 8 or 11", s)
	}
	rem := c.remembered()
	if rem["2.6.5"].Status != statusNotServed || rem["2.6.0-hadoop3"].Status != statusCached {
		t.Errorf("remembered = %+v", rem)
	}
	if _, ok := rem["9.9.9"]; ok {
		t.Error("a repository's answer was remembered as Maven Central's")
	}
}

// A failed Maven download (the network, a proxy, Maven itself) says nothing
// of a release: only Maven's definite answer that an artifact of its tree
// is absent marks it "not served", and that answer stands a week, not for
// good (a history's --versions range then left the release out without a
// word, and named it a misspelling).
func TestOnlyADefiniteAnswerMarksAReleaseNotServed(t *testing.T) {
	tests := []struct {
		name, output string
		want         string // remembered status, "" for none
	}{
		{"the network", "[ERROR] Failed to execute goal on project x: Could not resolve dependencies for project x: Could not transfer artifact org.apache.hbase:hbase-common:jar:2.6.2 from/to central (https://repo.maven.apache.org/maven2): Connection refused", ""},
		{"Maven failing without a word", "", ""},
		{"a dependency absent", "[ERROR] Failed to execute goal on project x: Could not resolve dependencies for project x: Could not find artifact org.apache.hbase:hbase-common:jar:2.6.2 in central (https://repo.maven.apache.org/maven2)", statusNotServed},
		{"the release absent", "[ERROR] Failed to execute goal on project x: Could not find artifact org.apache.hbase:hbase-server:jar:2.6.2 in central", statusNotServed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			mvn := filepath.Join(dir, "mvn")
			script := "#!/bin/sh\ncat <<'EOF'\n" + tc.output + "\nEOF\nexit 1\n"
			if err := os.WriteFile(mvn, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			c := &artifactCache{root: t.TempDir(), log: discardLogger()}
			m := func() (*maven, error) { return &maven{path: mvn, log: discardLogger()}, nil }
			if _, err := c.resolveKeys(context.Background(), "2.6.2", "", []entryKey{{version: "2.6.2", dir: "2.6.2"}}, m); err == nil {
				t.Fatal("a failing mvn resolved")
			}
			if got := c.remembered()["2.6.2"].Status; got != tc.want {
				t.Errorf("remembered %q, want %q", got, tc.want)
			}
		})
	}
}

// A remembered "not served" older than a week is "not checked" again.
func TestNotServedExpires(t *testing.T) {
	onlyTheseJDKs(t)
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", fakeJava(t, t.TempDir(), "17.0.9"))
	root := t.TempDir()
	old := map[string]versionStatus{
		"2.6.2": {Status: statusNotServed, Checked: time.Now().Add(-8 * 24 * time.Hour)},
		"2.6.5": {Status: statusNotServed, Checked: time.Now().Add(-time.Hour)},
	}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(filepath.Join(root, versionsFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	sts, _ := NewLocal(root).VersionStatuses(context.Background(), root, false, nil)
	got := map[string]string{}
	for _, s := range sts {
		got[s.Version] = s.State
	}
	if got["2.6.2"] != "not checked" || got["2.6.5"] != statusNotServed {
		t.Errorf("states %v: want 2.6.2 (8 days old) not checked, 2.6.5 (an hour) not served", got)
	}
}
