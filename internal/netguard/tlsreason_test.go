package netguard

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestTLSReasonOfRealHandshakes connects the guarded client to a server per
// TLS fault and checks the reason names that fault, once, without Go's
// package prefixes.
func TestTLSReasonOfRealHandshakes(t *testing.T) {
	t.Parallel()
	bad, err := testsite.StartBadTLS()
	require.NoError(t, err)
	t.Cleanup(bad.Close)
	ca, err := bad.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	c, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: ca, Timeout: 10 * time.Second})
	require.NoError(t, err)

	tests := []struct{ fault, want string }{
		{testsite.TLSExpired, "certificate expired on " + bad.Expiry.Format(time.DateOnly)},
		{testsite.TLSNotYetValid, "certificate is not valid before " + bad.NotBefore.Format(time.DateOnly)},
		{testsite.TLSWrongHost, "certificate is valid for other.test, not for 127.0.0.1"},
		{testsite.TLSUnknownAuthority, "certificate is issued by Unknown Test Authority, which is not a trusted certificate authority (or the server does not send its intermediate certificates)"},
		{testsite.TLSSelfSigned, "certificate is self-signed, not issued by a trusted certificate authority"},
		{testsite.TLSOldProtocol, "handshake failed: the server refused it (protocol version not supported)"},
	}
	for _, tc := range tests {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, bad.URL(tc.fault), nil)
			require.NoError(t, err)
			resp, err := c.Do(req)
			if resp != nil {
				_ = resp.Body.Close()
			}
			require.Error(t, err)
			require.Equal(t, tc.want, TLSReason(err), err.Error())
		})
	}
}

func TestTLSReason(t *testing.T) {
	t.Parallel()
	wrap := func(err error) error { return &url.Error{Op: "Get", URL: "https://example.com/", Err: err} }
	many := &x509.Certificate{DNSNames: []string{"a.example", "b.example", "c.example", "d.example", "e.example"}}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"not TLS", wrap(&net.DNSError{Err: "no such host", Name: "example.com"}), ""},
		{"refused", wrap(errors.New("dial tcp 127.0.0.1:443: connect: connection refused")), ""},
		{"other handshake failure", wrap(errors.New("tls: server selected unsupported protocol version 301")), "handshake failed: server selected unsupported protocol version 301"},
		{"local alert", wrap(errors.New("local error: tls: bad record MAC")), "handshake failed: bad record MAC"},
		{"many names", wrap(x509.HostnameError{Certificate: many, Host: "example.com"}), "certificate is valid for a.example, b.example, c.example and 2 more, not for example.com"},
		{"no names", wrap(x509.HostnameError{Certificate: &x509.Certificate{}, Host: "example.com"}), "certificate names no host (no subject alternative names), so it is not valid for example.com"},
		{"control characters", wrap(x509.HostnameError{Certificate: &x509.Certificate{DNSNames: []string{"evil\x00.example"}}, Host: "example.com"}), `certificate is valid for "evil\x00.example", not for example.com`},
		{"other invalid", wrap(x509.CertificateInvalidError{Reason: x509.IncompatibleUsage}), "certificate is not valid: certificate specifies an incompatible key usage"},
		{"unknown authority without certificate", wrap(x509.UnknownAuthorityError{}), "certificate is not signed by a trusted certificate authority"},
	}
	for _, tc := range tests {
		got := TLSReason(tc.err)
		require.Equal(t, tc.want, got, tc.name)
		require.NotContains(t, got, "tls:", tc.name)
		require.NotContains(t, got, "x509:", tc.name)
	}
	long := strings.Repeat("a", 300) + ".example"
	got := TLSReason(x509.HostnameError{Certificate: &x509.Certificate{DNSNames: []string{long}}, Host: "example.com"})
	require.Less(t, len(got), 200, got)
}
