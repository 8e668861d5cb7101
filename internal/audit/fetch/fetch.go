// Package fetch downloads what a GEO audit reads from a site — the homepage,
// robots.txt, sitemaps, llms.txt, a 404 probe, a handful of key pages and
// the homepage again under AI crawler user agents — safely and within
// bounds: every connection goes through the netguard dialer (checked after
// DNS resolution and on every redirect), bodies are capped after
// decompression, the number of pages and the concurrency per host are
// bounded, and every request is recorded as evidence.
package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/geoscan/geoscan/internal/netguard"
)

// Purpose says why a URL was fetched; it labels evidence.
type Purpose string

// The purposes of fetches.
const (
	Homepage      Purpose = "homepage"
	HomeSample    Purpose = "ttfb_sample"
	HTTPProbe     Purpose = "http_probe"
	Robots        Purpose = "robots"
	Sitemap       Purpose = "sitemap"
	SitemapSample Purpose = "sitemap_sample"
	LLMsTxt       Purpose = "llms_txt"
	LLMsFullTxt   Purpose = "llms_full_txt"
	LLMsLink      Purpose = "llms_txt_link"
	NotFoundProbe Purpose = "not_found_probe"
	About         Purpose = "about"
	Contact       Purpose = "contact"
	Privacy       Purpose = "privacy"
	Terms         Purpose = "terms"
	Article       Purpose = "article"
	Product       Purpose = "product"
	BotProbe      Purpose = "bot_probe"
)

// Redirect is one hop of a redirect chain.
type Redirect struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// TLSInfo describes the connection that served a response.
type TLSInfo struct {
	Version  string    `json:"version"`
	Issuer   string    `json:"issuer"`
	NotAfter time.Time `json:"not_after"`
}

// Response is one fetch and its outcome.
type Response struct {
	Purpose  Purpose
	URL      string // as requested
	FinalURL string // after redirects
	Method   string
	// UserAgent is set when the fetch used a user agent other than
	// GeoScan's own (bot probes).
	UserAgent string
	Agent     string // the product token of that user agent

	Status int // 0 when the request failed
	Header http.Header
	// Body is decompressed and converted to UTF-8 for text types; for a
	// Request with Keep it is only the start of the body (Bytes is all).
	Body []byte
	// Charset is how Body was decoded and which declarations the response
	// carried (see decodeBody).
	Charset         Charset
	Bytes           int    // decompressed size read
	Truncated       bool   // the body exceeded the size limit and was cut
	ContentEncoding string // as sent on the wire
	Redirects       []Redirect
	TLS             *TLSInfo
	Duration        time.Duration
	TTFB            time.Duration
	Err             error
}

// OK reports a 2xx response without error.
func (r *Response) OK() bool {
	return r != nil && r.Err == nil && r.Status >= 200 && r.Status < 300
}

// ContentType is the media type without parameters, lower case.
func (r *Response) ContentType() string {
	if r == nil || r.Header == nil {
		return ""
	}
	ct, _ := contentTypeOf(r.Header.Get("Content-Type"))
	return ct
}

// IsHTML reports an HTML response (by header, or by sniffing when the
// server sent none).
func (r *Response) IsHTML() bool {
	ct := r.ContentType()
	if ct == "text/html" || ct == "application/xhtml+xml" {
		return true
	}
	if ct == "" && len(r.Body) > 0 {
		return strings.HasPrefix(http.DetectContentType(r.Body), "text/html")
	}
	return false
}

// ErrorText is the error as a sentence, or "".
func (r *Response) ErrorText() string {
	if r == nil || r.Err == nil {
		return ""
	}
	return Describe(r.Err).Message
}

