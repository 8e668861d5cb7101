package netguard

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
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
	// Resolver replaces DNS (tests and the fixture sites).
	Resolver Resolver
	// AllowHTTP accepts plain http:// URLs and port 80 besides https and
	// 443: the scanner probes whether http:// redirects to https://.
	AllowHTTP bool
	// RawEncoding leaves Content-Encoding to the caller, which decodes it
	// under its own size limit (gzip, br, zstd).
	RawEncoding bool
	// MaxIdleConns is how many idle connections are kept, in all and per
	// host (0: 64 in all, 4 per host). A client shared by many requests in
	// flight needs about as many, or each request past them opens a new
	// connection: a TCP and TLS handshake, a round trip or two to a
	// distant site and CPU on both ends.
	MaxIdleConns int
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
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	ports := []uint16{443}
	if o.AllowHTTP {
		ports = append(ports, 80)
	}
	if g := guard(o.AllowPrivate, ports...); g != nil {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			if err := g.Safe(network, address, nil); err != nil {
				return fmt.Errorf("%w: %w", ErrBlocked, err)
			}
			return nil
		}
	} else {
		// Even with private targets allowed, link-local and cloud metadata
		// addresses stay closed: no fixture or receiver ever lives there.
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			if host, _, err := net.SplitHostPort(address); err == nil {
				if ip, err := netip.ParseAddr(host); err == nil && alwaysBlocked(ip) {
					return fmt.Errorf("%w: %s is a link-local or metadata address", ErrBlocked, ip)
				}
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
		DialContext:           dialVia(dialer, o.Resolver),
		DisableCompression:    o.RawEncoding,
		TLSClientConfig:       &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
		MaxIdleConns:          cmp.Or(o.MaxIdleConns, 64),
		MaxIdleConnsPerHost:   cmp.Or(o.MaxIdleConns, 4),
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
		raw := req.URL.String()
		if o.AllowHTTP && strings.EqualFold(req.URL.Scheme, "http") {
			raw = "https" + raw[len("http"):]
			if req.URL.Port() == "80" {
				raw = strings.Replace(raw, ":80", "", 1)
			}
		}
		if _, err := parse(raw, o.AllowPrivate); err != nil {
			return fmt.Errorf("%w: redirect to %s refused: %w", ErrBlocked, req.URL.Redacted(), err)
		}
		return nil
	}
	return c, nil
}

// dialVia dials through resolver when one is set, trying each address in
// turn; the dialer's Control hook still checks every address dialled. A
// cloud metadata host name is refused before it is looked up.
func dialVia(d *net.Dialer, resolver Resolver) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if IsMetadataName(host) {
			return nil, fmt.Errorf("%w: %s is a cloud metadata host name", ErrBlocked, host)
		}
		if resolver == nil {
			return d.DialContext(ctx, network, addr)
		}
		if ip := net.ParseIP(host); ip != nil {
			return d.DialContext(ctx, network, addr)
		}
		addrs, err := resolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		var firstErr error
		for _, a := range addrs {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(a.IP.String(), port))
			if err == nil {
				return c, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		return nil, firstErr
	}
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
