package ycsbfmt

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/results"
)

func storedSummaries(t *testing.T, dir string) int {
	t.Helper()
	st, _ := results.OpenReadOnly(dir)
	entries, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		n += e.Summaries
	}
	return n
}

// TestImportIsIdempotentResumableAndLinear: a re-run stores nothing twice,
// an import of more files stores only the new ones, and a thousand runs
// take one manifest write, not a thousand.
func TestImportIsIdempotentResumableAndLinear(t *testing.T) {
	one, err := os.ReadFile(fixture("ycsb-0.17-workloada.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	many := filepath.Join(dir, "many.txt")
	if err := os.WriteFile(many, bytes.Repeat(one, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	spec := ImportSpec{Dir: store, Version: "2.6.1", Workload: "workloada", Suite: "ycsb-import"}
	var out bytes.Buffer
	start := time.Now()
	if err := Import(context.Background(), &out, []string{many}, spec); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("1000 runs took %v to import (was quadratic: 400 runs 19 s)", d)
	}
	if n := storedSummaries(t, store); n != 1000 {
		t.Fatalf("stored %d summaries, want 1000", n)
	}
	out.Reset()
	other := fixture("ycsb-0.12-workloadb.txt")
	if err := Import(context.Background(), &out, []string{many, other}, spec); err != nil {
		t.Fatal(err)
	}
	if n := storedSummaries(t, store); n != 1001 || !strings.Contains(out.String(), "1000 of 1001 summaries were already stored") ||
		!strings.Contains(out.String(), "stored "+other) {
		t.Fatalf("resumed import: %d stored\n%s", n, out.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Import(ctx, &out, []string{fixture("ycsb-0.1.4-workloada.txt")}, spec)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("interrupted import: %v", err)
	}
	if n := storedSummaries(t, store); n != 1001 {
		t.Fatalf("the interrupted import stored something: %d", n)
	}
}
