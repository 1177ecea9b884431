package cluster

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestCandidatesHonourPlain(t *testing.T) {
	tests := []struct {
		version string
		plain   bool
		want    []string
	}{
		{"2.6.1", false, []string{"2.6.1-hadoop3", "2.6.1"}},
		{"2.6.1", true, []string{"2.6.1"}},
		{"2.6.1-hadoop3", false, []string{"2.6.1-hadoop3"}},
		{"2.6.1-hadoop3", true, []string{"2.6.1-hadoop3"}}, // named explicitly: kept
		{"1.7.2", false, []string{"1.7.2"}},
		{"0.98.0", false, []string{"0.98.0-hadoop2", "0.98.0"}}, // 0.98 is published as -hadoop1 and -hadoop2 only
		{"0.98.0", true, []string{"0.98.0-hadoop2", "0.98.0"}},
		{"0.98.0-hadoop1", false, []string{"0.98.0-hadoop1"}},
		{"3.0.0-beta-1", false, []string{"3.0.0-beta-1"}},
	}
	for _, tt := range tests {
		if got := candidates(tt.version, tt.plain); !slices.Equal(got, tt.want) {
			t.Errorf("candidates(%q, plain=%v) = %q, want %q", tt.version, tt.plain, got, tt.want)
		}
	}
}

func TestFlavourAndHadoopStack(t *testing.T) {
	for v, want := range map[string]string{"2.6.1-hadoop3": FlavourHadoop3, "2.6.3": FlavourPlain, "1.7.2": FlavourPlain} {
		if got := Flavour(v); got != want {
			t.Errorf("Flavour(%q) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[string]bool{"2.6.1-hadoop3": true, "2.6.1-hadoop2": true, "2.6.1": false} {
		if got := ExplicitFlavour(v); got != want {
			t.Errorf("ExplicitFlavour(%q) = %v, want %v", v, got, want)
		}
	}
	lib := "/cache/2.6.3/lib"
	tests := []struct {
		name string
		jars []string
		want string
	}{
		{"Hadoop 2 build", []string{filepath.Join(lib, "hbase-server-2.6.3.jar"), filepath.Join(lib, "hadoop-common-2.10.2.jar")}, "2.10.2"},
		{"Hadoop 3 build", []string{filepath.Join(lib, "hadoop-common-3.4.1.jar")}, "3.4.1"},
		{"tests jar is not the stack", []string{filepath.Join(lib, "hadoop-common-3.4.1-tests.jar")}, ""},
		{"no hadoop-common", []string{filepath.Join(lib, "hadoop-core-1.2.1.jar"), filepath.Join(lib, "hadoop-common-x.jar")}, ""},
		{"no jars", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HadoopStack(tt.jars); got != tt.want {
				t.Errorf("HadoopStack = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWebappsStubServesTheLookup: the stub jar holds the directories
// HBase's HttpServer looks up, laid out as in a release's hbase-server jar,
// so an info server starts on jars whose hbase-server jar lacks them
// (Maven Central's 2.6.3).
func TestWebappsStubServesTheLookup(t *testing.T) {
	p := filepath.Join(t.TempDir(), "conf", webappsStubJar)
	if err := writeWebappsStub(p); err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"hbase-webapps/regionserver", "hbase-webapps/static"} {
		if !jarHas(p, e) {
			t.Errorf("stub %s has no %s", p, e)
		}
	}
	if jarHas(p, "hbase-webapps/master") {
		t.Error("stub has a master web app; the master's info server stays off")
	}
}
