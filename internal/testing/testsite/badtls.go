package testsite

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// The TLS faults BadTLS serves, one origin each.
const (
	TLSExpired          = "expired"          // a leaf whose validity ended yesterday
	TLSNotYetValid      = "notyetvalid"      // a leaf valid from tomorrow
	TLSWrongHost        = "wronghost"        // a leaf for other.test only
	TLSUnknownAuthority = "unknownauthority" // a leaf signed by a CA nobody trusts
	TLSSelfSigned       = "selfsigned"       // a leaf that signed itself
	TLSOldProtocol      = "oldprotocol"      // a valid leaf, but TLS 1.1 at most
)

// TLSFaults lists the faults in a stable order.
var TLSFaults = []string{TLSExpired, TLSNotYetValid, TLSWrongHost, TLSUnknownAuthority, TLSSelfSigned, TLSOldProtocol}

// BadTLS serves one HTTPS origin per TLS fault on 127.0.0.1, each on its
// own port, for tests of how a failed connection is worded. Every leaf
// names 127.0.0.1 (except TLSWrongHost's) and, except the unknown
// authority's and the self-signed one, is signed by the CA that CAPEM
// returns: a client that trusts it sees exactly the one fault.
type BadTLS struct {
	caPEM []byte
	// Expiry is when TLSExpired's certificate ended, NotBefore when
	// TLSNotYetValid's begins.
	Expiry, NotBefore time.Time
	servers           map[string]*http.Server
	urls              map[string]string
	serving           sync.WaitGroup
	closeOnce         sync.Once
}

// StartBadTLS generates the certificates and starts the origins.
func StartBadTLS() (*BadTLS, error) {
	now := time.Now().UTC().Truncate(time.Second)
	ca, caKey, caDER, err := newCA("GeoScan Bad TLS CA", now.Add(-48*time.Hour), now.Add(30*24*time.Hour))
	if err != nil {
		return nil, err
	}
	stranger, strangerKey, _, err := newCA("Unknown Test Authority", now.Add(-48*time.Hour), now.Add(30*24*time.Hour))
	if err != nil {
		return nil, err
	}
	loopback := []net.IP{net.IPv4(127, 0, 0, 1)}
	b := &BadTLS{
		caPEM:     pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		Expiry:    now.Add(-24 * time.Hour),
		NotBefore: now.Add(24 * time.Hour),
		servers:   map[string]*http.Server{},
		urls:      map[string]string{},
	}
	type spec struct {
		notBefore, notAfter time.Time
		dns                 []string
		ips                 []net.IP
		parent              *x509.Certificate // nil: self-signed
		parentKey           *ecdsa.PrivateKey
		maxVersion          uint16
	}
	valid := func(s spec) spec {
		if s.notBefore.IsZero() {
			s.notBefore, s.notAfter = now.Add(-24*time.Hour), now.Add(30*24*time.Hour)
		}
		if s.dns == nil && s.ips == nil {
			s.ips = loopback
		}
		return s
	}
	specs := map[string]spec{
		TLSExpired:          valid(spec{notBefore: now.Add(-30 * 24 * time.Hour), notAfter: b.Expiry, parent: ca, parentKey: caKey}),
		TLSNotYetValid:      valid(spec{notBefore: b.NotBefore, notAfter: now.Add(30 * 24 * time.Hour), parent: ca, parentKey: caKey}),
		TLSWrongHost:        valid(spec{dns: []string{"other.test"}, parent: ca, parentKey: caKey}),
		TLSUnknownAuthority: valid(spec{parent: stranger, parentKey: strangerKey}),
		TLSSelfSigned:       valid(spec{}),
		TLSOldProtocol:      valid(spec{parent: ca, parentKey: caKey, maxVersion: tls.VersionTLS11}),
	}
	quiet := log.New(io.Discard, "", 0)
	for _, fault := range TLSFaults {
		s := specs[fault]
		cert, err := newLeaf(fault, s.notBefore, s.notAfter, s.dns, s.ips, s.parent, s.parentKey)
		if err != nil {
			b.Close()
			return nil, err
		}
		var lc net.ListenConfig
		ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("testsite: listen for %s: %w", fault, err)
		}
		cfg := &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS10} //nolint:gosec // TLSOldProtocol needs an old version
		if s.maxVersion != 0 {
			cfg.MaxVersion = s.maxVersion
		}
		srv := &http.Server{
			Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				_, _ = io.WriteString(w, "<!doctype html><title>unreachable</title>")
			}),
			TLSConfig:         cfg,
			ReadHeaderTimeout: 5 * time.Second,
			ErrorLog:          quiet,
		}
		b.servers[fault] = srv
		b.urls[fault] = "https://127.0.0.1:" + strconv.Itoa(portOf(ln)) + "/"
		b.serving.Add(1)
		go func() {
			defer b.serving.Done()
			if err := srv.ServeTLS(ln, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
				fmt.Fprintln(os.Stderr, "testsite: bad TLS listener:", err)
			}
		}()
	}
	return b, nil
}

// URL is the homepage of a fault's origin, e.g. "https://127.0.0.1:41234/".
func (b *BadTLS) URL(fault string) string {
	u, ok := b.urls[fault]
	if !ok {
		panic("testsite: unknown TLS fault " + strconv.Quote(fault))
	}
	return u
}

// WriteCAFile writes the trusted CA to dir/badtls-ca.pem and returns its
// path, for code that takes a CA bundle file.
func (b *BadTLS) WriteCAFile(dir string) (string, error) {
	path := filepath.Join(dir, "badtls-ca.pem")
	if err := os.WriteFile(path, b.caPEM, 0o600); err != nil {
		return "", fmt.Errorf("testsite: write CA file: %w", err)
	}
	return path, nil
}

// Close stops every origin; it is safe to call more than once.
func (b *BadTLS) Close() {
	b.closeOnce.Do(func() {
		for _, s := range b.servers {
			_ = s.Close()
		}
		b.serving.Wait()
	})
}

func newCA(name string, notBefore, notAfter time.Time) (*x509.Certificate, *ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("testsite: CA key: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("testsite: CA certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("testsite: parse CA certificate: %w", err)
	}
	return ca, key, der, nil
}

// newLeaf is a server certificate signed by parent, or by itself when
// parent is nil.
func newLeaf(cn string, notBefore, notAfter time.Time, dns []string, ips []net.IP, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*tls.Certificate, error) {
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
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		return nil, fmt.Errorf("testsite: leaf certificate for %s: %w", cn, err)
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
