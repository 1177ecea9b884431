package servercost

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// NotReadError is an info server that answers, but not to regress: it
// speaks TLS with a certificate this machine does not trust, or asks for
// authentication (SPNEGO, another scheme) or refuses the read. Its message
// is the note a side's reports and `regress doctor` give; the side then has
// no server cost, and the run goes on.
type NotReadError struct {
	// Addr is the info server as host:port; Note says why it was not read.
	Addr, Note string
}

func (e *NotReadError) Error() string { return "info server " + e.Addr + " " + e.Note }

// FindJMX finds how the info server at addr (host:port) answers /jmx, once,
// before a side's first reading: the address to read it at (addr for plain
// HTTP, "https://"+addr for one that speaks TLS: hbase.ssl.enabled) or why
// it cannot be read: a *NotReadError, or the error of an info server that
// does not answer at all. It never turns certificate verification off: a
// TLS info server must present a certificate the system's roots trust.
func FindJMX(ctx context.Context, addr string) (string, error) {
	return findJMX(ctx, jmxClient, addr)
}

func findJMX(ctx context.Context, client *http.Client, addr string) (string, error) {
	plain, err := askJMX(ctx, client, "http://"+addr)
	if err == nil && plain.StatusCode != http.StatusBadRequest {
		return addr, accessNote(addr, plain)
	}
	// A TLS info server meets a plain request with a TLS alert, a closed
	// connection or a 400 ("HTTP request to an HTTPS server"): ask it once
	// over TLS before saying it does not answer.
	tlsResp, terr := askJMX(ctx, client, "https://"+addr)
	switch {
	case terr == nil:
		return "https://" + addr, accessNote(addr, tlsResp)
	case certificateError(terr):
		return "", &NotReadError{Addr: addr, Note: fmt.Sprintf("speaks TLS and its certificate did not verify: %v; server cost not read (regress trusts the system's roots: add the cluster's CA there, e.g. /usr/local/share/ca-certificates and update-ca-certificates, or set SSL_CERT_FILE)", unwrapURL(terr))}
	case err == nil:
		return addr, fmt.Errorf("read http://%s/jmx: %s", addr, plain.Status)
	}
	return addr, err
}

// answer is what one request's answer says of access: its status and
// authentication challenges.
type answer struct {
	StatusCode int
	Status     string
	challenges []string
}

// askJMX asks base's /jmx for the operating system bean (a small answer),
// keeping only what says whether regress may read it.
func askJMX(ctx context.Context, client *http.Client, base string) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, jmxTimeout)
	defer cancel()
	u := base + "/jmx?qry=" + url.QueryEscape(jmxQueries[0])
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return answer{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("read %s: %w", u, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return answer{StatusCode: resp.StatusCode, Status: resp.Status, challenges: resp.Header.Values("WWW-Authenticate")}, nil
}

// accessNote is nil for an answer regress can read, else the note saying
// which door is shut.
func accessNote(addr string, a answer) error {
	switch a.StatusCode {
	case http.StatusUnauthorized:
		for _, c := range a.challenges {
			if scheme, _, _ := strings.Cut(strings.TrimSpace(c), " "); strings.EqualFold(scheme, "Negotiate") {
				return &NotReadError{Addr: addr, Note: "asks for SPNEGO (Kerberos) authentication, which regress does not do: server cost not read on this side; see docs/clusters.md"}
			}
		}
		scheme := "no WWW-Authenticate"
		if len(a.challenges) > 0 {
			scheme, _, _ = strings.Cut(strings.TrimSpace(a.challenges[0]), " ")
		}
		return &NotReadError{Addr: addr, Note: fmt.Sprintf("asks for authentication (%s), which regress does not do: server cost not read on this side; see docs/clusters.md", scheme)}
	case http.StatusForbidden:
		return &NotReadError{Addr: addr, Note: "refuses to serve /jmx to regress (403 Forbidden: an access list on the info server, or a proxy in front of it): server cost not read on this side; see docs/clusters.md"}
	}
	return nil
}

// certificateError reports whether err is a TLS certificate that did not verify.
func certificateError(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

// unwrapURL drops net/url's "Get URL:" wrapping and ours, leaving the TLS error.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// InfoURL is the scheme and host:port of s's info server
// ("http://host:port", or "https://host:port" where FindJMX found TLS), the
// base of its other pages (/prof); "" for a server read only through /proc.
func (s Server) InfoURL() string {
	if s.JMX == "" {
		return ""
	}
	return baseURL(s.JMX)
}

// baseURL is the scheme and host of an info server given as host:port
// (plain HTTP) or as FindJMX's "https://host:port".
func baseURL(addr string) string {
	if strings.HasPrefix(addr, "https://") || strings.HasPrefix(addr, "http://") {
		return addr
	}
	return "http://" + addr
}
