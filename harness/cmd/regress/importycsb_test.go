package main

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// runImportCmd runs the CLI in-process and returns stdout and stderr together.
func runImportCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, errOut, err := runCLI(t, args...)
	return out + errOut, err
}

func TestImportYCSBStoresSummaries(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	// Two runs, two imports: a text output given with .hdr logs is one run
	// (those are another run's logs).
	out, err := runImportCmd(t, "import-ycsb", filepath.Join(fx, "ycsb-0.1.4-workloada.txt"),
		"--version", "0.98.4", "--workload", "workloada", "--store", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = runImportCmd(t, "import-ycsb", filepath.Join(fx, "ycsb-0.17-workloada-READ.hdr"), filepath.Join(fx, "ycsb-0.17-workloada-UPDATE.hdr"),
		"--version", "0.98.4", "--workload", "workloada", "--store", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	st, _ := results.Open(dir)
	entries, err := st.Find("0.98.4", "ycsb-import")
	if err != nil || len(entries) != 1 || entries[0].Summaries != 2 || entries[0].Source != "ycsb-import" {
		t.Fatalf("entries = %+v, %v", entries, err)
	}
	m, err := st.Load(entries[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	hdr := m.Summaries[1]
	if hdr.HlogFile == "" || hdr.Ops["READ"].Count != 50000 {
		t.Fatalf("hdr summary = %+v", hdr)
	}
	if _, err := st.ReadHlog(entries[0].Key, hdr); err != nil {
		t.Fatal(err)
	}
	// The same output again stores nothing twice, and says so.
	out, err = runImportCmd(t, "import-ycsb", filepath.Join(fx, "ycsb-0.1.4-workloada.txt"), "--version", "0.98.4", "--workload", "workloada", "--store", dir)
	if err != nil || !strings.Contains(out, "1 of 1 summaries were already stored") || strings.Contains(out, "stored "+filepath.Join(fx, "ycsb-0.1.4-workloada.txt")) {
		t.Fatalf("re-import: %v\n%s", err, out)
	}
	if entries, _ := st.Find("0.98.4", "ycsb-import"); len(entries) != 1 || entries[0].Summaries != 2 {
		t.Fatalf("after re-import: %+v", entries)
	}
}

func TestImportYCSBBadInputIsUsageError(t *testing.T) {
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	for _, args := range [][]string{
		{"import-ycsb", filepath.Join(fx, "bad-value.txt"), "--version", "2.6.1", "--workload", "workloada", "--store", t.TempDir()},
		{"import-ycsb", filepath.Join(fx, "ycsb-0.17-workloada.txt"), "--workload", "workloada", "--store", t.TempDir()},
	} {
		_, err := runImportCmd(t, args...)
		var ue *fault.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err = %v, want exit %d", args, err, exitUsage)
		}
	}
}

// TestImportYCSBOneNameOneVersion: a label holds one version (a second is
// refused, exit 2, and the first kept), a mislabelled import is fixed as the
// error says, and a workload name is no free text.
func TestImportYCSBOneNameOneVersion(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join("..", "..", "ycsbfmt", "testdata", "ycsb")
	a, b := filepath.Join(fx, "ycsb-0.17-workloada.txt"), filepath.Join(fx, "ycsb-0.12-workloadb.txt")
	if out, err := runImportCmd(t, "import-ycsb", a, "--version", "2.6.0", "--label", "same", "--workload", "workloada", "--store", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := runImportCmd(t, "import-ycsb", b, "--version", "2.6.1", "--label", "same", "--workload", "workloadb", "--store", dir)
	var ue *fault.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "holds results of HBase 2.6.0, not 2.6.1") || !strings.Contains(err.Error(), "regress results remove same/ycsb-import-") {
		t.Fatalf("2.6.1 under 2.6.0's label: err = %v (want exit 2 saying what to do)\n%s", err, out)
	}
	st, _ := results.Open(dir)
	entries, _ := st.Find("same", "")
	if len(entries) != 1 || entries[0].Summaries != 1 {
		t.Fatalf("entries after the refusal: %+v", entries)
	}
	if m, _ := st.Load(entries[0].Key); m.Version != "2.6.0" {
		t.Fatalf("entry's version = %q", m.Version)
	}
	// Under a label of its own it is stored.
	if out, err := runImportCmd(t, "import-ycsb", b, "--version", "2.6.1", "--label", "other", "--workload", "workloadb", "--store", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}

	// Stored under the wrong workload, the same output again under the right one is refused saying how to fix it...
	if out, err := runImportCmd(t, "import-ycsb", a, "--version", "2.6.2", "--workload", "workloadb", "--store", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	_, err = runImportCmd(t, "import-ycsb", a, "--version", "2.6.2", "--workload", "workloada", "--store", dir)
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "as workload workloadb, not workloada") {
		t.Fatalf("re-import under the right workload: err = %v, want exit 2 naming the stored one", err)
	}
	name := regexp.MustCompile("regress results remove ([^`]+)`").FindStringSubmatch(err.Error())
	if name == nil {
		t.Fatalf("the error names no entry to remove: %v", err)
	}
	// ...and fixed that way.
	if out, err := runImportCmd(t, "results", "remove", name[1], "--store", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := runImportCmd(t, "import-ycsb", a, "--version", "2.6.2", "--workload", "workloada", "--store", dir); err != nil || !strings.Contains(out, "workloada, 2 operations") {
		t.Fatalf("import after the removal: %v\n%s", err, out)
	}

	_, err = runImportCmd(t, "import-ycsb", a, "--version", "2.6.3", "--workload", "<img src=x onerror=alert(1)>", "--store", dir)
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "name a workload with at most 100 letters, digits") {
		t.Fatalf("markup as a workload name: err = %v, want exit 2", err)
	}
}
