package ycsbfmt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regress-hbase/regress/harness/fault"
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

// A run's .hdr logs name it whatever order they are given in, and a run
// imported from its text output and again with its logs (or its logs,
// then its text with them) is stored once: two summaries of one run were
// pooled as two (-3.4% p95 for a run compared with itself).
func TestOneRunIsStoredOnceWhateverItsFilesOrder(t *testing.T) {
	text, read, update := fixture("ycsb-0.17-workloada.txt"), fixture("ycsb-0.17-workloada-READ.hdr"), fixture("ycsb-0.17-workloada-UPDATE.hdr")
	ids := func(files ...string) []string {
		t.Helper()
		var srcs []source
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, source{f, b})
		}
		ss, err := summariesOf(context.Background(), srcs, "workloada")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.trial.ID)
		}
		return out
	}
	if a, b := ids(read, update), ids(update, read); len(a) != 1 || a[0] != b[0] {
		t.Errorf(".hdr logs in two orders: %v and %v, want one id", a, b)
	}
	if a, b := ids(text, read, update), ids(update, text, read); len(a) != 1 || a[0] != b[0] {
		t.Errorf("a text and its logs in two orders: %v and %v, want one id", a, b)
	}
	for _, order := range [][][]string{
		{{text}, {text, read, update}},
		{{text, read, update}, {text}},
		{{read, update}, {update, text, read}},
		{{text, read, update}, {update, read}},
	} {
		store := filepath.Join(t.TempDir(), "store")
		spec := ImportSpec{Dir: store, Version: "2.6.1", Workload: "workloada", Suite: "ycsb-import"}
		var out bytes.Buffer
		for _, files := range order {
			if err := Import(context.Background(), &out, files, spec); err != nil {
				t.Fatal(err)
			}
		}
		if n := storedSummaries(t, store); n != 1 || !strings.Contains(out.String(), "a run already stored") {
			t.Errorf("imports %v: %d summaries stored, want 1 and the second import saying so:\n%s", order, n, out.String())
		}
	}
}

// .hdr logs stored by an import before their id stopped depending on the
// files' order are known again when imported in that order.
func TestHdrLogsStoredUnderTheirOldIDAreKnown(t *testing.T) {
	read, update := fixture("ycsb-0.17-workloada-READ.hdr"), fixture("ycsb-0.17-workloada-UPDATE.hdr")
	var srcs []source
	for _, f := range []string{read, update} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, source{f, b})
	}
	ss, err := summariesOf(context.Background(), srcs, "workloada")
	if err != nil || len(ss) != 1 || ss[0].legacyID == "" || ss[0].legacyID == ss[0].trial.ID {
		t.Fatalf("summaries %+v, %v: want one with an old id beside its own", ss, err)
	}
	store := filepath.Join(t.TempDir(), "store")
	spec := ImportSpec{Dir: store, Version: "2.6.1", Workload: "workloada", Suite: "ycsb-import"}
	// Stored as an earlier import stored it: under the old id.
	st, err := results.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	fp := sha256.Sum256([]byte("ycsb-import:ycsb-import"))
	tmpl := &results.Manifest{Version: "2.6.1", Provider: "external", Source: "ycsb-import",
		Suite: results.SuiteInfo{Name: "ycsb-import", Fingerprint: hex.EncodeToString(fp[:])[:16], DataSpec: "imported from YCSB output; data spec unknown"}}
	tr := ss[0].trial
	tr.ID = ss[0].legacyID
	if _, _, _, err := st.ImportSummaries(tmpl, []results.Pending{{Trial: tr, Hlog: ss[0].hlog}}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Import(context.Background(), &out, []string{read, update}, spec); err != nil {
		t.Fatal(err)
	}
	if n := storedSummaries(t, store); n != 1 || !strings.Contains(out.String(), "a run already stored") {
		t.Errorf("%d summaries stored, want the one stored before:\n%s", n, out.String())
	}
}

// An import that fills the store's disk fails as a run does (exit 3, as
// the docs say of every store write), not as bad input (exit 2).
func TestAFullDiskIsNoUsageError(t *testing.T) {
	full := fmt.Errorf("import-ycsb: %w", &results.DiskFullError{Root: "S", Err: &fs.PathError{Op: "write", Path: "S/x", Err: syscall.ENOSPC}})
	if got := fault.ExitCode(storeFault(full)); got != fault.ExitRunFailed {
		t.Errorf("a full disk: exit %d, want %d", got, fault.ExitRunFailed)
	}
	if got := fault.ExitCode(storeFault(errors.New("import-ycsb: a label names one version"))); got != fault.ExitUsage {
		t.Errorf("another store error: exit %d, want %d", got, fault.ExitUsage)
	}
}

// TestImportStopsParsingWhenInterrupted: a signal while an import reads a
// large output stops the parse within one read, not after every run of it
// (20,000 runs went on for 1.3 s, past the signal watcher's grace, which then
// ended the process wherever it was).
func TestImportStopsParsingWhenInterrupted(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), 100\n[READ], Operations, 1000\n[READ], AverageLatency(us), %d\n[READ], Return=OK, 1000\n", 500+i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ss, err := summariesOf(ctx, []source{{"big.txt", []byte(b.String())}}, "w")
	if !errors.Is(err, context.Canceled) || len(ss) != 0 {
		t.Errorf("summaries of a cancelled import: %d, %v; want none and context.Canceled", len(ss), err)
	}
}