// Options bound and shape fetching.
type Options struct {
	// UserAgent is the honest GeoScan user agent.
	UserAgent string
	// RequestTimeout bounds one request, body included (default 15 s).
	RequestTimeout time.Duration
	// HeaderTimeout bounds the wait for the response headers, from the
	// start of the request (default 10 s).
	HeaderTimeout time.Duration
	// MinBytesPerSecond is the slowest a body may arrive, averaged over the
	// time since its headers (default 128 bytes/s); it is enforced once
	// RateGrace has passed (default 5 s), so a tarpit that drips a page
	// ends as a fetch error instead of holding the scan for the whole
	// RequestTimeout.
	MinBytesPerSecond int64
	RateGrace         time.Duration
	// MaxBodyBytes caps a body after decompression.
	MaxBodyBytes int64
	// MaxRedirects is how many redirects a fetch follows.
	MaxRedirects int
	// PerHost bounds concurrent requests to the target.
	PerHost int
	// Scans is how many scans share the Fetcher at once (the worker's
	// GEOSCAN_SCAN_WORKERS); it sizes the idle connection pool so that
	// each scan keeps its PerHost connections between requests.
	Scans int
	// MaxSitemapFiles, MaxSitemapDepth and MaxSitemapURLs bound sitemap reading.
	MaxSitemapFiles int
	MaxSitemapDepth int
	MaxSitemapURLs  int
	// PlainHTTPPort is the port of the http:// probe (80 unless testing).
	PlainHTTPPort int
	// Client options for the guarded connections.
	AllowPrivate bool
	ExtraCAFile  string
	Resolver     netguard.Resolver
}

// Defaults fills unset options.
func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = "GeoScan/1.0 (+https://geoscan.dev/bot)"
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 15 * time.Second
	}
	if o.HeaderTimeout <= 0 {
		o.HeaderTimeout = min(10*time.Second, o.RequestTimeout)
	}
	if o.MinBytesPerSecond <= 0 {
		o.MinBytesPerSecond = 128
	}
	if o.RateGrace <= 0 {
		o.RateGrace = 5 * time.Second
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 5 << 20
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	if o.PerHost <= 0 {
		o.PerHost = 4
	}
	if o.MaxSitemapFiles <= 0 {
		o.MaxSitemapFiles = 5
	}
	if o.MaxSitemapDepth <= 0 {
		o.MaxSitemapDepth = 2
	}
	if o.MaxSitemapURLs <= 0 {
		o.MaxSitemapURLs = 50000
	}
	if o.PlainHTTPPort <= 0 {
		o.PlainHTTPPort = 80
	}
	return o
}

// Fetcher performs fetches with two guarded clients: one following
// redirects, one returning them (the http:// probe must see the redirect).
type Fetcher struct {
	opts     Options
	follow   *http.Client
	noFollow *http.Client
}

// New builds a Fetcher.
func New(o Options) (*Fetcher, error) {
	o = o.withDefaults()
	mk := func(redirects int) (*http.Client, error) {
		return netguard.NewClient(netguard.ClientOptions{
			// The client's own timeout is only a backstop: Do enforces the
			// fetch's limits itself so that the error names the one that fired.
			AllowPrivate: o.AllowPrivate, ExtraCAFile: o.ExtraCAFile, Timeout: o.RequestTimeout + 5*time.Second,
			MaxRedirects: redirects, UserAgent: o.UserAgent, Resolver: o.Resolver,
			AllowHTTP: true, RawEncoding: true, MaxIdleConns: max(o.Scans, 1) * o.PerHost,
		})
	}
	follow, err := mk(o.MaxRedirects)
	if err != nil {
		return nil, err
	}
	noFollow, err := mk(0)
	if err != nil {
		return nil, err
	}
	// Record each hop of a followed chain into the request's recorder.
	guardRedirect := follow.CheckRedirect
	follow.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if rec, ok := req.Context().Value(chainKey{}).(*[]Redirect); ok && req.Response != nil {
			*rec = append(*rec, Redirect{URL: via[len(via)-1].URL.String(), Status: req.Response.StatusCode})
		}
		return guardRedirect(req, via)
	}
	return &Fetcher{opts: o, follow: follow, noFollow: noFollow}, nil
}

type chainKey struct{}

