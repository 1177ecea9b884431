package ycsbfmt

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func fixture(name string) string { return filepath.Join("testdata", "ycsb", name) }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

func TestParseTextFormats(t *testing.T) {
	type opWant struct {
		count, errors             int64
		mean, min, max            float64
		p50, p95, p99, p999       float64
		intendedMean, intendedP99 float64
	}
	for _, tc := range []struct {
		file       string
		format     string
		runs       int
		run        int // which run to check
		runtimeMs  int64
		throughput float64
		ops        map[string]opWant
	}{
		{file: "ycsb-0.17-workloada.txt", format: Format04, runs: 1, runtimeMs: 60012, throughput: 9998.000399920016,
			ops: map[string]opWant{
				"READ":   {count: 299876, mean: 751.3349851271859, min: 201, max: 41983, p50: 641, p95: 1526, p99: 3335, p999: 10135},
				"UPDATE": {count: 300124, errors: 3, mean: 1263.6124335274756, min: 372, max: 45887, p50: 1083, p95: 2295, p99: 4635, p999: 12799},
			}},
		{file: "ycsb-0.12-workloadb.txt", format: Format04, runs: 1, runtimeMs: 62437, throughput: 8008.072136713807,
			ops: map[string]opWant{
				"READ":   {count: 475038, mean: 1917.1276023307273, min: 170, max: 38079, p95: 4439, p99: 7955},
				"UPDATE": {count: 24962, mean: 2437.3560211521513, min: 389, max: 31199, p95: 5339, p99: 9151},
			}},
		// Percentiles in ms, averages in us; p50 and p99.9 come from the 1 ms buckets.
		{file: "ycsb-0.1.4-workloada.txt", format: Format014, runs: 1, runtimeMs: 12677, throughput: 2366.490494596513,
			ops: map[string]opWant{
				"READ":   {count: 29998, mean: 1510.3311333333333, min: 311, max: 112887, p50: 1000, p95: 3000, p99: 6000, p999: 9000},
				"UPDATE": {count: 2264, mean: 1791.6571428571428, min: 402, max: 40117, p50: 1000, p95: 3000, p99: 6000, p999: 11000},
			}},
		// Everything in ms; Return=-1 counts as an error; a 0 ms minimum is not reportable.
		{file: "ycsb-0.1.3-workloadc.txt", format: Format010, runs: 1, runtimeMs: 10214,
			ops: map[string]opWant{
				"READ": {count: 9931, errors: 3, mean: 2056.3025210084033, min: 0, max: 1412000, p50: 1000, p95: 5000, p99: 9000, p999: 13000},
			}},
		{file: "ycsb-0.1.0-workloada.txt", format: Format010, runs: 1, runtimeMs: 10110, throughput: 98.91196834817013,
			ops: map[string]opWant{
				"UPDATE": {count: 491, mean: 54.989816700611, max: 1000, p50: 0, p95: 1000, p99: 1000, p999: 1000},
				"READ":   {count: 509, mean: 94.3025540275049, max: 2000, p95: 1000, p99: 1000, p999: 2000},
			}},
		{file: "ycsb-0.5-mailquoted-workloadd.txt", format: Format04, runs: 1, runtimeMs: 100432, throughput: 9956.986617811056,
			ops: map[string]opWant{
				"READ":   {count: 950812, mean: 1201.4518737668856, min: 254, max: 188287, p95: 2119, p99: 4875, intendedMean: 1544.0291760937372, intendedP99: 9247},
				"INSERT": {count: 49188, mean: 1618.9966252744572, min: 511, max: 91007, p95: 2819, p99: 5703},
			}},
		{file: "ycsb-0.15-load-then-run-workloadc.txt", format: Format04, runs: 2, run: 1, runtimeMs: 20331, throughput: 49185.0868132,
			ops: map[string]opWant{
				"READ": {count: 1000000, errors: 13, mean: 152.112702, min: 61, max: 52415, p95: 251, p99: 512},
			}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			runs, err := ReadFile(fixture(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != tc.runs {
				t.Fatalf("%d runs, want %d", len(runs), tc.runs)
			}
			r := runs[tc.run]
			if r.Format != tc.format || r.RunTimeMillis != tc.runtimeMs || (tc.throughput != 0 && !near(r.ThroughputOpsPerSec, tc.throughput)) {
				t.Fatalf("run: format %q runtime %d throughput %v", r.Format, r.RunTimeMillis, r.ThroughputOpsPerSec)
			}
			tr := r.Trial("id1", "workloadx")
			if _, ok := tr.Ops["CLEANUP"]; ok {
				t.Error("CLEANUP kept as an operation")
			}
			if len(tr.Ops) != len(tc.ops) {
				t.Errorf("ops %v, want %d", r.OpNames(), len(tc.ops))
			}
			for name, w := range tc.ops {
				got, ok := tr.Ops[name]
				if !ok {
					t.Fatalf("op %s missing", name)
				}
				s := got.Service
				if got.Count != w.count || got.Errors != w.errors || !near(s.MeanMicros, w.mean) || s.MinMicros != w.min || s.MaxMicros != w.max ||
					s.P50Micros != w.p50 || s.P95Micros != w.p95 || s.P99Micros != w.p99 || s.P999Micros != w.p999 {
					t.Errorf("%s: got %+v / %+v, want %+v", name, got, s, w)
				}
				wantIM, wantI99 := w.intendedMean, w.intendedP99
				if wantIM == 0 {
					wantIM, wantI99 = w.mean, w.p99 // no Intended- block: service stands in
				}
				if !near(got.Intended.MeanMicros, wantIM) || got.Intended.P99Micros != wantI99 {
					t.Errorf("%s intended: %+v", name, got.Intended)
				}
			}
		})
	}
}

func TestParseTextKeepsGC(t *testing.T) {
	runs, err := ReadFile(fixture("ycsb-0.17-workloada.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := runs[0].GC["TOTAL_GC_TIME_% Time(%)"]; !near(got, 0.5198960207958408) {
		t.Fatalf("GC = %v", runs[0].GC)
	}
}

func TestParseTextErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"missing comma", "", "bad-missing-comma.txt:5: expected [NAME], label, value"},
		{"bad value", "", "bad-value.txt:3: value is not a number"},
		{"unknown label", "[OVERALL], RunTime(ms), 5\n[READ], Speed(furlongs), 3\n", "in.txt:2: unknown measurement label"},
		{"negative count", "[READ], Operations, -3\n", "in.txt:1: a count must be a non-negative number"},
		{"no closing bracket", "[READ, Operations, 3\n", "in.txt:1: measurement line without a closing ']'"},
		{"nothing", "hello\nworld\n", "no YCSB measurements found"},
		{"bad percentile", "[READ], 250thPercentileLatency(us), 3\n", "in.txt:1: percentile out of range"},
		{"measurement without comma", "[OVERALL], RunTime(ms), 5\n[main] INFO client, connected\n[UPDATE] Operations, 3\n", "in.txt:3: expected ',' after the [UPDATE] name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.input == "" {
				file := map[string]string{"missing comma": "bad-missing-comma.txt", "bad value": "bad-value.txt"}[tc.name]
				_, err = ReadFile(fixture(file))
			} else {
				_, err = ParseText("in.txt", strings.NewReader(tc.input))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	_, err := ParseText("in.txt", strings.NewReader("[READ], Operations, x\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.File != "in.txt" {
		t.Fatalf("not a ParseError with the line: %v", err)
	}
}

func TestParseHdrLogs(t *testing.T) {
	var runs []*Run
	for _, f := range []string{"ycsb-0.17-workloada-READ.hdr", "ycsb-0.17-workloada-UPDATE.hdr"} {
		got, err := ReadFile(fixture(f))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, got...)
	}
	r, err := MergeHdrRuns(runs)
	if err != nil {
		t.Fatal(err)
	}
	tr := r.Trial("h1", "workloada")
	for _, op := range []string{"READ", "UPDATE"} {
		s := tr.Ops[op]
		if s.Count != 50000 {
			t.Errorf("%s count %d, want 10 intervals x 5000", op, s.Count)
		}
		l := s.Service
		if !(l.MinMicros <= l.P50Micros && l.P50Micros <= l.P95Micros && l.P95Micros <= l.P99Micros && l.P99Micros <= l.P999Micros && l.P999Micros <= l.MaxMicros) {
			t.Errorf("%s percentiles out of order: %+v", op, l)
		}
	}
	// READ was drawn around 600 us, UPDATE around 1100 us.
	if rp, up := tr.Ops["READ"].Service.P50Micros, tr.Ops["UPDATE"].Service.P50Micros; rp < 500 || rp > 900 || up < 1000 || up > 1600 {
		t.Errorf("medians READ %v UPDATE %v", rp, up)
	}
	if r.RunTimeMillis < 9900 || r.RunTimeMillis > 10100 || tr.Start.Unix() != 1489406467 {
		t.Errorf("runtime %d start %v", r.RunTimeMillis, tr.Start)
	}
	if len(r.Histograms()) != 2 {
		t.Errorf("histograms: %d", len(r.Histograms()))
	}
	if _, err := MergeHdrRuns([]*Run{runs[0], runs[0]}); err == nil {
		t.Error("the same operation twice was merged")
	}
}

func TestParseHdrRefusesV1(t *testing.T) {
	_, err := ReadFile(fixture("ycsb-0.2-v1-READ.hdr"))
	if err == nil || !strings.Contains(err.Error(), "ycsb-0.2-v1-READ.hdr:4:") || !strings.Contains(err.Error(), "V1") {
		t.Fatalf("err = %v", err)
	}
}

func TestOpFromHdrName(t *testing.T) {
	for in, want := range map[string]string{
		"READ.hdr": "READ", "out/run1-READ-MODIFY-WRITE.hdr": "READ-MODIFY-WRITE", "Intended-UPDATE.hdr": "UPDATE*",
	} {
		op, intended, err := OpFromHdrName(in)
		if intended {
			op += "*"
		}
		if err != nil || op != want {
			t.Errorf("%s: %s %v", in, op, err)
		}
	}
	if _, _, err := OpFromHdrName("latency.hdr"); err == nil {
		t.Error("unknown op name accepted")
	}
}

func FuzzParseText(f *testing.F) {
	for _, name := range []string{"ycsb-0.17-workloada.txt", "ycsb-0.1.0-workloada.txt", "ycsb-0.5-mailquoted-workloadd.txt", "bad-value.txt"} {
		b, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("\ufeff[OVERALL], RunTime(ms), 10\n[READ], Operations, 2\n[READ], Return=OK, 2\n[READ-FAILED], Operations, 1\n"))
	f.Add([]byte(utf16LE("[READ], Operations, 1\n", true)))
	for _, in := range issue40Inputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		runs, err := ParseText("fuzz.txt", strings.NewReader(string(b)))
		if err != nil {
			return
		}
		for _, r := range runs {
			tr := r.Trial("x", "w")
			for _, op := range tr.Ops {
				if op.Count < 0 || op.Errors < 0 || math.IsNaN(op.Service.MeanMicros) || math.IsInf(op.Service.MaxMicros, 0) {
					t.Fatalf("impossible figures: %+v", op)
				}
				var statuses int64
				for _, n := range op.Statuses {
					statuses += n
				}
				// Each status is rounded on its own (averages of runs): one each of slack.
				if op.Count > 0 && statuses > op.Count+int64(len(op.Statuses)) {
					t.Fatalf("statuses %v count more than the %d operations", op.Statuses, op.Count)
				}
			}
		}
	})
}

