// Package testsite owns the local fixture websites that GeoScan's tests scan
// instead of the internet: nine realistic sites (a WordPress agency, a
// client-rendered Next.js app, a Shopify store, a Hugo documentation site, an
// insurer behind a bot-challenging edge, a neglected marina site, a winery
// whose UTF-8 pages declare no charset, a MediaWiki that cites other sites'
// WordPress and Drupal files, and a bakery whose sitemap is only at the
// default path) and hostile targets (a slow drip, a 50 MiB page, a gzip
// bomb, a redirect to a cloud metadata address, tarpits that send a page or
// its headers a byte at a time, a site whose secondary files crawl, a
// page full of NUL bytes and invalid UTF-8, and a 4.9 MB homepage shaped like
// a big store's). Megasite is a whole shop of some five hundred pages,
// with sitemaps, crawler traps and known faults, for whole-site crawls.
// Rendering lists eight small sites for rendering pages in a browser (a
// client-rendered app and its server-rendered twin, scripts that move the
// canonical or add JSON-LD, pages that never settle or crash the renderer,
// one that reaches for internal addresses), with their ground truth in
// RenderTruths.
// StartBadTLS serves, apart from them all, one origin per TLS fault (an
// expired, not yet valid, mismatched, unknown-authority or self-signed
// certificate, or an old protocol).
//
// Start brings them all up on loopback: one HTTPS listener that routes by
// Host header with certificates from a freshly generated test CA, and one
// plain-HTTP listener for the http→https probe. The Resolver maps the fixture
// host names to 127.0.0.1, so code under test can use real-looking URLs such
// as https://brightpath-studio.test:PORT/ and verify TLS against CertPool.
//
// Everything a fixture serves that depends on time (sitemap lastmod values,
// article dates, Last-Modified) is computed relative to the current UTC day,
// so freshness stays the same whenever the tests run. No response depends on
// randomness either: apart from the listener port in absolute URLs, two scans
// on the same day see the same bytes, which keeps goldens stable.
package testsite

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Site names: stable ids used by tests and goldens.
const (
	WordPress = "wordpress" // brightpath-studio.test
	NextShell = "nextshell" // nimbus-app.test
	Shopify   = "shopify"   // copperkettle-shop.test
	Docs      = "docs"      // lumen-docs.test
	Edge      = "edge"      // fortress-edge.test
	Broken    = "broken"    // brokenbay.test
	Winery    = "winery"    // weingut-sonnhalde.test
	Wiki      = "wiki"      // tidewater-wiki.test
	Bakery    = "bakery"    // millbrook-bakery.test

	SlowDrip         = "slowdrip"     // slowdrip.test
	Huge             = "huge"         // hugepage.test
	GzipBomb         = "gzipbomb"     // gzipbomb.test
	MetadataRedirect = "metaredirect" // metaredirect.test
	TarpitBody       = "tarpit"       // tarpit.test
	TarpitHeaders    = "tarpithead"   // tarpit-headers.test
	SlowPages        = "slowpages"    // slowpages.test
	NulBytes         = "nulbytes"     // nulbytes.test
	Heavy            = "heavy"        // everything-store.test

	Megasite = "megasite" // northwind-outfitters.test
)

// Realistic lists the realistic fixtures in a stable order.
var Realistic = []string{WordPress, NextShell, Shopify, Docs, Edge, Broken, Winery, Wiki, Bakery}

// Hostile lists the fixtures built to misbehave.
var Hostile = []string{SlowDrip, Huge, GzipBomb, MetadataRedirect, TarpitBody, TarpitHeaders, SlowPages, NulBytes, Heavy}

// Crawl lists the fixtures built for whole-site crawls. They are kept out
// of Realistic, whose sites every audit test and golden scans.
var Crawl = []string{Megasite}

// hosts maps each site to its host name.
var hosts = map[string]string{
	WordPress:        "brightpath-studio.test",
	NextShell:        "nimbus-app.test",
	Shopify:          "copperkettle-shop.test",
	Docs:             "lumen-docs.test",
	Edge:             "fortress-edge.test",
	Broken:           "brokenbay.test",
	Winery:           "weingut-sonnhalde.test",
	Wiki:             "tidewater-wiki.test",
	Bakery:           "millbrook-bakery.test",
	SlowDrip:         "slowdrip.test",
	Huge:             "hugepage.test",
	GzipBomb:         "gzipbomb.test",
	MetadataRedirect: "metaredirect.test",
	TarpitBody:       "tarpit.test",
	TarpitHeaders:    "tarpit-headers.test",
	SlowPages:        "slowpages.test",
	NulBytes:         "nulbytes.test",
	Heavy:            "everything-store.test",
	Megasite:         "northwind-outfitters.test",
}