// Request describes one fetch.
type Request struct {
	Purpose   Purpose
	URL       string
	Method    string // GET unless set
	UserAgent string // overrides GeoScan's own
	Agent     string
	Accept    string
	NoFollow  bool
	// Keep, when positive, keeps only the first Keep bytes of the body
	// (decompressed): the rest is read, counted in Response.Bytes and
	// dropped. Probes that compare sizes and look for a challenge page
	// need no more, and a 5 MiB homepage fetched once per probe would
	// otherwise be held once per probe.
	Keep int
}

// Do performs one fetch. Errors are recorded in the Response, never
// returned: a failed fetch is evidence too.
func (f *Fetcher) Do(ctx context.Context, r Request) *Response {
	out := &Response{Purpose: r.Purpose, URL: r.URL, FinalURL: r.URL, Method: r.Method, UserAgent: r.UserAgent, Agent: r.Agent}
	if out.Method == "" {
		out.Method = http.MethodGet
	}
	start := time.Now()
	defer func() { out.Duration = time.Since(start) }()

	ctx, w := f.watch(ctx)
	defer w.stop()
	var chain []Redirect
	ctx = context.WithValue(ctx, chainKey{}, &chain)
	var firstByte time.Time
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotFirstResponseByte: func() { firstByte = time.Now() }})
	req, err := http.NewRequestWithContext(ctx, out.Method, r.URL, nil)
	if err != nil {
		out.Err = err
		return out
	}
	req.Header.Set("Accept-Encoding", "gzip, br, zstd")
	accept := r.Accept
	if accept == "" {
		accept = "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Language", "en;q=1.0, *;q=0.5")
	if r.UserAgent != "" {
		req.Header.Set("User-Agent", r.UserAgent)
	}
	client := f.follow
	if r.NoFollow {
		client = f.noFollow
	}
	resp, err := client.Do(req)
	out.Redirects = chain
	if err != nil {
		out.Err = w.cause(err)
		return out
	}
	w.headersIn()
	defer resp.Body.Close()
	if !firstByte.IsZero() {
		out.TTFB = firstByte.Sub(start)
	}
	out.Status = resp.StatusCode
	out.Header = resp.Header
	out.FinalURL = resp.Request.URL.String()
	out.ContentEncoding = strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	if resp.TLS != nil && len(resp.TLS.PeerCertificates) > 0 {
		leaf := resp.TLS.PeerCertificates[0]
		out.TLS = &TLSInfo{Version: tls.VersionName(resp.TLS.Version), Issuer: issuerName(leaf), NotAfter: leaf.NotAfter}
	}
	if out.Method == http.MethodHead {
		return out
	}
	resp.Body = w.count(resp.Body)
	body, n, truncated, err := f.readBody(resp, r.Keep)
	out.Bytes = n
	out.Truncated = truncated
	out.Err = w.cause(err)
	out.Body, out.Charset = decodeBody(body, resp.Header.Get("Content-Type"), r.Purpose)
	return out
}

// ErrTooLarge marks a body over the size limit.
var ErrTooLarge = errors.New("body exceeds the size limit")

// DecodedBody returns resp's body decompressed as its Content-Encoding
// says (gzip, br, zstd or none) and the function that releases the
// decoder. An encoding it does not know is an error, not bytes read as
// they came.
func DecodedBody(resp *http.Response) (io.Reader, func(), error) {
	nothing := func() {}
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return resp.Body, nothing, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, nothing, fmt.Errorf("gzip body: %w", err)
		}
		return zr, func() { _ = zr.Close() }, nil
	case "br":
		return brotli.NewReader(resp.Body), nothing, nil
	case "zstd":
		// The window cap keeps a hostile frame from reserving huge buffers.
		zr, err := zstd.NewReader(resp.Body, zstd.WithDecoderMaxWindow(8<<20), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, nothing, fmt.Errorf("zstd body: %w", err)
		}
		return zr, zr.Close, nil
	default:
		return nil, nothing, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
}

