package sut

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/hbase"
)

// infoServer starts an info server answering /jmx with handler, over TLS
// or not, its log (a plain request's "TLS handshake error") kept quiet.
func infoServer(t *testing.T, handler http.HandlerFunc, overTLS bool) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if overTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func answering(w http.ResponseWriter, _ *http.Request) {
	io.WriteString(w, `{"beans":[{"name":"java.lang:type=OperatingSystem","ProcessCpuTime":1}]}`)
}

func spnego(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("WWW-Authenticate", "Negotiate")
	http.Error(w, "Authentication required", http.StatusUnauthorized)
}

func forbidden(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "Forbidden", http.StatusForbidden)
}

// TestInfoServersThatWillNotAnswerLeaveANote: a side of a cluster regress
// did not start whose info servers ask for SPNEGO, refuse the read (403) or
// speak TLS with a certificate this machine does not trust has no server
// cost and a note naming the info server and why, never an error; info
// servers that answer (or do not answer at all) are kept as found.
func TestInfoServersThatWillNotAnswerLeaveANote(t *testing.T) {
	plain := infoServer(t, answering, false)
	cases := []struct {
		name  string
		infos []hbase.InfoServer
		note  string
	}{
		{"answers", []hbase.InfoServer{{Server: "a:16020", Info: plain}}, ""},
		{"does not answer: kept, each reading says so", []hbase.InfoServer{{Server: "a:16020", Info: "127.0.0.1:1"}}, ""},
		{"SPNEGO", []hbase.InfoServer{{Server: "a:16020", Info: plain}, {Server: "b:16020", Info: infoServer(t, spnego, false)}},
			"server cost not available: info server 127.0.0.1:"},
		{"403", []hbase.InfoServer{{Server: "a:16020", Info: infoServer(t, forbidden, false)}}, "refuses to serve /jmx to regress (403 Forbidden"},
		{"TLS, untrusted", []hbase.InfoServer{{Server: "a:16020", Info: infoServer(t, answering, true)}}, "speaks TLS and its certificate did not verify"},
		{"two SPNEGO", []hbase.InfoServer{{Server: "a:16020", Info: infoServer(t, spnego, false)}, {Server: "b:16020", Info: infoServer(t, spnego, false)}},
			"(and 1 other info server not read either)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			servers, note := serversOf(context.Background(), c.infos)
			if c.note == "" {
				if note != "" || len(servers) != len(c.infos) || servers[0].JMX != c.infos[0].Info {
					t.Fatalf("servers %+v, note %q: want every info server kept as found", servers, note)
				}
				return
			}
			if servers != nil || !strings.Contains(note, c.note) {
				t.Fatalf("servers %+v, note %q: want none and a note saying %q", servers, note, c.note)
			}
		})
	}
	_, note := serversOf(context.Background(), []hbase.InfoServer{{Server: "b:16020", Info: infoServer(t, spnego, false)}})
	if !strings.HasSuffix(note, "asks for SPNEGO (Kerberos) authentication, which regress does not do: server cost not read on this side; see docs/clusters.md") {
		t.Errorf("SPNEGO note %q", note)
	}
}
