package ycsbfmt

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16LE encodes s as Windows PowerShell's `>` writes it, with or without its byte order mark.
func utf16LE(s string, bom bool) string {
	var b []byte
	if bom {
		b = append(b, 0xff, 0xfe)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// TestBucketsKeepAMedianBelowOneMillisecond: YCSB 0.1.x's 1 ms buckets with
// most reads in bucket 0 give a median known to be below 1 ms, not none.
func TestBucketsKeepAMedianBelowOneMillisecond(t *testing.T) {
	in := "[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), 10\n[READ], Operations, 100\n[READ], AverageLatency(ms), 0.4\n" +
		"[READ], Return=0, 100\n[READ], 0, 90\n[READ], 1, 8\n[READ], 2, 2\n"
	runs, err := ParseBytes("old.txt", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	st := runs[0].Trial("x", "workloadc").Ops["READ"]
	if st.Below["p50"] != 1000 || st.Intended.P99Micros != 2000 || st.Intended.P95Micros != 1000 {
		t.Errorf("below %v, p95 %v, p99 %v: want the median kept as below 1 ms, p95 1 ms, p99 2 ms", st.Below, st.Intended.P95Micros, st.Intended.P99Micros)
	}
}

// TestDamagedTextIsReadRightOrRefused: YCSB text that was damaged (a byte
// order mark, two runs pasted into one, counts that contradict each other,
// a line without end, another encoding) is read right or refused naming the
// line, never stored with a figure lost or mixed.
func TestDamagedTextIsReadRightOrRefused(t *testing.T) {
	const run = "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 100\n" +
		"[READ], Operations, 100\n[READ], AverageLatency(us), 500\n[READ], 50thPercentileLatency(us), 400\n[READ], Return=OK, 100\n"
	for _, tc := range []struct {
		name, input string
		err         string // "" when it must read
		runs        int
	}{
		{name: "UTF-8 byte order mark", input: "\ufeff" + run, runs: 1},
		{name: "byte order mark of a second file joined with cat", input: "\ufeff" + run + "\ufeff" + run, runs: 2},
		{name: "a [READ] block twice", input: run + "[READ], Operations, 100\n[READ], 50thPercentileLatency(us), 900\n[READ], Return=OK, 100\n",
			err: "in.txt:7: [READ] Operations is given a second time in this run (first at line 3)"},
		{name: "Operations 0 beside latencies", input: strings.Replace(run, "Operations, 100", "Operations, 0", 1),
			err: "in.txt:4: [READ] gives a latency, but its Operations (line 3) is 0"},
		{name: "Return=OK above the count", input: strings.Replace(run, "Return=OK, 100", "Return=OK, 150", 1),
			err: "in.txt:6: [READ] counts more successful operations than its Operations, 100 (line 3)"},
		{name: "statuses above the count", input: run + "[READ], Return=ERROR, 7\n",
			err: "in.txt:7: [READ]'s Return= lines count 107 operations, more than its Operations, 100 (line 3)"},
		// CI's fuzz run found it: statuses with only an Intended- block's count.
		{name: "statuses above the Intended- block's count", input: "[Intended-READ], Operations, 1\n[READ], Return=OK, 11\n",
			err: "in.txt:2: [READ] counts more successful operations than its Operations, 1 (line 1)"},
		// YCSB counts a failed READ's status under [READ] and its latency under [READ-FAILED].
		{name: "failures measured apart", input: strings.Replace(run, "Return=OK, 100", "Return=OK, 100\n[READ], Return=ERROR, 7", 1) +
			"[READ-FAILED], Operations, 7\n[READ-FAILED], AverageLatency(us), 900\n", runs: 1},
		{name: "a line over 1 MiB", input: run + strings.Repeat("x", maxLine+1) + "\n",
			err: "in.txt:7: the line is longer than 1 MiB, the most one line may hold"},
		// Issue 29's second probe round: these were stored as they were (exit 0).
		{name: "a p99 below the median", input: strings.Replace(run, "[READ], Return=OK", "[READ], 99thPercentileLatency(us), 3\n[READ], Return=OK", 1),
			err: "in.txt:6: [READ]'s 99th percentile, 3 µs, is below its 50th percentile, 400 µs (line 5)"},
		{name: "a p95 below the median in milliseconds", input: strings.Replace(run, "50thPercentileLatency(us), 400", "50thPercentileLatency(ms), 4\n[READ], 95thPercentileLatency(ms), 2", 1),
			err: "in.txt:6: [READ]'s 95th percentile, 2000 µs, is below its 50th percentile, 4000 µs (line 5)"},
		{name: "a p95 printed as 0 ms (below 1 ms) above a 400 µs median", input: strings.Replace(run, "50thPercentileLatency(us), 400", "50thPercentileLatency(us), 400\n[READ], 95thPercentileLatency(ms), 0\n[READ], 99thPercentileLatency(ms), 1", 1), runs: 1},
		{name: "a maximum below the minimum", input: run + "[READ], MinLatency(us), 201\n[READ], MaxLatency(us), 1\n",
			err: "in.txt:8: [READ]'s maximum latency, 1 µs, is below its minimum, 201 µs (line 7)"},
		// min = max = 500 beside a median of 400 was read: a minimum above a percentile is damage now.
		{name: "a minimum at the median", input: run + "[READ], MinLatency(us), 400\n[READ], MaxLatency(us), 500\n", runs: 1},
		{name: "a minimum above the median", input: run + "[READ], MinLatency(us), 900\n",
			err: "in.txt:7: [READ]'s minimum latency, 900 µs, is above its 50th percentile, 400 µs (line 5)"},
		{name: "a minimum below 1 ms printed as 0 ms", input: run + "[READ], MinLatency(ms), 0\n", runs: 1},
		{name: "a run of the client's teardown only", input: "[OVERALL], RunTime(ms), 1000\n[CLEANUP], Operations, 1\n[CLEANUP], AverageLatency(us), 500\n",
			err: "this run measured only [CLEANUP]"},
		{name: "markup as an operation name", input: strings.ReplaceAll(run, "[READ]", "[<img src=x onerror=alert(1)>]"),
			err: "in.txt:3: [<img src=x onerror=alert(1)>] is no measurement name YCSB prints"},
		{name: "an operation name with a space", input: run + "[READ ALL], Operations, 5\n", err: "in.txt:7: [READ ALL] is no measurement name"},
		// Issue 40: figures lost or blended without a word.
		{name: "an Intended- block of an Intended- block", input: run + "[Intended-Intended-READ], Operations, 1\n",
			err: "in.txt:7: [Intended-Intended-READ] is no block YCSB prints"},
		{name: "latencies with no Operations line", input: strings.Replace(strings.Replace(run, "[READ], Operations, 100\n", "", 1), "[READ], Return=OK, 100\n", "", 1),
			err: "in.txt:3: [READ] gives latencies but no Operations line"},
		{name: "latencies counted by their statuses", input: strings.Replace(run, "[READ], Operations, 100\n", "", 1), runs: 1},
		{name: "the median twice, spelt two ways", input: run + "[READ], 50.0thPercentileLatency(us), 900\n",
			err: "in.txt:7: [READ] 50.0thPercentileLatency(us) is given a second time in this run (first at line 5): \"[READ], 50thPercentileLatency(us), 400\""},
		{name: "the average in µs then in ms", input: run + "[READ], AverageLatency(ms), 0.9\n",
			err: "in.txt:7: [READ] AverageLatency(ms) is given a second time in this run (first at line 4)"},
		{name: "two throughput lines", input: strings.Replace(run, "[READ], Operations", "[OVERALL], Throughput(ops/sec), 200\n[READ], Operations", 1),
			err: "in.txt:3: [OVERALL] Throughput(ops/sec) is given a second time in this run (first at line 2"},
		{name: "a maximum below the median", input: run + "[READ], MaxLatency(us), 300\n",
			err: "in.txt:7: [READ]'s maximum latency, 300 µs, is below its 50th percentile, 400 µs (line 5)"},
		{name: "an average above the maximum", input: strings.Replace(run, "AverageLatency(us), 500", "AverageLatency(us), 5000", 1) + "[READ], MaxLatency(us), 900\n",
			err: "in.txt:4: [READ]'s average latency, 5000 µs, is above its maximum, 900 µs (line 7)"},
		{name: "1e9 ops/s in a 10 s run", input: strings.Replace(strings.Replace(run, "Throughput(ops/sec), 100", "Throughput(ops/sec), 1e9", 1), "RunTime(ms), 1000", "RunTime(ms), 10000", 1),
			err: "in.txt:2: a throughput of 1000000000 ops/s over the run's 10000 ms is 10000000000 operations, but its blocks count 100"},
		{name: "a bucket of 9e18 ms", input: run + "[READ], 9000000000000000000, 1\n", err: "in.txt:7: bucket index out of range"},
		{name: "buckets above the operations", input: run + "[READ], 0, 90\n[READ], 1, 90\n",
			err: "in.txt:8: [READ]'s histogram buckets count 180 operations, more than its Operations, 100 (line 3)"},
		{name: "UTF-16 with its byte order mark", input: utf16LE(run, true), err: "in.txt: the file is UTF-16 (little-endian) text, not UTF-8"},
		{name: "UTF-16 without one", input: utf16LE(run, false), err: "convert it to UTF-8 first, e.g. `iconv -f UTF-16 -t UTF-8 in.txt > ycsb-utf8.txt`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := ParseBytes("in.txt", []byte(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != tc.runs {
				t.Fatalf("%d runs, want %d", len(runs), tc.runs)
			}
			for _, r := range runs {
				tr := r.Trial("id", "workloada")
				rd := tr.Ops["READ"]
				if r.RunTimeMillis != 1000 || rd.Count != 100+rd.Errors || rd.Service.P50Micros != 400 || rd.Service.MeanMicros != 500 {
					t.Fatalf("run read as runtime %d, READ %+v", r.RunTimeMillis, rd)
				}
			}
		})
	}
}
