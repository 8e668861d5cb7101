package testsite_test

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

const (
	browserUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	gptbotUA  = "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	geoscanUA = "GeoScan/1.0 (+https://geoscan.dev/bot)"
)

func start(t *testing.T) *testsite.Server {
	t.Helper()
	s, err := testsite.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// client reaches the fixtures the way code under test does: host names
// resolved by the fixture Resolver, TLS verified against the fixture CA,
// redirects returned rather than followed.
func client(s *testsite.Server) *http.Client {
	resolver := s.Resolver()
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				host, port, err := net.SplitHostPort(addr)
				if err != nil {
					return nil, err
				}
				ips, err := resolver.LookupIPAddr(ctx, host)
				if err != nil {
					return nil, err
				}
				return dialer.DialContext(ctx, network, net.JoinHostPort(ips[0].IP.String(), port))
			},
			TLSClientConfig:    &tls.Config{RootCAs: s.CertPool(), MinVersion: tls.VersionTLS12},
			ForceAttemptHTTP2:  true,
			DisableCompression: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       20 * time.Second,
	}
}

type result struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, c *http.Client, rawURL, ua string) result {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatalf("request %s: %v", rawURL, err)
	}
	if ua != "" {
		req.Header.Set("User-Agent", ua)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", rawURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		t.Fatalf("read %s: %v", rawURL, err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: string(body)}
}

func TestRealisticHomepagesOverVerifiedTLS(t *testing.T) {
	s := start(t)
	c := client(s)
	for _, site := range testsite.Realistic {
		r := get(t, c, s.URL(site), browserUA)
		if site == testsite.Wiki && r.status == http.StatusMovedPermanently {
			// MediaWiki sends the root to the main page.
			r = get(t, c, r.header.Get("Location"), browserUA)
		}
		if r.status != http.StatusOK {
			t.Errorf("%s homepage: status %d, want 200", site, r.status)
		}
		// The winery declares no charset anywhere: that is its point.
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") || strings.Contains(strings.ToLower(ct), "charset=") == (site == testsite.Winery) {
			t.Errorf("%s homepage: Content-Type %q", site, ct)
		}
		if !strings.Contains(r.body, "<title>") {
			t.Errorf("%s homepage has no title", site)
		}
	}
	// The ready-made client reaches the fixtures too.
	resp, err := s.Client().Get(s.URL(testsite.Docs))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("Server.Client: status %d", resp.StatusCode)
	}
}

func TestURLAndHost(t *testing.T) {
	s := start(t)
	want := "https://brightpath-studio.test:" + strconv.Itoa(s.HTTPSPort()) + "/"
	if got := s.URL(testsite.WordPress); got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got := s.Host(testsite.Docs); got != "lumen-docs.test" {
		t.Errorf("Host = %q", got)
	}
	if s.HTTPPort() == 0 || s.HTTPPort() == s.HTTPSPort() {
		t.Errorf("ports: https %d, http %d", s.HTTPSPort(), s.HTTPPort())
	}
	if len(testsite.Realistic) != 9 || testsite.Realistic[0] != testsite.WordPress || testsite.Realistic[8] != testsite.Bakery {
		t.Errorf("Realistic = %v", testsite.Realistic)
	}
}

