package main

import (
	"errors"
	"path/filepath"
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
	out, err := runImportCmd(t, "import-ycsb", filepath.Join(fx, "ycsb-0.1.4-workloada.txt"),
		filepath.Join(fx, "ycsb-0.17-workloada-READ.hdr"), filepath.Join(fx, "ycsb-0.17-workloada-UPDATE.hdr"),
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
