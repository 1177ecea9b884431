package ycsbfmt

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func histOf(vals ...int64) *hdr.Histogram {
	h := hdr.New(1, 60_000_000, 3)
	for _, v := range vals {
		if err := h.RecordValue(v); err != nil {
			panic(err)
		}
	}
	return h
}

// spread returns n values from lo rising by step, a deterministic latency sample.
func spread(n int, lo, step int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = lo + int64(i)*step
	}
	return out
}

// fixedResult is a workload F-like run: reads, updates and read-modify-writes,
// some reads NOT_FOUND and one update failed (their latencies in the failed
// histograms, as the recorder keeps them), intended latencies above service.
func fixedResult() *loadgen.Result {
	r := &loadgen.Result{TargetRate: 500, Rate: 500, Duration: 20012 * time.Millisecond, Ops: 2000}
	add := func(op workload.Op, ok, notFound, failed int64, base, step int64) {
		bad := int(notFound + failed)
		r.PerOp[op] = &loadgen.OpResult{Op: op,
			Service: histOf(spread(int(ok), base, step)...), Intended: histOf(spread(int(ok), base+50, step+2)...),
			FailedService: histOf(spread(bad, base/2, 1)...), FailedIntended: histOf(spread(bad, base/2+50, 1)...),
			Statuses: [3]int64{ok, notFound, failed}}
	}
	add(workload.Read, 995, 5, 0, 200, 3)
	add(workload.Update, 499, 0, 1, 400, 7)
	add(workload.ReadModifyWrite, 499, 0, 1, 700, 11)
	return r
}

func TestWriteTextMatchesGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		iv   Interval
		pct  []float64
	}{
		{"op", MeasureOp, DefaultPercentiles},
		{"intended", MeasureIntended, DefaultPercentiles},
		{"both", MeasureBoth, []float64{50, 95, 99, 99.9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := FromResult(fixedResult(), tc.iv).WriteText(&b, tc.pct); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "workloadf-"+tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, b.String(), want)
			}
		})
	}
}

// TestWriteTextReadsBackWithImporter checks that regress's own YCSB importer
// reads every figure we print, in each measurement.interval mode.
func TestWriteTextReadsBackWithImporter(t *testing.T) {
	res := fixedResult()
	for _, iv := range []Interval{MeasureOp, MeasureIntended, MeasureBoth} {
		var b bytes.Buffer
		rep := FromResult(res, iv)
		if err := rep.WriteText(&b, []float64{50, 95, 99, 99.9}); err != nil {
			t.Fatal(err)
		}
		runs, err := ParseText("ours", &b)
		if err != nil {
			t.Fatalf("%v: %v", iv, err)
		}
		if len(runs) != 1 {
			t.Fatalf("%v: %d runs, want 1", iv, len(runs))
		}
		run := runs[0]
		if run.RunTimeMillis != 20012 || math.Abs(run.ThroughputOpsPerSec-rep.Throughput()) > 1e-9 || run.Format != Format04 {
			t.Errorf("%v: overall %d ms, %v ops/s, format %s; want 20012 ms, %v ops/s, %s", iv, run.RunTimeMillis, run.ThroughputOpsPerSec, run.Format, rep.Throughput(), Format04)
		}
		for _, o := range res.PerOp {
			if o == nil {
				continue
			}
			name := o.Op.String()
			got := run.Ops[name]
			if got == nil {
				t.Fatalf("%v: importer found no %s block", iv, name)
			}
			h := o.Service
			if iv == MeasureIntended {
				h = o.Intended
			}
			checkOp(t, iv.String()+" "+name, got, h)
			if got.Statuses["OK"] != o.Statuses[0] || got.Statuses["NOT_FOUND"] != o.Statuses[1] || got.Statuses["ERROR"] != o.Statuses[2] {
				t.Errorf("%v %s: statuses %v, want %v", iv, name, got.Statuses, o.Statuses)
			}
			if iv == MeasureBoth {
				if got.Intended == nil {
					t.Fatalf("both %s: importer found no Intended- block", name)
				}
				checkOp(t, "both Intended-"+name, got.Intended, o.Intended)
			} else if got.Intended != nil {
				t.Errorf("%v %s: unexpected Intended- block", iv, name)
			}
		}
	}
}

