package crawl

import (
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// anyLoopback resolves every name to 127.0.0.1, so one test server
// answers for example.com, www.example.com and any other host a test
// names (the server's certificate covers example.com and *.example.com).
type anyLoopback struct{}

func (anyLoopback) LookupIPAddr(context.Context, string) ([]net.IPAddr, error) {
	return []net.IPAddr{{IP: net.ParseIP("127.0.0.1")}}, nil
}

// testSite is a fixture site on a loopback TLS server that logs every
// request as "host/path?query" (the port left out).
type testSite struct {
	srv  *httptest.Server
	port string
	f    *fetch.Fetcher

	mu  sync.Mutex
	log []string
}

// newSite serves h and builds a fetcher that reaches it, with the fetch
// options o.
func newSite(t testing.TB, o fetch.Options, h func(s *testSite, w http.ResponseWriter, r *http.Request)) *testSite {
	t.Helper()
	s := &testSite{}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		s.mu.Lock()
		s.log = append(s.log, host+r.URL.RequestURI())
		s.mu.Unlock()
		h(s, w, r)
	}))
	t.Cleanup(s.srv.Close)
	_, s.port, _ = net.SplitHostPort(s.srv.Listener.Addr().String())
	ca := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw}), 0o600))
	o.AllowPrivate, o.ExtraCAFile, o.Resolver = true, ca, anyLoopback{}
	f, err := fetch.New(o)
	require.NoError(t, err)
	s.f = f
	return s
}

// url is an absolute URL on host (default example.com) of the server.
func (s *testSite) url(host, path string) string {
	if host == "" {
		host = "example.com"
	}
	return "https://" + host + ":" + s.port + path
}

func (s *testSite) target(t testing.TB, host string) *url.URL {
	t.Helper()
	u, err := url.Parse(s.url(host, "/"))
	require.NoError(t, err)
	return u
}

// requests is the request log so far.
func (s *testSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// count counts the requests whose "host/path?query" starts with prefix;
// a prefix ending in a space must match whole.
func (s *testSite) count(prefix string) int {
	n := 0
	for _, r := range s.requests() {
		if whole, ok := strings.CutSuffix(prefix, " "); ok && r == whole || !ok && strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

// servePage writes a page linking to hrefs; extra goes into <head>.
func servePage(w http.ResponseWriter, title, extra string, hrefs ...string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title>%s</head><body><h1>%s</h1><p>Some text about %s.</p><ul>", title, extra, title, title)
	for _, h := range hrefs {
		fmt.Fprintf(&b, `<li><a href="%s">%s</a></li>`, h, h)
	}
	b.WriteString("</ul></body></html>")
	_, _ = w.Write([]byte(b.String()))
}

func xmlBody(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/xml")
	_, _ = w.Write([]byte(body))
}

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	b.WriteString("</urlset>")
	return b.String()
}

func sitemapIndex(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<sitemap><loc>" + l + "</loc></sitemap>")
	}
	b.WriteString("</sitemapindex>")
	return b.String()
}

// fakeClock is time that moves only when the crawl waits: each wait is
// recorded and returns at once, so tests assert the waits asked for,
// never how long anything took.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// visits collects the pages a crawl visits (their URLs, in order).
type visits struct {
	mu    sync.Mutex
	urls  []string
	pages []*Page
}

func (v *visits) visit(p *Page) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.urls = append(v.urls, p.URL)
	// Only what the tests read is kept: the response's body is dropped.
	c := &Page{URL: p.URL, Template: p.Template, Sources: p.Sources, RedirectTo: p.RedirectTo, Tries: p.Tries}
	if p.Response != nil {
		r := *p.Response
		r.Body = nil
		c.Response = &r
	}
	v.pages = append(v.pages, c)
	return nil
}

func skipCount(res *Result, r Reason) int {
	for _, s := range res.Skipped {
		if s.Reason == r {
			return s.Count
		}
	}
	return 0
}