// fixture is one site as the listeners see it.
type fixture struct {
	name string
	host string
	// serve answers HTTPS requests.
	serve http.HandlerFunc
	// plain answers the plain-HTTP listener; nil means a 301 to HTTPS.
	plain http.HandlerFunc
	// http1 refuses HTTP/2 for this host (by its TLS server name), so its
	// handlers can take over the connection and write raw bytes.
	http1 bool
}

// env is what a fixture needs to know about the running server when it is
// built: its public origin (the port is only known once the listeners exist)
// and the channel that tells long-running handlers to stop.
type env struct {
	httpsPort int
	httpPort  int
	done      <-chan struct{}
	// megasitePages is Options.MegasitePages.
	megasitePages int
	// canaryV4 and canaryV6 are the canary listeners' addresses.
	canaryV4, canaryV6 string
}

func (e *env) origin(host string) string {
	return "https://" + host + ":" + strconv.Itoa(e.httpsPort)
}

// Server runs every fixture. It is safe for concurrent use.
type Server struct {
	caPEM []byte
	pool  *x509.CertPool

	httpsLn, httpLn   net.Listener
	httpsSrv, httpSrv *http.Server
	serving           sync.WaitGroup

	sites    map[string]*fixture // by name
	canary   *canaries
	byHost   map[string]*fixture
	resolver *Resolver

	done      chan struct{}
	closeOnce sync.Once
	handlers  inflight

	mu    sync.Mutex
	hits  map[string]map[string]int
	holds map[string]chan struct{}

	// latency delays every response (SetLatency).
	latency atomic.Int64
}

// SetLatency delays every response of every fixture, on both listeners, by
// d before it is served, as a distant real site would (0, the default, for
// none). Benchmarks use it to measure how many scans one worker keeps in
// flight when it waits on the network rather than on CPU.
func (s *Server) SetLatency(d time.Duration) { s.latency.Store(int64(max(d, 0))) }

// delay waits out the latency; false when the request or the server ended
// meanwhile.
func (s *Server) delay(r *http.Request) bool {
	d := time.Duration(s.latency.Load())
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}

// Start generates a fresh test CA and a leaf certificate per fixture host
// (plus one for 127.0.0.1 and localhost), then serves every fixture on one
// HTTPS listener and one plain-HTTP listener, both on 127.0.0.1 with
// ephemeral ports. Requests are routed by Host header; unknown hosts get 421.
func Start() (*Server, error) { return StartWith(Options{}) }

// Options change what StartWith serves; the zero value is Start's sites.
type Options struct {
	// MegasitePages above the megasite's default size (about five hundred
	// pages) makes it the smallest larger site on the same templates with
	// at least that many pages (MegasitePagesOf lists them), for
	// benchmarks of whole-site audits of thousands of pages.
	MegasitePages int
}