// readBody reads a body up to the size limit, decompressed, and returns
// it (its first keep bytes when keep is positive), the bytes read, and
// whether the limit cut it.
func (f *Fetcher) readBody(resp *http.Response, keep int) ([]byte, int, bool, error) {
	r, release, err := DecodedBody(resp)
	defer release()
	if err != nil {
		return nil, 0, false, err
	}
	limit := f.opts.MaxBodyBytes
	want := limit + 1
	if keep > 0 {
		want = min(want, int64(keep))
	}
	// A declared length sizes the buffer once instead of doubling it up
	// from 512 bytes (which allocates twice the body and holds up to
	// twice its size); a length that lies costs only a regrowth.
	var buf bytes.Buffer
	if resp.Header.Get("Content-Encoding") == "" && resp.ContentLength > 0 {
		buf.Grow(int(min(resp.ContentLength+1, want)))
	}
	lr := io.LimitReader(r, limit+1)
	_, err = io.Copy(&buf, io.LimitReader(lr, want))
	n := int64(buf.Len())
	if err == nil && n == want {
		// Past what is kept: counted, not held.
		var rest int64
		rest, err = io.Copy(io.Discard, lr)
		n += rest
	}
	body := buf.Bytes()
	if n > limit {
		return body[:min(int64(len(body)), limit)], int(limit), true, fmt.Errorf("%w of %d MiB (after decompression)", ErrTooLarge, limit>>20)
	}
	if err != nil {
		return body, int(n), false, fmt.Errorf("read body: %w", err)
	}
	return body, int(n), false, nil
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

// Failure is a fetch error explained for a person.
type Failure struct {
	Code    string // the error_code values of a failed scan (see openapi.yaml)
	Message string
}

// Describe classifies a fetch error.
func Describe(err error) Failure {
	var dnsErr *net.DNSError
	var urlErr *url.Error
	var netErr net.Error
	var limitErr *LimitError
	tlsReason := netguard.TLSReason(err)
	switch {
	case err == nil:
		return Failure{}
	case errors.As(err, &limitErr):
		return Failure{"timeout", limitErr.Error()}
	case errors.Is(err, ErrBudget):
		return Failure{"timeout", "the scan's time budget ran out before this request finished"}
	case netguard.IsBlocked(err):
		return Failure{"blocked_destination", "the site led to a private, loopback or otherwise reserved address, which GeoScan never connects to"}
	case errors.As(err, &dnsErr):
		return Failure{"dns_failure", fmt.Sprintf("the domain %s could not be resolved (DNS lookup failed)", dnsErr.Name)}
	case tlsReason != "":
		// "the TLS certificate expired on …", "the TLS handshake failed: …"
		return Failure{"tls_error", "the TLS " + tlsReason}
	case errors.Is(err, ErrTooLarge):
		return Failure{"response_too_large", "the response " + err.Error()}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return Failure{"timeout", "the site did not answer in time"}
	case strings.Contains(err.Error(), "stopped after"):
		return Failure{"too_many_redirects", "the site redirected too many times: " + rootMessage(err)}
	case strings.Contains(err.Error(), "malformed MIME header"):
		// Go quotes the offending line, so control bytes arrive escaped.
		return Failure{"connection_failed", "the site sent a malformed response header (RFC 9110 forbids control characters such as NUL in header fields): " + rootMessage(err)}
	case strings.Contains(err.Error(), "malformed HTTP"):
		return Failure{"connection_failed", "the site sent a malformed HTTP response: " + rootMessage(err)}
	case strings.Contains(err.Error(), "connection refused"), strings.Contains(err.Error(), "connection reset"):
		return Failure{"connection_failed", "the connection to the site was refused or reset"}
	case errors.As(err, &urlErr):
		return Failure{"connection_failed", rootMessage(err)}
	}
	return Failure{"connection_failed", rootMessage(err)}
}

// rootMessage is the innermost error text, without Go's URL-error prefix.
func rootMessage(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			break
		}
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
			continue
		}
		if _, multi := err.(interface{ Unwrap() []error }); multi {
			break
		}
		err = next
	}
	return err.Error()
}
