package cluster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
