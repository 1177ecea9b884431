package servercost

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// refusing answers every request as an info server that will not serve
// regress does: 401 with the given challenges (none: 403).
func refusing(challenges ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if len(challenges) == 0 {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		for _, c := range challenges {
			w.Header().Add("WWW-Authenticate", c)
		}
		http.Error(w, "Authentication required", http.StatusUnauthorized)
	})
}

// testServer starts handler over plain HTTP or TLS, its own log (a plain
// request's "TLS handshake error") kept out of the test's output.
func testServer(handler http.Handler, overTLS bool) *httptest.Server {
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if overTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	return srv
}

// TestFindJMXSaysWhyAnInfoServerIsNotRead: an info server that asks for
// SPNEGO, for another authentication or refuses the read, or that speaks
// TLS with a certificate the system's roots do not trust, gives a note
// naming it and what it asked (a *NotReadError), over plain HTTP and TLS
// alike; verification is never turned off to read it.
func TestFindJMXSaysWhyAnInfoServerIsNotRead(t *testing.T) {
	var zero int64
	cases := []struct {
		name    string
		handler http.Handler
		tls     bool
		trusted bool // the client trusts the test server's certificate
		want    string
	}{
		{"SPNEGO", refusing("Negotiate"), false, false, "asks for SPNEGO (Kerberos) authentication, which regress does not do: server cost not read on this side; see docs/clusters.md"},
		{"SPNEGO over TLS", refusing("Negotiate"), true, true, "asks for SPNEGO (Kerberos) authentication"},
		{"SPNEGO beside Basic", refusing(`Basic realm="hbase"`, "Negotiate"), false, false, "asks for SPNEGO (Kerberos) authentication"},
		{"Basic", refusing(`Basic realm="hbase"`), false, false, "asks for authentication (Basic), which regress does not do: server cost not read on this side"},
		{"403", refusing(), false, false, "refuses to serve /jmx to regress (403 Forbidden"},
		{"403 over TLS", refusing(), true, true, "(403 Forbidden"},
		{"TLS, untrusted certificate", jmxHandler(&zero, &zero, &zero), true, false, "speaks TLS and its certificate did not verify: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := testServer(c.handler, c.tls)
			defer srv.Close()
			client := jmxClient
			if c.trusted {
				client = srv.Client()
			}
			addr := srv.Listener.Addr().String()
			_, err := findJMX(context.Background(), client, addr)
			var nr *NotReadError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want a NotReadError saying %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "info server "+addr+" ") {
				t.Errorf("%q: want it to name info server %s", err, addr)
			}
		})
	}
}

// TestFindJMXFindsTLS: a plain info server is read as it is; one that
// speaks TLS (hbase.ssl.enabled) with a trusted certificate is read over
// https, its readings and InfoSource's line as any other's; one that does
// not answer is an error of its own, not a note.
func TestFindJMXFindsTLS(t *testing.T) {
	cpu, flushes, alloc := int64(2_000_000_000), int64(1), int64(1<<20)
	plain := testServer(jmxHandler(&cpu, &flushes, &alloc), false)
	defer plain.Close()
	addr := plain.Listener.Addr().String()
	if at, err := FindJMX(context.Background(), addr); err != nil || at != addr {
		t.Errorf("plain HTTP: %q, %v; want %q", at, err, addr)
	}

	srv := testServer(jmxHandler(&cpu, &flushes, &alloc), true)
	defer srv.Close()
	saved := jmxClient
	jmxClient = srv.Client()
	defer func() { jmxClient = saved }()
	addr = srv.Listener.Addr().String()
	at, err := FindJMX(context.Background(), addr)
	if err != nil || at != "https://"+addr {
		t.Fatalf("TLS: %q, %v; want https://%s", at, err, addr)
	}
	s := Server{Name: "region server tls", JMX: at}
	r, err := s.Read()
	if err != nil || r.CPU != 2*time.Second {
		t.Errorf("reading over TLS: %+v, %v; want 2s of CPU", r, err)
	}
	if src, err := InfoSource(context.Background(), addr); err != nil || !strings.Contains(src, "process over TLS") {
		t.Errorf("InfoSource over TLS: %q, %v", src, err)
	}

	_, err = FindJMX(context.Background(), "127.0.0.1:1")
	var nr *NotReadError
	if err == nil || errors.As(err, &nr) {
		t.Errorf("nothing listening: %v, want an error that is no NotReadError", err)
	}
}

func TestInfoURLIsTheBaseOfTheInfoServersPages(t *testing.T) {
	for _, tc := range []struct {
		s    Server
		want string
	}{
		{Server{JMX: "rs1:16030"}, "http://rs1:16030"},
		{Server{JMX: "https://rs1:16030"}, "https://rs1:16030"},
		{Server{PID: 42}, ""},
	} {
		if got := tc.s.InfoURL(); got != tc.want {
			t.Errorf("InfoURL of %+v = %q, want %q", tc.s, got, tc.want)
		}
	}
}