// The shapes the new fixtures exist for: bytes a decoder must sniff, a
// sitemap only at the default path, other sites' platform paths.
func TestFixturesShapedLikeTheRealWeb(t *testing.T) {
	s := start(t)
	c := client(s)
	home := get(t, c, s.URL(testsite.Winery), browserUA)
	head := home.body[:1024]
	if strings.Contains(strings.ToLower(home.body), "charset") || !isASCII(head) || !strings.Contains(home.body, "Germany′s Frühburgunder") {
		t.Errorf("the winery must be UTF-8 with no declaration and its first 1024 bytes ASCII")
	}
	if !strings.Contains(home.body, `<base href="`+s.URL(testsite.Winery)+`"`) {
		t.Errorf("the winery sets <base href>")
	}

	robots := get(t, c, s.URL(testsite.Bakery)+"robots.txt", browserUA)
	if strings.Contains(strings.ToLower(robots.body), "sitemap") {
		t.Errorf("the bakery's robots.txt must not list its sitemap:\n%s", robots.body)
	}
	if sm := get(t, c, s.URL(testsite.Bakery)+"sitemap.xml", browserUA); sm.status != http.StatusOK || !strings.Contains(sm.body, "<urlset") {
		t.Errorf("the bakery serves /sitemap.xml: %d", sm.status)
	}

	wiki := get(t, c, s.URL(testsite.Wiki)+"wiki/Main_Page", browserUA)
	for _, want := range []string{`content="MediaWiki 1.41.0"`, "www.coastal-archive.org/wp-content/uploads/", "images.maritime-museum.org/sites/default/files/"} {
		if !strings.Contains(wiki.body, want) {
			t.Errorf("the wiki main page lacks %q", want)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func TestEdgeChallengesAICrawlers(t *testing.T) {
	s := start(t)
	c := client(s)
	r := get(t, c, s.URL(testsite.Edge), gptbotUA)
	if r.status != http.StatusForbidden || r.header.Get("cf-mitigated") != "challenge" {
		t.Errorf("GPTBot: status %d, cf-mitigated %q; want 403 challenge", r.status, r.header.Get("cf-mitigated"))
	}
	if !strings.Contains(r.body, "Just a moment...") {
		t.Error("GPTBot did not get the challenge page")
	}
	for _, ua := range []string{browserUA, geoscanUA} {
		r := get(t, c, s.URL(testsite.Edge), ua)
		if r.status != http.StatusOK || r.header.Get("cf-mitigated") != "" {
			t.Errorf("%s: status %d, cf-mitigated %q; want 200 and no challenge", ua, r.status, r.header.Get("cf-mitigated"))
		}
		if r.header.Get("Server") != "cloudflare" || !strings.HasSuffix(r.header.Get("cf-ray"), "-LHR") {
			t.Errorf("%s: missing Cloudflare headers: %v", ua, r.header)
		}
	}
	r = get(t, c, s.URL(testsite.Edge)+"robots.txt", "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)")
	if r.status != http.StatusForbidden {
		t.Errorf("ClaudeBot robots.txt: status %d, want 403", r.status)
	}
}

func TestStatusQuirks(t *testing.T) {
	s := start(t)
	c := client(s)
	cases := []struct {
		site, path string
		want       int
	}{
		{testsite.Broken, "robots.txt", http.StatusServiceUnavailable},
		{testsite.Broken, "about", http.StatusInternalServerError},
		{testsite.Broken, "contact", http.StatusNotFound},
		{testsite.Broken, "sitemap.xml", http.StatusNotFound},
		{testsite.Broken, "sitemap_index.xml", http.StatusNotFound},
		{testsite.Broken, "no-such-page-4821", http.StatusOK},
		{testsite.NextShell, "no-such-page-4821", http.StatusOK},
		{testsite.WordPress, "no-such-page-4821", http.StatusNotFound},
		{testsite.Shopify, "no-such-page-4821", http.StatusNotFound},
		{testsite.Docs, "no-such-page-4821", http.StatusNotFound},
		{testsite.Edge, "no-such-page-4821", http.StatusNotFound},
		{testsite.WordPress, "llms.txt", http.StatusNotFound},
		{testsite.Shopify, "llms.txt", http.StatusNotFound},
		{testsite.Edge, "llms.txt", http.StatusNotFound},
		{testsite.Docs, "llms.txt", http.StatusOK},
		{testsite.Docs, "llms-full.txt", http.StatusOK},
		{testsite.Docs, "docs/getting-started/index.md", http.StatusOK},
		{testsite.WordPress, "author/hannah-okafor/", http.StatusOK},
		{testsite.WordPress, "about", http.StatusMovedPermanently},
		{testsite.Huge, "robots.txt", http.StatusNotFound},
	}
	for _, tc := range cases {
		if r := get(t, c, s.URL(tc.site)+tc.path, browserUA); r.status != tc.want {
			t.Errorf("%s /%s: status %d, want %d", tc.site, tc.path, r.status, tc.want)
		}
	}
	r := get(t, c, s.URL(testsite.Broken), browserUA)
	if r.header.Get("X-Robots-Tag") != "noindex" || !strings.Contains(r.body, `content="noindex, nofollow"`) {
		t.Error("Broken homepage is not marked noindex in both header and meta tag")
	}
	r = get(t, c, s.URL(testsite.NextShell)+"no-such-page-4821", browserUA)
	if !strings.Contains(r.body, `<div id="__next"></div>`) {
		t.Error("NextShell soft 404 is not the app shell")
	}
}

func TestWordPressSitemapsCarryTheRealPort(t *testing.T) {
	s := start(t)
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.WordPress), "/")
	robots := get(t, c, origin+"/robots.txt", browserUA)
	if !strings.Contains(robots.body, "Sitemap: "+origin+"/sitemap_index.xml") {
		t.Errorf("robots.txt has no Sitemap line with the real port:\n%s", robots.body)
	}
	index := get(t, c, origin+"/sitemap_index.xml", browserUA)
	for _, child := range []string{origin + "/post-sitemap.xml", origin + "/page-sitemap.xml"} {
		if !strings.Contains(index.body, "<loc>"+child+"</loc>") {
			t.Errorf("sitemap index does not list %s:\n%s", child, index.body)
		}
	}
	posts := locs(t, get(t, c, origin+"/post-sitemap.xml", browserUA).body)
	if len(posts) != 3 {
		t.Errorf("post sitemap has %d URLs, want 3", len(posts))
	}
}

// TestEveryListedURLResolves follows every sitemap and llms.txt link of the
// realistic sites and expects a 200, which also proves every page template
// renders.
func TestEveryListedURLResolves(t *testing.T) {
	s := start(t)
	c := client(s)
	sitemaps := map[string]string{
		testsite.WordPress: "sitemap_index.xml",
		testsite.NextShell: "sitemap.xml",
		testsite.Shopify:   "sitemap.xml",
		testsite.Docs:      "sitemap.xml",
		testsite.Edge:      "sitemap.xml",
	}
	for site, first := range sitemaps {
		queue := []string{s.URL(site) + first}
		pages := 0
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			r := get(t, c, u, browserUA)
			if r.status != http.StatusOK {
				t.Errorf("%s: GET %s = %d", site, u, r.status)
				continue
			}
			if strings.Contains(r.body, "<urlset") || strings.Contains(r.body, "<sitemapindex") {
				queue = append(queue, locs(t, r.body)...)
				continue
			}
			pages++
			if strings.Contains(r.body, "failed to render") {
				t.Errorf("%s: %s did not render", site, u)
			}
		}
		if pages < 4 {
			t.Errorf("%s: sitemaps list %d pages, want at least 4", site, pages)
		}
	}
	llms := get(t, c, s.URL(testsite.Docs)+"llms.txt", browserUA)
	if ct := llms.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("llms.txt Content-Type %q", ct)
	}
	links := regexp.MustCompile(`\]\((https://[^)]+)\)`).FindAllStringSubmatch(llms.body, -1)
	if len(links) < 4 {
		t.Fatalf("llms.txt has %d links:\n%s", len(links), llms.body)
	}
	for _, l := range links {
		if r := get(t, c, l[1], browserUA); r.status != http.StatusOK {
			t.Errorf("llms.txt link %s = %d", l[1], r.status)
		}
	}
}

