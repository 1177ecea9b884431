package job

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestLogFieldsAreReadable: a map of figures is logged as a group of its
// keys (not one Go map[...] value) and floats at 4 significant digits, in
// both formats.
func TestLogFieldsAreReadable(t *testing.T) {
	for _, tc := range []struct{ format, want, not string }{
		{"text", "server_cpu_per_op_us.0/workloada=12.34 server_cpu_per_op_us.1/workloada=0.001235 ratio=1.1", "map["},
		{"json", `"server_cpu_per_op_us":{"0/workloada":12.34,"1/workloada":0.001235},"ratio":1.1`, "999999"},
	} {
		var b bytes.Buffer
		log := NewLogger(WithLogFormat(context.Background(), tc.format), &b, false)
		log.Info("warm-up round done", "server_cpu_per_op_us", map[string]float64{"1/workloada": 0.0012345678, "0/workloada": 12.339999999999998}, "ratio", 1.0999999999999999)
		if !strings.Contains(b.String(), tc.want) || strings.Contains(b.String(), tc.not) {
			t.Errorf("%s: %s\nwant it to hold %s", tc.format, b.String(), tc.want)
		}
	}
}
