package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileRepo makes a Maven repository holding only org.apache.hbase:hbase-server:version,
// a jar without dependencies whose bytes carry marker, and returns its file:// URL.
func fileRepo(t *testing.T, version, marker string) (url, jarPath string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "org", "apache", "hbase", "hbase-server", version)
	jar := filepath.Join(dir, "hbase-server-"+version+".jar")
	fakeHBaseJar(t, jar, "hbase-server", version)
	f, err := os.OpenFile(jar, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(marker) // zip readers ignore trailing bytes; checksums do not
	f.Close()
	pom := `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>org.apache.hbase</groupId><artifactId>hbase-server</artifactId><version>` + version + `</version></project>`
	if err := os.WriteFile(filepath.Join(dir, "hbase-server-"+version+".pom"), []byte(pom), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + root, jar
}

func TestRepoEntriesAreKeyedByRepositoryAndChecksum(t *testing.T) {
	skipShort(t)       // runs Maven (plugins and log4j from Central into each repository's own local repo)
	const v = "2.99.0" // on no public repository: only the file repositories serve it
	cache := &artifactCache{root: t.TempDir(), log: discardLogger()}
	local := NewLocal(cache.root)
	ctx := context.Background()
	rc0, jar0 := fileRepo(t, v, "rc0")
	rc1, _ := fileRepo(t, v, "rc1")
	e0, err := cache.resolveEntry(ctx, v, rc0, false, local.maven)
	if err != nil {
		t.Fatalf("resolving from %s: %v", rc0, err)
	}
	e1, err := cache.resolveEntry(ctx, v, rc1, false, local.maven)
	if err != nil {
		t.Fatalf("resolving from %s: %v", rc1, err)
	}
	name := "hbase-server-" + v + ".jar"
	if e0.checksums[name] == "" || e0.checksums[name] == e1.checksums[name] {
		t.Fatalf("checksums of %s: rc0 %q, rc1 %q; want two different ones", name, e0.checksums[name], e1.checksums[name])
	}
	if filepath.Dir(e0.jars[0]) == filepath.Dir(e1.jars[0]) {
		t.Fatalf("RC0 and RC1 of %s share the cache entry %s", v, filepath.Dir(e0.jars[0]))
	}
	// Asked again, each repository gets its own entry back without Maven.
	noMaven := func() (*maven, error) { t.Fatal("Maven was called for a cached repository entry"); return nil, nil }
	again, err := cache.resolveEntry(ctx, v, rc0, false, noMaven)
	if err != nil || again.checksums[name] != e0.checksums[name] {
		t.Fatalf("rc0 again: %v, %v", again.checksums, err)
	}
	// The same URL serving other jars (an RC rebuilt in place) is a new entry.
	f, _ := os.OpenFile(jar0, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("rebuilt")
	f.Close()
	e2, err := cache.resolveEntry(ctx, v, rc0, false, local.maven)
	if err != nil {
		t.Fatal(err)
	}
	if e2.checksums[name] == e0.checksums[name] || filepath.Dir(e2.jars[0]) == filepath.Dir(e0.jars[0]) {
		t.Fatalf("rebuilt jar under the same URL reused the old entry %s", filepath.Dir(e0.jars[0]))
	}
	// Nothing of the RCs reached the plain cache entry of the version, or ~/.m2.
	if _, ok := cache.lookup(v); ok {
		t.Errorf("a plain cache entry of %s exists after repository resolutions", v)
	}
	home, _ := os.UserHomeDir()
	if _, err := os.Stat(filepath.Join(home, ".m2", "repository", "org", "apache", "hbase", "hbase-server", v)); err == nil {
		t.Errorf("~/.m2 received hbase-server %s from a staging repository", v)
	}
}

func TestRepoThatLacksTheVersionSaysSo(t *testing.T) {
	url, _ := fileRepo(t, "2.99.0", "x")
	cache := &artifactCache{root: t.TempDir(), log: discardLogger()}
	noMaven := func() (*maven, error) {
		t.Fatal("Maven was called for a version the repository lacks")
		return nil, nil
	}
	_, err := cache.resolveEntry(context.Background(), "2.98.0", url, false, noMaven)
	if err == nil || !strings.Contains(err.Error(), "is not in repository "+url) {
		t.Fatalf("err = %v, want the version named as missing from %s", err, url)
	}
	for _, bad := range []string{"repo.example.org/x", "ftp://x/y", "file://relative"} {
		if err := CheckRepo(bad); err == nil {
			t.Errorf("CheckRepo(%q) accepted it", bad)
		}
	}
}
