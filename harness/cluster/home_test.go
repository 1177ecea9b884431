package cluster

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHBaseJar writes a jar holding only the pom.properties Maven puts in HBase's jars.
func fakeHBaseJar(t *testing.T, path, artifact, version string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create("META-INF/maven/org.apache.hbase/" + artifact + "/pom.properties")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("artifactId=" + artifact + "\ngroupId=org.apache.hbase\nversion=" + version + "\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestHomeVersionComesFromTheJarsNotTheDirectoryName(t *testing.T) {
	home := filepath.Join(t.TempDir(), "hbase-9.9.9")
	// A jar renamed by hand must not fool it either: pom.properties wins.
	fakeHBaseJar(t, filepath.Join(home, "lib", "hbase-common-2.6.1.jar"), "hbase-common", "2.6.1-hadoop3")
	v, err := HomeVersion(home)
	if err != nil || v != "2.6.1-hadoop3" {
		t.Fatalf("HomeVersion = %q, %v; want 2.6.1-hadoop3 from pom.properties", v, err)
	}
	if _, err := HomeVersion(t.TempDir()); !errors.Is(err, ErrBadHome) || !strings.Contains(err.Error(), "no lib/") {
		t.Errorf("empty dir: %v, want ErrBadHome saying there is no lib/", err)
	}
}

func TestHomeClasspathFollowsBinHBase(t *testing.T) {
	home := t.TempDir()
	for _, f := range []string{"lib/b.jar", "lib/a.jar", "lib/jdk11/j.jar", "lib/client-facing-thirdparty/log4j-core.jar", "lib/ruby/x.jar"} {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	rel := func(js []string) string {
		var out []string
		for _, j := range js {
			r, _ := filepath.Rel(home, j)
			out = append(out, r)
		}
		return strings.Join(out, " ")
	}
	got, err := homeClasspath(home, 17)
	if want := "lib/a.jar lib/b.jar lib/jdk11/j.jar lib/client-facing-thirdparty/log4j-core.jar"; err != nil || rel(got) != want {
		t.Errorf("JDK 17 classpath = %q, %v; want %q", rel(got), err, want)
	}
	got, _ = homeClasspath(home, 8)
	if want := "lib/a.jar lib/b.jar lib/client-facing-thirdparty/log4j-core.jar"; rel(got) != want {
		t.Errorf("JDK 8 classpath = %q; want %q (no jdk11/)", rel(got), want)
	}
}

// writeTarGz packs files (name -> content) under top/ into a .tar.gz.
func writeTarGz(t *testing.T, path, top string, files map[string][]byte) {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: top + "/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	tw.Close()
	gz.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHomeTarballUnpacksOnceIntoTheCache(t *testing.T) {
	dir := t.TempDir()
	tgz := filepath.Join(dir, "hbase-2.6.1-hadoop3-bin.tar.gz")
	writeTarGz(t, tgz, "hbase-2.6.1-hadoop3", map[string][]byte{
		"lib/hbase-common-2.6.1-hadoop3.jar": fakeHBaseJar(t, "", "hbase-common", "2.6.1-hadoop3"),
		"conf/hbase-site.xml":                []byte("<configuration/>"),
	})
	root := filepath.Join(dir, "cache", "homes")
	home, err := unpackHome(context.Background(), tgz, root)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(home) != "hbase-2.6.1-hadoop3" {
		t.Errorf("home = %s, want the tarball's top directory", home)
	}
	if v, err := HomeVersion(home); err != nil || v != "2.6.1-hadoop3" {
		t.Errorf("version of the unpacked home = %q, %v", v, err)
	}
	again, err := unpackHome(context.Background(), tgz, root)
	if err != nil || again != home {
		t.Errorf("second unpack = %s, %v; want the same %s", again, err, home)
	}
	bad := filepath.Join(dir, "evil.tar.gz")
	writeTarGz(t, bad, "..", map[string][]byte{"x": []byte("x")})
	if _, err := unpackHome(context.Background(), bad, root); !errors.Is(err, ErrBadHome) {
		t.Errorf("tarball escaping its dir: %v, want ErrBadHome", err)
	}
}

func TestHomeRefusesAFileThatIsNoTarball(t *testing.T) {
	f := filepath.Join(t.TempDir(), "hbase.zip")
	os.WriteFile(f, []byte("x"), 0o644)
	_, err := NewHome(f, t.TempDir()).Start(context.Background(), Spec{})
	if !errors.Is(err, ErrBadHome) {
		t.Errorf("err = %v, want ErrBadHome", err)
	}
}
