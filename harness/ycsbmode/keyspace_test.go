package ycsbmode

import (
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
)

// `regress ycsb load|run -p insertstart=<near int64's maximum>` is refused
// (exit 2) before it connects, saying the key numbers would wrap; it ran
// and drew negative key numbers.
func TestYCSBRefusesKeyNumbersThatWouldWrap(t *testing.T) {
	for _, tc := range []struct {
		phase string
		props []string
	}{
		{Load, []string{"insertstart=9223372036854775800", "recordcount=9223372036854775807", "operationcount=1"}},
		{Run, []string{"insertstart=9223372036854775000", "recordcount=9223372036854775807", "operationcount=1000", "insertproportion=0.5", "readproportion=0.5", "requestdistribution=zipfian"}},
		{Run, []string{"recordcount=9223372036854775807", "insertcount=10", "operationcount=1000", "insertproportion=1", "readproportion=0"}},
	} {
		args := []string{"--zk", "h:1", "-p", "columnfamily=f"}
		for _, p := range tc.props {
			args = append(args, "-p", p)
		}
		a, err := ParseArgs(tc.phase, args)
		if err != nil {
			t.Fatal(err)
		}
		_, err = readPhase(tc.phase, a)
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "(2^62), the largest key number regress hands out") {
			t.Errorf("ycsb %s %v: %v, want a usage error saying the key numbers would wrap", tc.phase, tc.props, err)
		}
	}
}
