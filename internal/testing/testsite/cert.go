package testsite

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"
)

// certificates is a throwaway CA and the leaves it signed, one per host.
type certificates struct {
	caPEM []byte
	pool  *x509.CertPool
	// byName holds a leaf per fixture host; fallback covers 127.0.0.1 and
	// localhost and answers clients that send no SNI.
	byName   map[string]*tls.Certificate
	fallback *tls.Certificate
}

// newCertificates creates the CA and the leaves. Validity starts a day in
// the past so clock skew between goroutines or machines never makes a fresh
// certificate "not yet valid", and ends 30 days ahead, which is a realistic
// window for a certificate-expiry check to look at.
func newCertificates(hostNames []string) (*certificates, error) {
	notBefore := time.Now().Add(-24 * time.Hour)
	notAfter := time.Now().Add(30 * 24 * time.Hour)

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("testsite: CA key: %w", err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "GeoScan Fixture CA", Organization: []string{"GeoScan Test"}},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("testsite: CA certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("testsite: parse CA certificate: %w", err)
	}

	c := &certificates{
		caPEM:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pool:   x509.NewCertPool(),
		byName: map[string]*tls.Certificate{},
	}
	c.pool.AddCert(ca)

	leaf := func(cn string, dns []string, ips []net.IP) (*tls.Certificate, error) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("testsite: leaf key: %w", err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: serial(),
			Subject:      pkix.Name{CommonName: cn},
			NotBefore:    notBefore,
			NotAfter:     notAfter,
			KeyUsage:     x509.KeyUsageDigitalSignature,
			ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			DNSNames:     dns,
			IPAddresses:  ips,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return nil, fmt.Errorf("testsite: leaf certificate for %s: %w", cn, err)
		}
		parsed, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("testsite: parse leaf for %s: %w", cn, err)
		}
		return &tls.Certificate{Certificate: [][]byte{der, caDER}, PrivateKey: key, Leaf: parsed}, nil
	}

	for _, h := range hostNames {
		cert, err := leaf(h, []string{h}, nil)
		if err != nil {
			return nil, err
		}
		c.byName[h] = cert
	}
	c.fallback, err = leaf("localhost", []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// get picks the leaf for the name the client asked for (SNI).
func (c *certificates) get(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	if cert, ok := c.byName[strings.TrimSuffix(strings.ToLower(hello.ServerName), ".")]; ok {
		return cert, nil
	}
	return c.fallback, nil
}

// serial is a random 128-bit serial number: serials must be unique per
// issuer, and random ones are what public CAs issue.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		// crypto/rand does not fail on supported platforms.
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}