// StartWith is Start with the sites changed by o.
func StartWith(o Options) (*Server, error) {
	if _, err := siteTemplates(); err != nil {
		return nil, err
	}
	if _, err := megasiteTemplates(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(hosts))
	for _, h := range hosts {
		names = append(names, h)
	}
	certs, err := newCertificates(names)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	httpsLn, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("testsite: listen https: %w", err)
	}
	httpLn, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		_ = httpsLn.Close()
		return nil, fmt.Errorf("testsite: listen http: %w", err)
	}

	canary, err := startCanaries()
	if err != nil {
		_ = httpsLn.Close()
		_ = httpLn.Close()
		return nil, err
	}
	s := &Server{
		canary:  canary,
		caPEM:   certs.caPEM,
		pool:    certs.pool,
		httpsLn: httpsLn,
		httpLn:  httpLn,
		sites:   map[string]*fixture{},
		byHost:  map[string]*fixture{},
		done:    make(chan struct{}),
		hits:    map[string]map[string]int{},
	}
	e := &env{
		httpsPort: portOf(httpsLn), httpPort: portOf(httpLn), done: s.done, megasitePages: o.MegasitePages,
		canaryV4: canary.v4.Addr().String(), canaryV6: canary.v6Addr,
	}
	for _, f := range []*fixture{
		newWordPress(e), newNextShell(e), newShopify(e), newDocs(e), newEdge(e), newBroken(e),
		newWinery(e), newWiki(e), newBakery(e),
		newSlowDrip(e), newHuge(e), newGzipBomb(e), newMetadataRedirect(e),
		newTarpitBody(e), newTarpitHeaders(e), newSlowPages(e), newNulBytes(e), newHeavy(e),
		newMegasite(e),
		newClientApp(e), newServerApp(e), newHydrationCanonical(e), newTagManagerJSONLD(e),
		newInfiniteScroll(e), newNeverSettles(e), newRendererCrash(e), newInternalReach(e),
		newAgentReady(e), newAgentBroken(e), newAgentNone(e),
	} {
		s.sites[f.name] = f
		s.byHost[f.host] = f
	}
	s.resolver = newResolver(names)

	// The standard library logs every failed TLS handshake and every
	// client that hangs up mid-response; both are routine when tests
	// probe hostile fixtures, so the noise is dropped.
	quiet := log.New(io.Discard, "", 0)
	http1 := &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.get, NextProtos: []string{"http/1.1"}}
	s.httpsSrv = &http.Server{
		Handler: http.HandlerFunc(s.serveHTTPS),
		TLSConfig: &tls.Config{
			MinVersion: tls.VersionTLS12, GetCertificate: certs.get,
			GetConfigForClient: func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
				if f := s.byHost[hostOnly(hello.ServerName)]; f != nil && f.http1 {
					return http1, nil
				}
				return nil, nil
			},
		},
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       30 * time.Second,
		ErrorLog:          quiet,
	}
	s.httpSrv = &http.Server{
		Handler:           http.HandlerFunc(s.servePlain),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       30 * time.Second,
		ErrorLog:          quiet,
	}
	s.serving.Add(2)
	go func() {
		defer s.serving.Done()
		// ServeTLS always returns an error; ErrServerClosed is the normal end.
		if err := s.httpsSrv.ServeTLS(httpsLn, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "testsite: https listener:", err)
		}
	}()
	go func() {
		defer s.serving.Done()
		if err := s.httpSrv.Serve(httpLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "testsite: http listener:", err)
		}
	}()
	return s, nil
}

// Close stops both listeners and every handler, and is safe to call more
// than once. It does not wait for slow clients: the drip and streaming
// handlers watch a server-wide channel, and closing the connections
// unblocks any write in progress.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		_ = s.httpsSrv.Close()
		_ = s.httpSrv.Close()
		s.serving.Wait()
		s.canary.close()
		// Handlers normally finish within milliseconds of the close; the
		// bound keeps a wedged one from hanging a test suite.
		select {
		case <-s.handlers.drain():
		case <-time.After(time.Second):
		}
	})
}

// URL is the HTTPS homepage of a site, with the listener's port and a
// trailing slash, e.g. "https://brightpath-studio.test:41234/". Like Host,
// it panics for a name that is not one of the site constants, which can
// only be a mistake in the calling test.
func (s *Server) URL(site string) string {
	return "https://" + s.Host(site) + ":" + strconv.Itoa(s.HTTPSPort()) + "/"
}

// Host is the host name of a site, without port.
func (s *Server) Host(site string) string {
	f, ok := s.sites[site]
	if !ok {
		panic("testsite: unknown site " + strconv.Quote(site))
	}
	return f.host
}

// HTTPSPort is the port of the HTTPS listener.
func (s *Server) HTTPSPort() int { return portOf(s.httpsLn) }

// HTTPPort is the port of the plain-HTTP listener.
func (s *Server) HTTPPort() int { return portOf(s.httpLn) }

// CAPEM is the PEM encoding of the test CA certificate.
func (s *Server) CAPEM() []byte { return append([]byte(nil), s.caPEM...) }

// WriteCAFile writes the CA certificate to dir/ca.pem and returns its path,
// for code that takes a CA bundle file (GEOSCAN_EXTRA_CA_FILE).
func (s *Server) WriteCAFile(dir string) (string, error) {
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, s.caPEM, 0o600); err != nil {
		return "", fmt.Errorf("testsite: write CA file: %w", err)
	}
	return path, nil
}

