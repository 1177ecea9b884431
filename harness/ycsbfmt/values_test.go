package ycsbfmt

import (
	"strings"
	"testing"
)

// TestBadValuesAreRefusedOrNoted: no value is dropped without a word.
func TestBadValuesAreRefusedOrNoted(t *testing.T) {
	head := "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 100\n[READ], Operations, 100\n"
	for _, tc := range []struct {
		name, input string
		err, note   string
	}{
		{"NaN average", head + "[READ], AverageLatency(us), NaN\n", "", "line 4: [READ] AverageLatency(us) NaN is not a usable latency"},
		{"Inf percentile", head + "[READ], 99thPercentileLatency(us), Inf\n", "", "line 4: [READ] 99thPercentileLatency(us) Inf"},
		{"absurd max", head + "[READ], MaxLatency(us), 1e308\n", "", "MaxLatency(us) 1e308 is not a usable latency"},
		{"negative latency", head + "[READ], 95thPercentileLatency(us), -500\n", "in.txt:4: a latency cannot be negative", ""},
		{"negative average", head + "[READ], AverageLatency(ms), -1\n", "in.txt:4: a latency cannot be negative", ""},
		{"negative throughput", "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), -5\n[READ], Operations, 1\n", "in.txt:2: throughput must be a non-negative number", ""},
		{"NaN throughput", "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), NaN\n[READ], Operations, 1\n", "in.txt:2: throughput must be", ""},
		{"only overall", "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 100\n", "in.txt:1: this run has only [OVERALL] figures", ""},
		// A placeholder of an operation that never ran is no loss.
		{"NaN of an empty op", "[OVERALL], RunTime(ms), 1000\n[READ], Operations, 0\n[READ], AverageLatency(us), NaN\n[READ], MinLatency(us), 9223372036854775807\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := ParseText("in.txt", strings.NewReader(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(runs[0].Notes, "\n")
			if tc.note == "" && notes != "" || !strings.Contains(notes, tc.note) {
				t.Fatalf("notes = %q, want %q", notes, tc.note)
			}
		})
	}
}