func locs(t *testing.T, body string) []string {
	t.Helper()
	var doc struct {
		Locs []string `xml:"url>loc"`
		Maps []string `xml:"sitemap>loc"`
	}
	if err := xml.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("sitemap does not parse: %v\n%s", err, body)
	}
	return append(doc.Locs, doc.Maps...)
}

func TestGzipOnlyWhereExpected(t *testing.T) {
	s := start(t)
	c := client(s)
	fetch := func(site string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, s.URL(site), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "gzip, br, zstd")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := fetch(testsite.WordPress)
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("WordPress not gzipped: %v", resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	html, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<meta name="generator" content="WordPress 6.5.3"`) {
		t.Error("gzipped WordPress homepage lacks the generator tag")
	}
	broken := fetch(testsite.Broken)
	defer broken.Body.Close()
	if enc := broken.Header.Get("Content-Encoding"); enc != "" {
		t.Errorf("Broken is compressed (%s)", enc)
	}
}

func TestPlainHTTPListener(t *testing.T) {
	s := start(t)
	c := client(s)
	plain := func(site string) string {
		return "http://" + s.Host(site) + ":" + strconv.Itoa(s.HTTPPort()) + "/some/path?q=1"
	}
	r := get(t, c, plain(testsite.WordPress), browserUA)
	want := "https://brightpath-studio.test:" + strconv.Itoa(s.HTTPSPort()) + "/some/path?q=1"
	if r.status != http.StatusMovedPermanently || r.header.Get("Location") != want {
		t.Errorf("WordPress over http: %d %q, want 301 %q", r.status, r.header.Get("Location"), want)
	}
	if r := get(t, c, plain(testsite.NextShell), browserUA); r.status != http.StatusFound {
		t.Errorf("NextShell over http: %d, want 302", r.status)
	}
	r = get(t, c, "http://brokenbay.test:"+strconv.Itoa(s.HTTPPort())+"/", browserUA)
	if r.status != http.StatusOK || !strings.Contains(r.body, "Broken Bay Marina") {
		t.Errorf("Broken over http: %d, want 200 with the homepage", r.status)
	}
}

func TestHostileFixtures(t *testing.T) {
	s := start(t)
	c := client(s)
	r := get(t, c, s.URL(testsite.MetadataRedirect)+"anything", browserUA)
	if r.status != http.StatusFound || r.header.Get("Location") != testsite.MetadataTarget {
		t.Errorf("metadata redirect: %d %q", r.status, r.header.Get("Location"))
	}

	// The huge page streams far more than any cap; read a bounded prefix.
	resp, err := c.Get(s.URL(testsite.Huge))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, 6<<20))
	_ = resp.Body.Close()
	if err != nil || n != 6<<20 {
		t.Errorf("huge page: read %d bytes, err %v", n, err)
	}
}

func TestGzipBomb(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := client(s)
	resp, err := c.Get(s.URL(testsite.GzipBomb))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("headers %v", resp.Header)
	}
	if resp.ContentLength <= 0 || resp.ContentLength > 2<<20 {
		t.Errorf("compressed size %d, want about 1 MiB", resp.ContentLength)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 15)
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != "<!DOCTYPE html>" {
		t.Fatalf("inflated start %q, err %v", head, err)
	}
	if testing.Short() {
		return
	}
	// Inflating all of it checks the stream and its CRC-32 trailer.
	n, err := io.Copy(io.Discard, zr)
	if err != nil || n < 1<<30 {
		t.Errorf("inflated %d bytes, err %v; want at least 1 GiB and a valid trailer", n, err)
	}
}

func TestHitsCountRequests(t *testing.T) {
	s := start(t)
	c := client(s)
	for range 3 {
		get(t, c, s.URL(testsite.Docs)+"robots.txt", browserUA)
	}
	get(t, c, s.URL(testsite.Docs), browserUA)
	hits := s.Hits(testsite.Docs)
	if hits["/robots.txt"] != 3 || hits["/"] != 1 {
		t.Errorf("Hits = %v", hits)
	}
	if len(s.Hits(testsite.Shopify)) != 0 {
		t.Errorf("Shopify has hits it never received: %v", s.Hits(testsite.Shopify))
	}
}

func TestResolverAndUnknownHosts(t *testing.T) {
	s := start(t)
	ctx := context.Background()
	addrs, err := s.Resolver().LookupIPAddr(ctx, "Lumen-Docs.test.")
	if err != nil || len(addrs) != 1 || !addrs[0].IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Errorf("fixture host: %v, %v", addrs, err)
	}
	for _, host := range []string{"example.com", "localhost", "169.254.169.254"} {
		_, err := s.Resolver().LookupIPAddr(ctx, host)
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Errorf("%s: err %v, want a not-found DNSError", host, err)
		}
	}

	// A request that reaches the listener for a host it does not serve.
	req, err := http.NewRequest(http.MethodGet, s.URL(testsite.Docs), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "unknown.test"
	resp, err := client(s).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("unknown Host: status %d, want 421", resp.StatusCode)
	}
}

func TestCAFile(t *testing.T) {
	s := start(t)
	path, err := s.WriteCAFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "ca.pem" || string(data) != string(s.CAPEM()) || !strings.Contains(string(data), "BEGIN CERTIFICATE") {
		t.Errorf("CA file %s does not hold the CA PEM", path)
	}
}

func TestCloseWhileDripping(t *testing.T) {
	s, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	c := client(s)
	resp, err := c.Get(s.URL(testsite.SlowDrip))
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("slow drip status %d", resp.StatusCode)
	}
	// Start reading so the request is in flight when Close runs.
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		_, _ = io.Copy(io.Discard, resp.Body)
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close did not return within 2s while a slow-drip response was in flight")
	}
	select {
	case <-readDone:
	case <-time.After(5 * time.Second):
		t.Error("the slow-drip response did not end after Close")
	}
	s.Close() // idempotent
}

func TestStructuredDataIsValidJSON(t *testing.T) {
	s := start(t)
	c := client(s)
	paths := map[string][]string{
		testsite.WordPress: {"", "blog/how-much-does-a-brand-refresh-cost/", "services/", "author/james-whitfield/"},
		testsite.Shopify:   {"", "products/house-espresso-blend", "blogs/news/how-to-brew-pour-over-coffee-at-home"},
		testsite.Docs:      {"", "docs/search-index/", "about/"},
		testsite.Edge:      {""},
	}
	script := regexp.MustCompile(`(?s)<script type="application/ld\+json"[^>]*>(.*?)</script>`)
	for site, list := range paths {
		for _, p := range list {
			r := get(t, c, s.URL(site)+p, browserUA)
			blocks := script.FindAllStringSubmatch(r.body, -1)
			if len(blocks) == 0 {
				t.Errorf("%s /%s: no JSON-LD", site, p)
			}
			for _, b := range blocks {
				if !jsonValid(b[1]) {
					t.Errorf("%s /%s: invalid JSON-LD:\n%s", site, p, b[1])
				}
			}
		}
	}
}

func jsonValid(s string) bool { return json.Valid([]byte(s)) }

// With a latency set, no response comes before it is over (an hour here,
// against a client that gives up after a fraction of a second, so the test
// does not depend on how fast the machine is); with none, the same request
// is answered. Both listeners are delayed.
func TestLatencyDelaysEveryResponse(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.SetLatency(time.Hour)
	for _, rawURL := range []string{s.URL(testsite.Docs), "http://" + s.Host(testsite.Docs) + ":" + strconv.Itoa(s.HTTPPort()) + "/"} {
		c := client(s)
		c.Timeout = 300 * time.Millisecond
		resp, err := c.Get(rawURL)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("GET %s answered %d despite an hour of latency", rawURL, resp.StatusCode)
		}
	}
	s.SetLatency(0)
	if r := get(t, client(s), s.URL(testsite.Docs), browserUA); r.status != http.StatusOK {
		t.Fatalf("without latency: status %d", r.status)
	}
}