// WriteTempCAFile writes the CA certificate to a new temporary directory,
// for fixtures shared by a whole test binary, which no test's cleanup can
// remove; RemoveTempCAFiles, called from TestMain after the tests, does.
func (s *Server) WriteTempCAFile() (string, error) {
	dir, err := os.MkdirTemp("", "geoscan-test-ca-")
	if err != nil {
		return "", fmt.Errorf("testsite: CA directory: %w", err)
	}
	tempCADirs.Lock()
	tempCADirs.dirs = append(tempCADirs.dirs, dir)
	tempCADirs.Unlock()
	return s.WriteCAFile(dir)
}

var tempCADirs struct {
	sync.Mutex
	dirs []string
}

// RemoveTempCAFiles removes what WriteTempCAFile wrote.
func RemoveTempCAFiles() {
	tempCADirs.Lock()
	defer tempCADirs.Unlock()
	for _, d := range tempCADirs.dirs {
		_ = os.RemoveAll(d)
	}
	tempCADirs.dirs = nil
}

// CertPool is a pool holding only the test CA.
func (s *Server) CertPool() *x509.CertPool { return s.pool.Clone() }

// Resolver resolves the fixture hosts to 127.0.0.1.
func (s *Server) Resolver() *Resolver { return s.resolver }

// Client is an HTTP client that reaches the fixtures through Resolver and
// trusts only the test CA. It follows redirects like any default client and
// does not use proxies from the environment.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext:         s.resolver.DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: s.CertPool(), MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		TLSHandshakeTimeout: 5 * time.Second,
	}}
}

// Hits counts the requests a site has received, by URL path, on either
// listener. It is a copy; later requests do not change it.
func (s *Server) Hits(site string) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.hits[site]))
	for p, n := range s.hits[site] {
		out[p] = n
	}
	return out
}

func (s *Server) count(site, path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.hits[site]
	if m == nil {
		m = map[string]int{}
		s.hits[site] = m
	}
	m[path]++
}

// route finds the fixture for a request and counts the hit. It answers the
// request itself (and returns nil) when there is nothing for a fixture to do.
func (s *Server) route(w http.ResponseWriter, r *http.Request) *fixture {
	f := s.byHost[hostOnly(r.Host)]
	if f == nil {
		// 421 is what a shared front end answers for a name it does not
		// serve, which is exactly the situation of an unknown Host here.
		http.Error(w, "Misdirected Request: this server does not serve "+r.Host, http.StatusMisdirectedRequest)
		return nil
	}
	s.count(f.name, r.URL.Path)
	return f
}

func (s *Server) serveHTTPS(w http.ResponseWriter, r *http.Request) {
	if !s.handlers.enter() {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.handlers.leave()
	if !s.delay(r) {
		return
	}
	if f := s.route(w, r); f != nil {
		if gate := s.held(f.name); gate != nil {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			case <-s.done:
				return
			}
		}
		f.serve(w, r)
	}
}

func (s *Server) servePlain(w http.ResponseWriter, r *http.Request) {
	if !s.handlers.enter() {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.handlers.leave()
	if !s.delay(r) {
		return
	}
	f := s.route(w, r)
	if f == nil {
		return
	}
	if f.plain != nil {
		f.plain(w, r)
		return
	}
	redirect(w, "https://"+f.host+":"+strconv.Itoa(s.HTTPSPort())+r.URL.RequestURI(), http.StatusMovedPermanently)
}

// redirect answers a redirect with a short body, as web servers do.
func redirect(w http.ResponseWriter, location string, status int) {
	w.Header().Set("Location", location)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><h1>%s</h1><p>The document has moved <a href=\"%s\">here</a>.</p></body></html>\n",
		status, http.StatusText(status), http.StatusText(status), html.EscapeString(location))
}

// hostOnly lower-cases a Host header and strips its port and any trailing dot.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

func portOf(ln net.Listener) int {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.Port
	}
	return 0
}

// inflight counts running handlers so Close can wait for them without the
// start-after-wait race a sync.WaitGroup would have.
type inflight struct {
	mu      sync.Mutex
	n       int
	closing bool
	idle    chan struct{}
}

func (t *inflight) enter() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closing {
		return false
	}
	t.n++
	return true
}

func (t *inflight) leave() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.n == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
}

// drain refuses new handlers and returns a channel closed when none run.
func (t *inflight) drain() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closing = true
	ch := make(chan struct{})
	if t.n == 0 {
		close(ch)
	} else {
		t.idle = ch
	}
	return ch
}

// sleep waits for d unless the request or the server ends first; it reports
// whether the handler should carry on.
func sleep(ctx context.Context, done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-done:
		return false
	}
}