func checkOp(t *testing.T, what string, got *Op, h *hdr.Histogram) {
	t.Helper()
	if got.Count != h.TotalCount() || math.Abs(got.MeanMicros-h.Mean()) > 1e-9 ||
		got.MinMicros != float64(h.Min()) || got.MaxMicros != float64(h.Max()) {
		t.Errorf("%s: count %d mean %v min %v max %v; want %d %v %d %d", what, got.Count, got.MeanMicros, got.MinMicros, got.MaxMicros,
			h.TotalCount(), h.Mean(), h.Min(), h.Max())
	}
	for _, p := range []float64{50, 95, 99, 99.9} {
		if got.PercentilesMicros[p] != float64(h.ValueAtQuantile(p)) {
			t.Errorf("%s: p%v = %v, want %d", what, p, got.PercentilesMicros[p], h.ValueAtQuantile(p))
		}
	}
}

func TestJavaDoubleFormatsLikeDoubleToString(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {938, "938.0"}, {751.3349851271859, "751.3349851271859"}, {9998.000399920016, "9998.000399920016"},
		{0.001, "0.001"}, {0.0001, "1.0E-4"}, {0.00015, "1.5E-4"}, {1e7, "1.0E7"}, {12345678.9, "1.23456789E7"},
		{9999999.5, "9999999.5"}, {-2.5, "-2.5"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {1e100, "1.0E100"},
	} {
		if got := JavaDouble(tc.in); got != tc.want {
			t.Errorf("JavaDouble(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOrdinalNamesPercentilesAsYCSB(t *testing.T) {
	for p, want := range map[float64]string{1: "1st", 2: "2nd", 3: "3rd", 11: "11th", 12: "12th", 13: "13th", 21: "21st",
		50: "50th", 95: "95th", 99: "99th", 100: "100th", 99.9: "99.9", 99.99: "99.99", 112: "112th"} {
		if got := Ordinal(p); got != want {
			t.Errorf("Ordinal(%v) = %q, want %q", p, got, want)
		}
	}
}

func TestParsePercentilesAndInterval(t *testing.T) {
	if p, err := ParsePercentiles(""); err != nil || len(p) != 3 || p[0] != 50 {
		t.Errorf(`ParsePercentiles("") = %v, %v`, p, err)
	}
	if p, err := ParsePercentiles("50, 99.9"); err != nil || len(p) != 2 || p[1] != 99.9 {
		t.Errorf("ParsePercentiles(50, 99.9) = %v, %v", p, err)
	}
	for _, bad := range []string{"50,x", "0", "101", "NaN", "95,"} {
		if _, err := ParsePercentiles(bad); err == nil || !strings.Contains(err.Error(), "hdrhistogram.percentiles") {
			t.Errorf("ParsePercentiles(%q) error = %v, want one naming the property", bad, err)
		}
	}
	for s, want := range map[string]Interval{"": MeasureOp, "op": MeasureOp, "intended": MeasureIntended, "both": MeasureBoth} {
		if got, err := ParseInterval(s); err != nil || got != want {
			t.Errorf("ParseInterval(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseInterval("Both"); err == nil {
		t.Error("ParseInterval(Both) accepted a value YCSB refuses")
	}
}

func TestThroughputFollowsYCSB(t *testing.T) {
	for _, tc := range []struct {
		rep  Report
		want float64
	}{
		{Report{RunTime: 20 * time.Second, Ops: 10000}, 500},
		{Report{RunTime: 20*time.Second + 999*time.Microsecond, Ops: 10000}, 500}, // whole ms, as YCSB
		{Report{RunTime: 500 * time.Microsecond, Ops: 1}, 2000},                   // under 1 ms: exact, not Infinity
		{Report{}, 0},
	} {
		if got := tc.rep.Throughput(); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%+v: throughput %v, want %v", tc.rep, got, tc.want)
		}
	}
}

func TestEmptyMeasurementPrintsZeros(t *testing.T) {
	var b bytes.Buffer
	rep := Report{RunTime: time.Second, Ops: 0, Measurements: []Measurement{{Name: "READ", Returns: []Return{{"ERROR", 3}}}}}
	if err := rep.WriteText(&b, []float64{99}); err != nil {
		t.Fatal(err)
	}
	want := "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 0.0\n[READ], Operations, 0\n[READ], AverageLatency(us), 0.0\n" +
		"[READ], MinLatency(us), 0\n[READ], MaxLatency(us), 0\n[READ], 99thPercentileLatency(us), 0\n[READ], Return=ERROR, 3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
