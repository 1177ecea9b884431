package javabuild

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var hello = Sources{"regress/hello/Hello.java": []byte("package regress.hello;\npublic class Hello { public static void main(String[] a) { System.out.println(\"hi\"); } }\n")}

// TestCompileOncePerDigest compiles a class with this machine's JDK (CI
// installs one: no JDK fails the test), then returns the same directory
// for the same sources without running javac again (a javac that cannot
// run), and compiles changed sources afresh beside it.
func TestCompileOncePerDigest(t *testing.T) {
	javac, home, err := FindJavac()
	if err != nil {
		t.Fatalf("this test needs a JDK: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "java")); err != nil {
		t.Errorf("FindJavac's home %s holds no bin/java: %v", home, err)
	}
	dir := t.TempDir()
	classes, err := Compile(context.Background(), javac, "11", hello, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(classes, "regress", "hello", "Hello.class")); err != nil {
		t.Fatalf("no class compiled: %v", err)
	}
	again, err := Compile(context.Background(), filepath.Join(dir, "no-such-javac"), "11", hello, dir)
	if err != nil || again != classes {
		t.Fatalf("second compile: %q, %v; want the cached %q without javac", again, err, classes)
	}
	changed := Sources{"regress/hello/Hello.java": []byte("package regress.hello;\npublic class Hello {}\n")}
	other, err := Compile(context.Background(), javac, "11", changed, dir)
	if err != nil || other == classes {
		t.Fatalf("changed sources: %q, %v; want a directory of their own", other, err)
	}
}

// TestCompileSaysWhatJavacSaid: a source javac refuses fails with javac's
// message, and leaves no classes directory a later call would trust.
func TestCompileSaysWhatJavacSaid(t *testing.T) {
	javac, _, err := FindJavac()
	if err != nil {
		t.Fatalf("this test needs a JDK: %v", err)
	}
	dir := t.TempDir()
	bad := Sources{"Bad.java": []byte("public class Bad { int x = ; }\n")}
	if _, err := Compile(context.Background(), javac, "11", bad, dir); err == nil || !errorContains(err, "Bad.java") {
		t.Fatalf("err %v; want javac's complaint naming Bad.java", err)
	}
	if _, err := os.Stat(filepath.Join(dir, bad.Digest(), "classes")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed compile left its classes directory: %v", err)
	}
}

// TestFindJavacPrefersTheHomesGiven: a JDK home given first wins over
// JAVA_HOME and PATH; with none anywhere the error is ErrNoJavac.
func TestFindJavacPrefersTheHomesGiven(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "bin", "javac"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	javac, h, err := FindJavac(filepath.Join(t.TempDir(), "absent"), home)
	if err != nil || h != home || javac != filepath.Join(home, "bin", "javac") {
		t.Fatalf("FindJavac = %q, %q, %v; want the home given", javac, h, err)
	}
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", t.TempDir())
	if _, _, err := FindJavac(); !errors.Is(err, ErrNoJavac) {
		t.Fatalf("err %v; want ErrNoJavac", err)
	}
}

// TestDigestFollowsContentAndPath: the digest changes with a source's text
// or path, and not with the map's order.
func TestDigestFollowsContentAndPath(t *testing.T) {
	a := Sources{"x/A.java": []byte("a"), "x/B.java": []byte("b")}
	b := Sources{"x/B.java": []byte("b"), "x/A.java": []byte("a")}
	if a.Digest() != b.Digest() {
		t.Error("same sources, different digests")
	}
	if a.Digest() == (Sources{"x/A.java": []byte("a"), "x/B.java": []byte("c")}).Digest() {
		t.Error("a changed text kept the digest")
	}
	if a.Digest() == (Sources{"y/A.java": []byte("a"), "x/B.java": []byte("b")}).Digest() {
		t.Error("a moved file kept the digest")
	}
}

func errorContains(err error, s string) bool {
	return err != nil && strings.Contains(err.Error(), s)
}
