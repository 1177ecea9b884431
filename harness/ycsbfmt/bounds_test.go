package ycsbfmt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// hostileHdr is a small YCSB .hdr log whose every interval declares a
// histogram of 1..2^62 at 5 significant digits: 48 MiB of counts each.
func hostileHdr(t *testing.T, intervals int) []byte {
	t.Helper()
	h := hdr.New(1, 1<<62, 5)
	_ = h.RecordValue(1000)
	p, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("#[Histogram log format version 1.3]\n#[StartTime: 1489406467 (seconds since epoch)]\n")
	b.WriteString("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n")
	for i := range intervals {
		fmt.Fprintf(&b, "%d.000,1.000,1.000,%s\n", i, p)
	}
	return []byte(b.String())
}

func TestHostileHdrGeometryIsRefusedBeforeAllocating(t *testing.T) {
	log := hostileHdr(t, 200)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := ParseHdrLog("READ.hdr", strings.NewReader(string(log)))
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "significant digits needs") {
		t.Fatalf("ParseHdrLog of 1..2^62 at 5 digits: %v, want the geometry refused", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 || took > 2*time.Second {
		t.Errorf("refusing a %d KiB log took %v and %d MiB", len(log)>>10, took, alloc>>20)
	}
}

func TestImportRefusesDevicesAndFilesBeyondItsBound(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxImportFile + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	for path, want := range map[string]string{"/dev/zero": "is a character device", big: "beyond the 256 MiB one imported file may hold"} {
		done := make(chan error, 1)
		go func() { _, err := readInput(context.Background(), path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s was read instead of refused", path)
		}
	}
}

// cancelAfter is a context that reports itself cancelled from its n+1-th
// Err call on: it interrupts Import at a chosen point, between its steps.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

func TestAnInterruptedImportLeavesNoEmptyEntry(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	spec := ImportSpec{Dir: store, Version: "2.6.1", Workload: "workloada", Suite: "ycsb-import"}
	// One Err call after reading the file; the next, once the entry exists, says interrupted.
	ctx := &cancelAfter{Context: context.Background(), n: 1}
	var out strings.Builder
	err := Import(ctx, &out, []string{fixture("ycsb-0.17-workloada.txt")}, spec)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("Import: %v, want it interrupted", err)
	}
	if entries, _ := filepath.Glob(filepath.Join(store, "*", "*")); len(entries) > 0 {
		t.Errorf("an interrupted import left %v", entries)
	}
}

// An output of thousands of operation types reads in time linear in them:
// each operation's failure blocks were looked up over every pair of
// operations (1000 types: 49 s for a 56 KB file).
func TestManyOperationTypesReadInLinearTime(t *testing.T) {
	const n = 1200
	var b strings.Builder
	fmt.Fprintf(&b, "[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), %d\n", n)
	for i := range n {
		fmt.Fprintf(&b, "[OP%d], Operations, 10\n[OP%d], AverageLatency(us), 500\n[OP%d], 99thPercentileLatency(us), 1000\n[OP%d], Return=OK, 10\n", i, i, i, i)
	}
	b.WriteString("[OP7-FAILED], Operations, 2\n[OP7-FAILED], AverageLatency(us), 900\n")
	start := time.Now()
	runs, err := ParseBytes("many.txt", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d operation types took %v to read, want well under 5 s", n, d)
	}
	if got := len(runs[0].Ops); got != n+1 {
		t.Errorf("%d operations read, want %d", got, n+1)
	}
	if base := runs[0].failureOf("OP7-FAILED"); base != "OP7" {
		t.Errorf("OP7-FAILED measures the failures of %q, want OP7", base)
	}
}

// A .hdr log's times must be a run's: 1e20 read as 1970 (its "1"), -1e18
// and NaN were passed over and stored as the year 1, and a start past the
// year 9999 failed in the manifest's JSON.
func TestHdrTimesBeyondAnyRunAreRefused(t *testing.T) {
	b, err := os.ReadFile(fixture("ycsb-0.17-workloada-READ.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	for _, tc := range []struct{ name, log, want string }{
		{"StartTime 1e20", strings.Replace(good, "StartTime: 1489406467", "StartTime: 1e20", 1), "StartTime 1e20 is no time"},
		{"StartTime -1e18", strings.Replace(good, "StartTime: 1489406467", "StartTime: -1e18", 1), "StartTime -1e18 is no time"},
		{"StartTime NaN", strings.Replace(good, "StartTime: 1489406467", "StartTime: NaN", 1), "StartTime NaN is no time"},
		{"StartTime past the year 9999", strings.Replace(good, "StartTime: 1489406467", "StartTime: 253402300800", 1), "StartTime 253402300800 is no time"},
		{"an interval at 1e20", strings.Replace(good, "\n0.003000,", "\n1e20,", 1), "interval start and length must be numbers of seconds"},
		{"BaseTime before 1970", strings.Replace(good, "#[StartTime", "#[BaseTime: -5]\n#[StartTime", 1), "BaseTime -5 is no time"},
	} {
		if _, err := ParseBytes("READ.hdr", []byte(tc.log)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	runs, err := ParseBytes("READ.hdr", b)
	if err != nil || runs[0].StartUnixMillis != 1489406467003 {
		t.Errorf("the fixture: %v, start %d", err, runs[0].StartUnixMillis)
	}
}
