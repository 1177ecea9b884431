package job

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/hbase"
)

// TestDoctorSaysWhyAnInfoServerIsNotRead: doctor's line for a region server
// whose info server asks for SPNEGO, refuses the read or answers is the
// note a run gives (the same words), or what a trial reads of it.
func TestDoctorSaysWhyAnInfoServerIsNotRead(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"SPNEGO", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("WWW-Authenticate", "Negotiate")
			w.WriteHeader(http.StatusUnauthorized)
		}, "asks for SPNEGO (Kerberos) authentication, which regress does not do: server cost not read on this side; see docs/clusters.md"},
		{"403", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) }, "refuses to serve /jmx to regress (403 Forbidden"},
		{"answers", func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.RawQuery, "OperatingSystem") {
				w.Write([]byte(`{"beans":[{"ProcessCpuTime":1}]}`))
				return
			}
			w.Write([]byte(`{"beans":[]}`))
		}, "process (no agent on it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			addr := srv.Listener.Addr().String()
			got := costSource(context.Background(), hbase.InfoServer{Server: "rs1:16020", Info: addr})
			if !strings.Contains(got, c.want) {
				t.Errorf("%q, want it to say %q", got, c.want)
			}
			if c.name != "answers" && !strings.HasPrefix(got, "none: info server "+addr+" ") {
				t.Errorf("%q: want it to start \"none: info server %s\"", got, addr)
			}
		})
	}
	if got := costSource(context.Background(), hbase.InfoServer{Server: "rs1:16020"}); !strings.Contains(got, "runs no info server") {
		t.Errorf("no info server: %q", got)
	}
}
