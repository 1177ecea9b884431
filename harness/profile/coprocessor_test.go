package profile

import (
	"archive/zip"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoprocessorBuilds builds testdata/coprocessor (the region observer
// that burns CPU in every Get, for the added-cost proof) with Maven against
// hbase-server from Maven Central, and checks the jar holds the observer.
func TestCoprocessorBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds with mvn, which may download hbase-server")
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatal("no mvn on PATH: the coprocessor is built with Maven; install it (apt-get install maven; .ci/run does) or run with -short")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "coprocessor"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "build.sh"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("build.sh: %v: %s", err, stderr.String())
	}
	jar := strings.TrimSpace(string(out))
	if jar != filepath.Join(dir, "target", "slow-get-observer.jar") {
		t.Fatalf("build.sh printed %q last, want the jar's path", jar)
	}
	z, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name == "org/regress/testdata/SlowGetObserver.class" {
			return
		}
	}
	t.Errorf("%s has no org/regress/testdata/SlowGetObserver.class", jar)
}
