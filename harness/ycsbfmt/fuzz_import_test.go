package ycsbfmt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// issue40Inputs are the probes of issue 40 that were stored losing or
// blending figures: each must now be read right or refused.
var issue40Inputs = []string{
	"[OVERALL], RunTime(ms), 1000\n[READ], Operations, 100\n[READ], 50thPercentileLatency(us), 400\n[Intended-Intended-READ], Operations, 1\n",
	"[READ], AverageLatency(us), 500\n[READ], 50thPercentileLatency(us), 400\n",
	"[READ], Operations, 100\n[READ], 50thPercentileLatency(us), 400\n[READ], 50.0thPercentileLatency(us), 900\n",
	"[READ], Operations, 100\n[READ], AverageLatency(us), 400\n[READ], AverageLatency(ms), 0.9\n",
	"[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), 10\n[OVERALL], Throughput(ops/sec), 20\n[READ], Operations, 100\n",
	"[OVERALL], RunTime(ms), 10000\n[OVERALL], Throughput(ops/sec), 1e9\n[READ], Operations, 100\n[READ], AverageLatency(us), 4\n",
	"[READ], Operations, 100\n[READ], 50thPercentileLatency(us), 400\n[READ], MaxLatency(us), 300\n",
	"[READ], Operations, 100\n[READ], AverageLatency(us), 5000\n[READ], MaxLatency(us), 900\n",
	"[READ], Operations, 100\n[READ], Return=0, 100\n[READ], 0, 90\n[READ], 1, 10\n",
	"[READ], Operations, 10\n[READ], 9000000000000000000, 1\n",
	"[READ], Operations, 10\n[READ], 0, 900\n",
}

// FuzzImportIdentity: one output as LF, CRLF and with a byte order mark is
// one import: the same summaries under the same ids, or the same refusal.
func FuzzImportIdentity(f *testing.F) {
	for _, name := range []string{"ycsb-0.17-workloada.txt", "ycsb-0.15-load-then-run-workloadc.txt", "ycsb-0.1.0-workloada.txt"} {
		b, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, in := range issue40Inputs {
		f.Add([]byte(in))
	}
	f.Add([]byte("\ufeff[OVERALL], RunTime(ms), 10\r\n[READ], Operations, 2\r\n[READ], Return=OK, 2\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = normalise(b)
		want, werr := summariesOf(context.Background(), []source{{"out.txt", b}}, "w")
		for name, v := range map[string][]byte{
			"CRLF": bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
			"BOM":  append([]byte("\xef\xbb\xbf"), b...),
		} {
			got, err := summariesOf(context.Background(), []source{{"out.txt", v}}, "w")
			if (err == nil) != (werr == nil) {
				t.Fatalf("%s: %v, LF: %v", name, err, werr)
			}
			if err != nil {
				continue
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d summaries, LF %d", name, len(got), len(want))
			}
			for i := range got {
				g, _ := json.Marshal(got[i].trial)
				w, _ := json.Marshal(want[i].trial)
				if !bytes.Equal(g, w) {
					t.Fatalf("%s: summary %d differs from LF's:\n%s\n%s", name, i, g, w)
				}
			}
		}
	})
}

// FuzzBuckets: 0.1.x's 1 ms bucket lines, read or refused: never a median
// lost when the buckets hold it, never percentiles out of order or past any
// latency, never more bucket counts than operations.
func FuzzBuckets(f *testing.F) {
	f.Add([]byte{0, 90, 1, 8, 2, 2}, uint32(100), uint16(0))
	f.Add([]byte{0, 200}, uint32(100), uint16(0))
	f.Add([]byte{5, 1, 0, 1}, uint32(2), uint16(3))
	f.Add([]byte{}, uint32(0), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, ops uint32, overflow uint16) {
		var in strings.Builder
		fmt.Fprintf(&in, "[OVERALL], RunTime(ms), 0\n[READ], Operations, %d\n", ops)
		var sum int64
		for i := 0; i+1 < len(data); i += 2 {
			fmt.Fprintf(&in, "[READ], %d, %d\n", data[i], data[i+1])
			sum += int64(data[i+1])
		}
		if overflow > 0 {
			fmt.Fprintf(&in, "[READ], >1000, %d\n", overflow)
		}
		runs, err := ParseText("b.txt", strings.NewReader(in.String()))
		if err != nil {
			return
		}
		if sum+int64(overflow) > int64(ops) {
			t.Fatalf("buckets count %d and overflow %d, above %d operations: accepted", sum, overflow, ops)
		}
		st := runs[0].Trial("x", "w").Ops["READ"]
		l := st.Service
		total := sum + int64(overflow)
		if total > 0 && 2*sum >= total && l.P50Micros == 0 && st.Below["p50"] == 0 {
			t.Fatalf("median lost: buckets %v, overflow %d: %+v", data, overflow, st)
		}
		ps := []float64{l.P50Micros, l.P95Micros, l.P99Micros, l.P999Micros}
		for i, v := range ps {
			if v < 0 || v > maxPlausible {
				t.Fatalf("percentile %v out of range: %+v", v, l)
			}
			if i > 0 && v != 0 && v < ps[i-1] {
				t.Fatalf("percentiles out of order: %v", ps)
			}
		}
	})
}

// FuzzImportOrder: a run's text output and its .hdr logs name one summary
// whatever order they are given in (or are refused whatever the order).
func FuzzImportOrder(f *testing.F) {
	text, err := os.ReadFile(fixture("ycsb-0.17-workloada.txt"))
	if err != nil {
		f.Fatal(err)
	}
	read, err := os.ReadFile(fixture("ycsb-0.17-workloada-READ.hdr"))
	if err != nil {
		f.Fatal(err)
	}
	update, err := os.ReadFile(fixture("ycsb-0.17-workloada-UPDATE.hdr"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(text, true)
	f.Add([]byte{}, false)
	f.Add([]byte("[OVERALL], RunTime(ms), 10\n[READ], Operations, 2\n"), true)
	f.Fuzz(func(t *testing.T, b []byte, withText bool) {
		srcs := []source{{"READ.hdr", read}, {"UPDATE.hdr", update}}
		if withText {
			srcs = append(srcs, source{"out.txt", b})
		}
		var want []string
		var werr error
		for i, order := range [][]int{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 2, 1}, {1, 2, 0}} {
			var in []source
			for _, j := range order {
				if j < len(srcs) {
					in = append(in, srcs[j])
				}
			}
			ss, err := summariesOf(context.Background(), in, "w")
			var ids []string
			for _, s := range ss {
				ids = append(ids, s.trial.ID)
			}
			if i == 0 {
				want, werr = ids, err
				continue
			}
			if (err == nil) != (werr == nil) || strings.Join(ids, " ") != strings.Join(want, " ") {
				t.Fatalf("order %v: %v, %v; first order: %v, %v", order, ids, err, want, werr)
			}
		}
	})
}
