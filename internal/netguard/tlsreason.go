package netguard

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// TLSReason says what failed when the client's TLS connection failed, or
// returns "" when err is not a TLS failure. The reason starts with what
// failed, "certificate …" or "handshake …", so that callers put it after
// their own word for TLS ("the TLS " + reason, "tls: " + reason) and TLS is
// named once; crypto/tls's "tls:" and crypto/x509's "x509:" prefixes never
// reach it. Names quoted from the certificate are the server's and are
// bounded here; callers that store the text still make it storable.
func TLSReason(err error) string {
	if err == nil {
		return ""
	}
	var (
		invalid  x509.CertificateInvalidError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		opErr    *net.OpError
	)
	switch {
	case errors.As(err, &invalid):
		return invalidReason(invalid)
	case errors.As(err, &unknown):
		return unknownAuthorityReason(unknown)
	case errors.As(err, &hostname):
		return hostnameReason(hostname)
	case errors.As(err, &verify):
		return "certificate could not be verified: " + withoutPrefixes(verify.Err)
	case errors.As(err, &record):
		return "handshake failed: the server did not answer in TLS"
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		// The server sent an alert; crypto/tls words it "remote error: tls: …".
		return "handshake failed: the server refused it (" + withoutPrefixes(opErr.Err) + ")"
	case strings.Contains(err.Error(), "tls: "):
		return "handshake failed: " + withoutPrefixes(err)
	}
	return ""
}

// withoutPrefixes is err's text after the last "tls: " or "x509: ", the
// words of the failure without the package names Go puts before them.
func withoutPrefixes(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := err.Error()
	for _, p := range []string{"tls: ", "x509: "} {
		if i := strings.LastIndex(s, p); i >= 0 {
			s = s[i+len(p):]
		}
	}
	return s
}

func invalidReason(e x509.CertificateInvalidError) string {
	c := e.Cert
	if e.Reason == x509.Expired && c != nil {
		subject := "certificate"
		if c.IsCA {
			subject = fmt.Sprintf("certificate chain is not valid: the authority %s", quoteName(certName(c)))
		}
		if time.Now().Before(c.NotBefore) {
			return fmt.Sprintf("%s is not valid before %s", subject, c.NotBefore.UTC().Format(time.DateOnly))
		}
		return fmt.Sprintf("%s expired on %s", subject, c.NotAfter.UTC().Format(time.DateOnly))
	}
	return "certificate is not valid: " + withoutPrefixes(e)
}

func unknownAuthorityReason(e x509.UnknownAuthorityError) string {
	c := e.Cert
	if c == nil {
		return "certificate is not signed by a trusted certificate authority"
	}
	if selfSigned(c) {
		return "certificate is self-signed, not issued by a trusted certificate authority"
	}
	return fmt.Sprintf("certificate is issued by %s, which is not a trusted certificate authority (or the server does not send its intermediate certificates)", quoteName(issuerName(c)))
}

func hostnameReason(e x509.HostnameError) string {
	c := e.Certificate
	host := strings.Trim(e.Host, "[]")
	if c == nil {
		return fmt.Sprintf("certificate is not valid for %s", host)
	}
	var names []string
	names = append(names, c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return fmt.Sprintf("certificate names no host (no subject alternative names), so it is not valid for %s", host)
	}
	return fmt.Sprintf("certificate is valid for %s, not for %s", nameList(names), host)
}

// maxNames is how many of a certificate's names a reason lists.
const maxNames = 3

func nameList(names []string) string {
	shown := make([]string, 0, maxNames)
	for _, n := range names[:min(len(names), maxNames)] {
		shown = append(shown, quoteName(n))
	}
	s := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// quoteName bounds a name the server chose and shows control characters
// escaped; a plain host name stays as it is.
func quoteName(s string) string {
	const maxLen = 100
	if len(s) > maxLen {
		s = s[:maxLen] + "…"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '"' {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

// selfSigned: the certificate names itself as issuer and its own key signed
// it (CheckSignatureFrom would also ask that it be a CA, which a
// self-signed leaf usually is not).
func selfSigned(c *x509.Certificate) bool {
	return bytes.Equal(c.RawIssuer, c.RawSubject) && c.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature) == nil
}

func certName(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return c.Subject.CommonName
	}
	return c.Subject.String()
}

func issuerName(c *x509.Certificate) string {
	if c.Issuer.CommonName != "" {
		return c.Issuer.CommonName
	}
	if len(c.Issuer.Organization) > 0 {
		return c.Issuer.Organization[0]
	}
	return c.Issuer.String()
}
