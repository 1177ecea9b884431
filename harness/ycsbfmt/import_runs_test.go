package ycsbfmt

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/results"
)

// storedOf imports files into a fresh store and returns its summaries.
func storedOf(t *testing.T, store string, files ...string) []results.Trial {
	t.Helper()
	var out bytes.Buffer
	if err := Import(context.Background(), &out, files, ImportSpec{Dir: store, Version: "2.6.1", Workload: "workloada", Suite: "ycsb-import"}); err != nil {
		t.Fatalf("import %v: %v\n%s", files, err, out.String())
	}
	st, _ := results.OpenReadOnly(store)
	m, err := st.Resolve("2.6.1", "")
	if err != nil {
		t.Fatal(err)
	}
	return m.Summaries
}

// TestOneRunOneSummary: docs/ycsb.md's example (a text output and its
// READ.hdr) is one run, stored as one summary holding READ and UPDATE; a load
// phase is stored apart from the run phase after it; .hdr logs given with
// two run phases are refused.
func TestOneRunOneSummary(t *testing.T) {
	sums := storedOf(t, t.TempDir(), fixture("ycsb-0.17-workloada.txt"), fixture("ycsb-0.17-workloada-READ.hdr"))
	if len(sums) != 1 {
		t.Fatalf("%d summaries, want 1 (one run)", len(sums))
	}
	ops := sums[0].Ops
	if ops["READ"].Count != 299876 || ops["UPDATE"].Count != 300124 || sums[0].AchievedOpsPerSec < 9997 {
		t.Errorf("READ %d, UPDATE %d, throughput %v: want the text's whole run", ops["READ"].Count, ops["UPDATE"].Count, sums[0].AchievedOpsPerSec)
	}

	sums = storedOf(t, t.TempDir(), fixture("ycsb-0.15-load-then-run-workloadc.txt"))
	var ws []string
	for _, s := range sums {
		ws = append(ws, s.Workload)
	}
	slices.Sort(ws)
	if !slices.Equal(ws, []string{"workloada", "workloada" + LoadSuffix}) {
		t.Errorf("a load then a run stored as workloads %v, want the load apart", ws)
	}

	dir := t.TempDir()
	two := filepath.Join(dir, "two.txt")
	b, _ := os.ReadFile(fixture("ycsb-0.17-workloada.txt"))
	if err := os.WriteFile(two, append(slices.Clone(b), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Import(context.Background(), &bytes.Buffer{}, []string{two, fixture("ycsb-0.17-workloada-READ.hdr")}, ImportSpec{Dir: t.TempDir(), Version: "2.6.1", Workload: "workloada", Suite: "s"})
	if err == nil || !strings.Contains(err.Error(), "were given with 2 run phases") {
		t.Errorf("hdr logs with two run phases: %v, want them refused", err)
	}
}

// TestImportIdentity: one output as LF, CRLF and with a byte order mark is
// stored once; identical bytes logged as two operations are two logs.
func TestImportIdentity(t *testing.T) {
	b, err := os.ReadFile(fixture("ycsb-0.12-workloadb.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for name, v := range map[string][]byte{
		"lf.txt":   b,
		"crlf.txt": bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
		"bom.txt":  append([]byte("\xef\xbb\xbf"), b...),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, v, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	store := filepath.Join(dir, "store")
	for _, f := range files {
		if n := len(storedOf(t, store, f)); n != 1 {
			t.Errorf("after importing %s: %d summaries, want 1 (one output, whatever its line ends)", filepath.Base(f), n)
		}
	}

	hdr, err := os.ReadFile(fixture("ycsb-0.17-workloada-READ.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	store = filepath.Join(dir, "store2")
	for i, op := range []string{"READ", "UPDATE"} {
		p := filepath.Join(dir, op+".hdr")
		if err := os.WriteFile(p, hdr, 0o644); err != nil {
			t.Fatal(err)
		}
		if n := len(storedOf(t, store, p)); n != i+1 {
			t.Errorf("after importing %s.hdr (the same bytes as the other): %d summaries, want %d", op, n, i+1)
		}
	}
}
