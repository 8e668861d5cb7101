package netguard

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// ClientOptions configure an outbound HTTP client.
type ClientOptions struct {
	// AllowPrivate lifts the address and port rules (dev/test only).
	AllowPrivate bool
	// ExtraCAFile is a PEM bundle trusted in addition to the system roots.
	ExtraCAFile string
	// Timeout bounds a whole request, body included.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 returns the 3xx
	// itself, as webhook delivery needs.
	MaxRedirects int
	// UserAgent is set on requests that have none.
	UserAgent string
	// Resolver replaces DNS (tests).
	Resolver *net.Resolver
}

// ErrBlocked marks a destination the guard refused.
var ErrBlocked = errors.New("blocked_destination")

// IsBlocked reports whether err came from the guard: a dialled address or a
// redirect that the rules refuse. Such failures are not worth retrying.
func IsBlocked(err error) bool {
	return errors.Is(err, ErrBlocked) || errors.Is(err, ssrf.ErrProhibitedIP) ||
		errors.Is(err, ssrf.ErrProhibitedPort) || errors.Is(err, ssrf.ErrProhibitedNetwork)
}

// LoadCertPool returns the system roots plus the certificates in
// extraCAFile (if set).
func LoadCertPool(extraCAFile string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if extraCAFile == "" {
		return pool, nil
	}
	pem, err := os.ReadFile(extraCAFile) //nolint:gosec // an operator-configured CA bundle
	if err != nil {
		return nil, fmt.Errorf("read GEOSCAN_EXTRA_CA_FILE: %w", err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("GEOSCAN_EXTRA_CA_FILE %s holds no PEM certificates", extraCAFile)
	}
	return pool, nil
}

// NewClient returns an HTTP client that connects only to public addresses
// on port 443 (unless AllowPrivate), never uses a proxy from the
// environment, verifies TLS against the system roots plus ExtraCAFile, and
// re-checks every redirect hop.
func NewClient(o ClientOptions) (*http.Client, error) {
	roots, err := LoadCertPool(o.ExtraCAFile)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Resolver: o.Resolver}
	if g := guard(o.AllowPrivate); g != nil {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			if err := g.Safe(network, address, nil); err != nil {
				return fmt.Errorf("%w: %w", ErrBlocked, err)
			}
			return nil
		}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would hide the real destination from the guard
		DialContext:           dialer.DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       60 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c := &http.Client{Transport: &userAgent{next: transport, ua: o.UserAgent}, Timeout: timeout}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if o.MaxRedirects == 0 {
			return http.ErrUseLastResponse
		}
		if len(via) > o.MaxRedirects {
			return fmt.Errorf("stopped after %d redirects", o.MaxRedirects)
		}
		if _, err := parse(req.URL.String(), o.AllowPrivate); err != nil {
			return fmt.Errorf("%w: redirect to %s refused: %w", ErrBlocked, req.URL.Redacted(), err)
		}
		return nil
	}
	return c, nil
}

type userAgent struct {
	next http.RoundTripper
	ua   string
}

func (u *userAgent) RoundTrip(r *http.Request) (*http.Response, error) {
	if u.ua != "" && r.Header.Get("User-Agent") == "" {
		r = r.Clone(r.Context())
		r.Header.Set("User-Agent", u.ua)
	}
	return u.next.RoundTrip(r)
}