func FuzzParseHdrLog(f *testing.F) {
	for _, name := range []string{"ycsb-0.17-workloada-READ.hdr", "ycsb-0.2-v1-READ.hdr"} {
		b, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("0,1,2,HISTFAAAAA==\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseHdrLog("READ.hdr", strings.NewReader(string(b)))
		if err != nil {
			return
		}
		if r.Ops["READ"] == nil || r.Ops["READ"].Count < 0 {
			t.Fatalf("parsed without a READ op: %+v", r)
		}
	})
}

func TestWriteHlogTagsLikeRegress(t *testing.T) {
	runs, err := ReadFile(fixture("ycsb-0.17-workloada-READ.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := runs[0].WriteHlog(&buf); err != nil {
		t.Fatal(err)
	}
	lr := hdrhistogram.NewHistogramLogReader(&buf)
	tags := map[string]int64{}
	for {
		h, err := lr.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		tags[h.Tag()] = h.TotalCount()
	}
	if len(tags) != 2 || tags["READ.service"] != 50000 || tags["READ.intended"] != 50000 {
		t.Fatalf("tags = %v", tags)
	}
}

// TestParseTextVoteThreadAverages reads output as posted in HBase vote
// threads: the average of several runs, so counts are fractional, and
// percentiles in whole milliseconds, so a fast one prints as 0.
func TestParseTextVoteThreadAverages(t *testing.T) {
	in := "[OVERALL], RunTime(ms), 600000\n[OVERALL], Throughput(ops/sec), 8331.3\n" +
		"[READ], Operations, 4998792.667\n[READ], AverageLatency(us), 612.5\n[READ], MinLatency(us), 180\n[READ], MaxLatency(us), 95231\n" +
		"[READ], 95thPercentileLatency(ms), 0\n[READ], 99thPercentileLatency(ms), 3\n[READ], Return=OK, 4998792.667\n"
	runs, err := ParseText("vote.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	o := r.Ops["READ"]
	if o.Count != 4998793 || o.OperationsReported != 4998792.667 || o.Statuses["OK"] != 4998793 {
		t.Errorf("count %d (reported %v), OK %d: want the rounding 4998793 and the printed value kept", o.Count, o.OperationsReported, o.Statuses["OK"])
	}
	if len(r.Notes) != 2 || !strings.Contains(r.Notes[0], "4998792.667") || !strings.Contains(r.Notes[0], "counted as 4998793") {
		t.Errorf("notes %q: want one per fractional count, naming the value and its rounding", r.Notes)
	}
	tr := r.Trial("x", "workloadc")
	st := tr.Ops["READ"]
	if st.Intended.P95Micros != 0 || st.Below["p95"] != 1000 || st.Intended.P99Micros != 3000 {
		t.Errorf("p95 %v below %v, p99 %v: want p95 kept as below 1 ms and p99 3 ms", st.Intended.P95Micros, st.Below, st.Intended.P99Micros)
	}
	if st.Intended.MinMicros != 180 || st.Intended.MaxMicros != 95231 {
		t.Errorf("min %v max %v, want 180 and 95231", st.Intended.MinMicros, st.Intended.MaxMicros)
	}
}

// TestTrialKeepsFailuresApart checks that YCSB's failure blocks ([READ-FAILED],
// or [READ-NOT_FOUND] and [READ-ERROR] with reportlatencyforeacherror) are
// stored as READ's failures: counted among READ's errors even where no
// Return= line counts them, their latencies apart, never an operation of
// their own nor successes of READ.
func TestTrialKeepsFailuresApart(t *testing.T) {
	head := func(ops int64) string {
		return fmt.Sprintf("[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), %g\n", float64(ops)/10)
	}
	const okRead = "[READ], Operations, 1000\n[READ], AverageLatency(us), 500\n[READ], 99thPercentileLatency(us), 1500\n[READ], Return=OK, 1000\n"
	block := func(name string, n int) string {
		return fmt.Sprintf("[%s], Operations, %d\n[%s], AverageLatency(us), 30000\n[%s], MaxLatency(us), 60000\n[%s], 99thPercentileLatency(us), 55000\n", name, n, name, name, name)
	}
	for _, tc := range []struct {
		name, text, op             string
		count, errors, failed      int64
		total                      int64 // every block's operations, when not count
		failedP99, okP99, okMeanUs float64
	}{
		{name: "failed block without Return= lines", text: okRead + block("READ-FAILED", 100),
			op: "READ", count: 1100, errors: 100, failed: 100, failedP99: 55000, okP99: 1500, okMeanUs: 500},
		{name: "failed block and Return=ERROR count once", text: okRead + "[READ], Return=ERROR, 100\n" + block("READ-FAILED", 100),
			op: "READ", count: 1100, errors: 100, failed: 100, failedP99: 55000, okP99: 1500, okMeanUs: 500},
		{name: "every read failed", text: block("READ-FAILED", 100),
			op: "READ", count: 100, errors: 100, failed: 100, failedP99: 55000},
		{name: "a block per status", text: okRead + "[READ], Return=NOT_FOUND, 60\n[READ], Return=ERROR, 40\n" + block("READ-NOT_FOUND", 60) + block("READ-ERROR", 40),
			op: "READ", count: 1100, errors: 100, failed: 100, okP99: 1500, okMeanUs: 500},
		{name: "read-modify-write's failures are its own", text: okRead + block("READ-MODIFY-WRITE-FAILED", 10),
			op: "READ-MODIFY-WRITE", count: 10, errors: 10, failed: 10, failedP99: 55000, total: 1010},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total := tc.count
			if tc.total > 0 {
				total = tc.total
			}
			runs, err := ParseText("t.txt", strings.NewReader(head(total)+tc.text))
			if err != nil {
				t.Fatal(err)
			}
			tr := runs[0].Trial("id", "w")
			for name := range tr.Ops {
				if strings.Contains(name, "-FAILED") || strings.Contains(name, "-NOT_FOUND") || strings.HasSuffix(name, "-ERROR") {
					t.Errorf("failure block stored as an operation of its own: %q", name)
				}
			}
			o, ok := tr.Ops[tc.op]
			if !ok {
				t.Fatalf("no %s in %v", tc.op, tr.Ops)
			}
			if o.Count != tc.count || o.Errors != tc.errors {
				t.Errorf("%s: count %d errors %d, want %d and %d (failures must not pass as successes)", tc.op, o.Count, o.Errors, tc.count, tc.errors)
			}
			if o.Failed == nil || o.Failed.Count != tc.failed || o.Failed.Service.P99Micros != tc.failedP99 {
				t.Errorf("%s: failed %+v, want count %d p99 %v", tc.op, o.Failed, tc.failed, tc.failedP99)
			}
			if o.Service.P99Micros != tc.okP99 || o.Service.MeanMicros != tc.okMeanUs {
				t.Errorf("%s: service p99 %v mean %v, want the successes' %v and %v", tc.op, o.Service.P99Micros, o.Service.MeanMicros, tc.okP99, tc.okMeanUs)
			}
			if tc.name == "a block per status" && o.Failed != nil && (o.Failed.Service.MeanMicros != 30000 || o.Failed.Service.MaxMicros != 60000) {
				t.Errorf("merged failures: mean %v max %v, want 30000 and 60000", o.Failed.Service.MeanMicros, o.Failed.Service.MaxMicros)
			}
		})
	}
}
