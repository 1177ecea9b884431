package workload

import (
	"strings"
	"testing"
)

// Key numbers near int64's maximum were taken and wrapped: insertstart
// 9223372036854775800 drew zipfian keys of -9223372036854775519, and a run
// phase's inserts counted from recordcount past the maximum. Every key
// range now ends at 2^62 at most, refused with what to give instead.
func TestKeyNumbersNearInt64MaxAreRefused(t *testing.T) {
	tests := []struct {
		name string
		kv   []string
		want string // "" accepted
	}{
		{"a near-max insertstart", []string{"insertstart", "9223372036854775800", "recordcount", "9223372036854775807"},
			"insertstart=9223372036854775800 + insertcount=7 reaches past 4611686018427387904 (2^62)"},
		{"insertstart plus insertcount past int64", []string{"insertstart", "9223372036854775800", "insertcount", "100", "recordcount", "9223372036854775807"},
			"insertstart=9223372036854775800 + insertcount=100 reaches past"},
		{"zipfian near the maximum", []string{"insertstart", "9223372036854775000", "recordcount", "9223372036854775807", "requestdistribution", "zipfian", "insertproportion", "0.5"},
			"reaches past 4611686018427387904"},
		{"a near-max recordcount for the run's inserts", []string{"recordcount", "9223372036854775807", "insertstart", "0", "insertcount", "10", "insertproportion", "0.5"},
			"recordcount=9223372036854775807 is past 4611686018427387904 (2^62)"},
		{"insertstart past recordcount, insertcount by default", []string{"insertstart", "9223372036854775800", "recordcount", "100"},
			"insertstart=9223372036854775800 is past recordcount=100, so insertcount's default"},
		{"the last range allowed", []string{"insertstart", "4611686018427387900", "insertcount", "4", "recordcount", "4611686018427387904"}, ""},
		{"one past it", []string{"insertstart", "4611686018427387900", "insertcount", "5", "recordcount", "4611686018427387904"}, "reaches past 4611686018427387904"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(props(append([]string{"operationcount", "1000"}, tc.kv...)...))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err %v, want one saying %q", err, tc.want)
			}
		})
	}
}
