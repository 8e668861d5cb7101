package mail_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/mail"
	"github.com/geoscan/geoscan/internal/testing/mailtest"
)

// selfSigned returns a server certificate for 127.0.0.1 and a pool that
// trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, pool
}

func envelope(to string) mail.Envelope {
	return mail.Envelope{MessageID: "m1", From: "GeoScan <noreply@geoscan.example>", To: to, Subject: "Hello", Text: "text body", HTML: "<p>html body</p>"}
}

func TestSMTPAuthenticatesOnlyOverTLS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tlsCfg, roots := selfSigned(t)

	secure := mailtest.Start(t, mailtest.Options{TLS: tlsCfg, Username: "geoscan", Password: "p@ss word"})
	s, err := mail.NewSMTP("smtp://geoscan:p%40ss%20word@"+secure.Addr, roots)
	require.NoError(t, err)
	require.NoError(t, s.Send(ctx, envelope("ops@example.com")))
	require.Equal(t, 1, secure.Logins())
	msgs := secure.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, []string{"ops@example.com"}, msgs[0].To)
	require.Equal(t, "Hello", msgs[0].Subject)
	require.Equal(t, "text body", msgs[0].Text)
	require.Equal(t, "<p>html body</p>", msgs[0].HTML)
	require.Equal(t, "<m1@geoscan.example>", msgs[0].Header.Get("Message-Id"))

	// Credentials and a server without STARTTLS: nothing is sent, the
	// password never crosses in clear.
	plain := mailtest.Start(t, mailtest.Options{Username: "geoscan", Password: "p@ss word"})
	s, err = mail.NewSMTP("smtp://geoscan:p%40ss%20word@"+plain.Addr, roots)
	require.NoError(t, err)
	require.Error(t, s.Send(ctx, envelope("ops@example.com")))
	require.Zero(t, plain.Logins())
	require.Empty(t, plain.Messages())

	// A certificate the roots do not trust is refused.
	s, err = mail.NewSMTP("smtp://geoscan:p%40ss%20word@"+secure.Addr, x509.NewCertPool())
	require.NoError(t, err)
	require.Error(t, s.Send(ctx, envelope("ops@example.com")))
	require.Len(t, secure.Messages(), 1)

	// Wrong password.
	s, err = mail.NewSMTP("smtp://geoscan:nope@"+secure.Addr, roots)
	require.NoError(t, err)
	require.Error(t, s.Send(ctx, envelope("ops@example.com")))
	require.Len(t, secure.Messages(), 1)
}

func TestSMTPRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := mailtest.Start(t, mailtest.Options{RefuseFirst: 1, Reject: []string{"gone@example.com"}})
	s, err := mail.NewSMTP(srv.URL(), nil)
	require.NoError(t, err)

	err = s.Send(ctx, envelope("ops@example.com"))
	require.Error(t, err)
	require.False(t, mail.Permanent(err), "451 is worth a retry: %v", err)
	require.NoError(t, s.Send(ctx, envelope("ops@example.com")))

	err = s.Send(ctx, envelope("gone@example.com"))
	require.Error(t, err)
	require.True(t, mail.Permanent(err), "550 is final: %v", err)

	err = s.Send(ctx, envelope("not an address"))
	require.True(t, mail.Permanent(err), "%v", err)

	// Nothing listens: worth a retry.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	s, err = mail.NewSMTP("smtp://"+addr, nil)
	require.NoError(t, err)
	err = s.Send(ctx, envelope("ops@example.com"))
	require.Error(t, err)
	require.False(t, mail.Permanent(err))
}

func TestNewSMTPRefusesBadURLsWithoutEchoingThem(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "http://mail.example.com", "smtp://", "smtp://u:secret@mail.example.com:99999", "mail.example.com:25", "smtp://u:secret@[::1"} {
		_, err := mail.NewSMTP(bad, nil)
		require.Error(t, err, bad)
		require.NotContains(t, err.Error(), "secret")
	}
	for _, ok := range []string{"smtp://mail.example.com", "smtps://u:p@mail.example.com", "smtp://u@mail.example.com:2525"} {
		_, err := mail.NewSMTP(ok, nil)
		require.NoError(t, err, ok)
	}
}
