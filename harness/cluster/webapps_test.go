package cluster

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

func writeJar(t *testing.T, path string, entries ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		if _, err := zw.Create(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestServesWebapps(t *testing.T) {
	dir := t.TempDir()
	with := filepath.Join(dir, "hbase-server-2.6.1-hadoop3.jar")
	writeJar(t, with, "org/apache/hadoop/hbase/regionserver/HRegionServer.class", "hbase-webapps/regionserver/index.html")
	without := filepath.Join(dir, "hbase-server-2.5.11-hadoop3.jar")
	writeJar(t, without, "org/apache/hadoop/hbase/regionserver/HRegionServer.class")
	other := filepath.Join(dir, "hbase-common-2.6.1.jar")
	writeJar(t, other, "hbase-webapps/regionserver/index.html")
	notZip := filepath.Join(dir, "hbase-server-broken.jar")
	os.WriteFile(notZip, []byte("not a zip"), 0o644)
	tests := []struct {
		name string
		jars []string
		want bool
	}{
		{"server jar with web resources", []string{other, with}, true},
		{"server jar without them", []string{without}, false},
		{"only another jar has them", []string{other}, false},
		{"unreadable jar", []string{notZip}, false},
		{"no jars", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := servesWebapps(tt.jars); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
