package cluster

import "testing"

// TestInfoPortInLog reads the port 0.98's region server info server took
// from the line Jetty logs as it unpacks the web app (as seen in a 0.98.0
// standalone's log), the last one when the log holds several starts.
func TestInfoPortInLog(t *testing.T) {
	for _, tc := range []struct{ log, want string }{
		{"2026-12-07T13:20:05,533 INFO  [main] mortbay.log: Extract jar:file:/root/.cache/regress/hbase/0.98.0-hadoop2/lib/hbase-server-0.98.0-hadoop2.jar!/hbase-webapps/regionserver to /tmp/Jetty_0_0_0_0_35925_regionserver____calw3q/webapp\n", "35925"},
		{"x /tmp/Jetty_0_0_0_0_1111_regionserver____a/webapp\ny /tmp/Jetty_127_0_0_1_2222_regionserver____b/webapp\n", "2222"},
		{"x /tmp/Jetty_0_0_0_0_3333_master____a/webapp\n", ""},
		{"", ""},
	} {
		if got := infoPortInLog([]byte(tc.log)); got != tc.want {
			t.Errorf("infoPortInLog(%q) = %q, want %q", tc.log, got, tc.want)
		}
	}
	for v, want := range map[string]bool{"0.98.0-hadoop2": true, "0.98.24": true, "1.7.2": false, "2.6.1-hadoop3": false} {
		if got := randomInfoPort(v); got != want {
			t.Errorf("randomInfoPort(%q) = %v, want %v", v, got, want)
		}
	}
}
