package metric

import (
	"strings"
	"testing"
)

func TestParseSelector(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Selector
		err  string
	}{
		{"p99", Selector{"*", "*", "p99"}, ""},
		{"READ/p95", Selector{"*", "READ", "p95"}, ""},
		{"workloada/UPDATE/p99.9", Selector{"workloada", "UPDATE", "p99.9"}, ""},
		{"*/ALL/throughput", Selector{"*", "ALL", "throughput"}, ""},
		{"p42", Selector{}, "unknown metric"},
		{"a/b/c/d", Selector{}, "4 parts"},
		{"READ/", Selector{}, "empty part"},
	} {
		got, err := ParseSelector(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	if s, _ := ParseSelector("read/p95"); !s.Matches("workloadb", "READ", "p95") || s.Matches("workloadb", "UPDATE", "p95") {
		t.Error("read/p95 must match READ's p95 in any workload, and nothing else")
	}
}
