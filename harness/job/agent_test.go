package job

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
)

// TestClusterAgentCopiesAJarAClusterCanLoad: `regress cluster agent --out
// DIR` leaves a -javaagent jar in DIR (its manifest names the premain class,
// its classes are there) and prints the hbase-env.sh line with that path;
// --out naming a file is refused as bad input and the file is left as it was.
func TestClusterAgentCopiesAJarAClusterCanLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the agent with javac; skipped under -short")
	}
	dir := filepath.Join(t.TempDir(), "agent")
	var out bytes.Buffer
	if err := ClusterAgent(context.Background(), &out, dir); err != nil {
		t.Fatalf("cluster agent: %v (needs a JDK's javac: apt-get install openjdk-17-jdk-headless)", err)
	}
	jar := filepath.Join(dir, "regress-agent.jar")
	if !strings.Contains(out.String(), "-javaagent:"+jar) || !strings.Contains(out.String(), "HBASE_REGIONSERVER_OPTS") {
		t.Errorf("printed %q: want the hbase-env.sh line loading %s", out.String(), jar)
	}
	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var manifest string
	classes := 0
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".class") {
			classes++
		}
		if f.Name == "META-INF/MANIFEST.MF" {
			r, _ := f.Open()
			b, _ := io.ReadAll(r)
			r.Close()
			manifest = string(b)
		}
	}
	if !strings.Contains(manifest, "Premain-Class: regress.agent.RequestThreads") || classes < 2 {
		t.Errorf("jar has %d classes, manifest %q: want the agent's classes and its Premain-Class", classes, manifest)
	}
	file := filepath.Join(t.TempDir(), "notadir")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = ClusterAgent(context.Background(), io.Discard, file)
	var ue *fault.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "give a directory") {
		t.Errorf("--out naming a file: %v, want a usage error asking for a directory", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Errorf("the file --out named now holds %q", b)
	}
}
