package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// loopback resolves every name to 127.0.0.1.
type loopback struct{}

func (loopback) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if strings.HasSuffix(host, ".invalid") {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP("127.0.0.1")}}, nil
}

func testFetcher(t *testing.T, h http.Handler, o Options) (*Fetcher, string) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	o.AllowPrivate, o.ExtraCAFile = true, ca
	f, err := New(o)
	require.NoError(t, err)
	return f, srv.URL
}

func TestBodiesAreDecodedUnderTheLimit(t *testing.T) {
	t.Parallel()
	page := strings.Repeat("<p>GeoScan</p>", 100)
	mux := http.NewServeMux()
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		_, _ = zw.Write([]byte(page))
		_ = zw.Close()
	})
	mux.HandleFunc("/br", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		bw := brotli.NewWriter(w)
		_, _ = bw.Write([]byte(page))
		_ = bw.Close()
	})
	mux.HandleFunc("/zstd", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "zstd")
		zw, _ := zstd.NewWriter(w)
		_, _ = zw.Write([]byte(page))
		_ = zw.Close()
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		_, _ = zw.Write(bytes.Repeat([]byte(" "), 4<<20))
		_ = zw.Close()
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		_, _ = w.Write([]byte("<p>caf\xe9</p>"))
	})
	f, base := testFetcher(t, mux, Options{MaxBodyBytes: 1 << 20})
	ctx := context.Background()
	for _, enc := range []string{"gzip", "br", "zstd"} {
		r := f.Do(ctx, Request{URL: base + "/" + enc})
		require.NoError(t, r.Err, enc)
		require.Equal(t, page, string(r.Body), enc)
		require.Equal(t, enc, r.ContentEncoding)
	}
	bomb := f.Do(ctx, Request{URL: base + "/bomb"})
	require.ErrorIs(t, bomb.Err, ErrTooLarge)
	require.True(t, bomb.Truncated)
	require.Equal(t, 1<<20, bomb.Bytes)
	require.Equal(t, "response_too_large", Describe(bomb.Err).Code)

	latin := f.Do(ctx, Request{URL: base + "/latin1"})
	require.Equal(t, "<p>café</p>", string(latin.Body))
}

func TestRedirectsAreRecordedAndBounded(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if n == 0 {
			_, _ = w.Write([]byte("arrived"))
			return
		}
		http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusMovedPermanently)
	})
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	f, base := testFetcher(t, mux, Options{})
	ctx := context.Background()

	ok := f.Do(ctx, Request{URL: base + "/hop/3"})
	require.NoError(t, ok.Err)
	require.Equal(t, "arrived", string(ok.Body))
	require.Len(t, ok.Redirects, 3)
	require.Equal(t, 301, ok.Redirects[0].Status)
	require.Equal(t, base+"/hop/0", ok.FinalURL)

	tooMany := f.Do(ctx, Request{URL: base + "/hop/9"})
	require.Error(t, tooMany.Err)
	require.Equal(t, "too_many_redirects", Describe(tooMany.Err).Code)

	meta := f.Do(ctx, Request{URL: base + "/meta"})
	require.Error(t, meta.Err)
	require.Equal(t, "blocked_destination", Describe(meta.Err).Code, meta.Err.Error())

	noFollow := f.Do(ctx, Request{URL: base + "/hop/1", NoFollow: true})
	require.NoError(t, noFollow.Err)
	require.Equal(t, 301, noFollow.Status)
}

func TestFailuresAreExplained(t *testing.T) {
	t.Parallel()
	f, err := New(Options{AllowPrivate: true, Resolver: loopback{}})
	require.NoError(t, err)
	r := f.Do(context.Background(), Request{URL: "https://nowhere.invalid/"})
	require.Equal(t, "dns_failure", Describe(r.Err).Code)
	require.Contains(t, Describe(r.Err).Message, "nowhere.invalid")

	// A server whose certificate nobody trusts.
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	r = f.Do(context.Background(), Request{URL: srv.URL})
	require.Equal(t, "tls_error", Describe(r.Err).Code, r.Err.Error())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = f.Do(ctx, Request{URL: srv.URL})
	require.Error(t, r.Err)
	require.ErrorIs(t, r.Err, context.Canceled)
}

func TestSiteFollowsSitemapIndexes(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	var base string
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<html><body><a href="/about/">About</a><a href="/blog/first-post/">Post</a></body></html>`))
	})
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("User-agent: *\nAllow: /\nSitemap: " + base + "/index.xml\n"))
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` + base + `/posts.xml</loc></sitemap></sitemapindex>`))
	})
	mux.HandleFunc("/posts.xml", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + base + `/blog/first-post/</loc><lastmod>2026-11-01</lastmod></url><url><loc>` + base + `/blog/second-post/</loc></url></urlset>`))
	})
	f, b := testFetcher(t, mux, Options{})
	base = b
	target, err := url.Parse(base + "/")
	require.NoError(t, err)
	site, err := f.Site(context.Background(), target)
	require.NoError(t, err)
	require.Len(t, site.Sitemaps, 2, "the index and its child")
	require.Equal(t, []SitemapURL{{Loc: base + "/blog/first-post/", LastMod: "2026-11-01"}, {Loc: base + "/blog/second-post/"}}, site.SitemapURLs)
	require.Len(t, site.PagesFor(About), 1)
	require.Len(t, site.PagesFor(Article), 2, "one linked from the homepage, one from the sitemap")
	require.NotNil(t, site.Robots)
	require.Equal(t, 404, site.NotFound.Status)
	require.Len(t, site.Bots, len(ProbeBots))
	for _, r := range site.All {
		require.NotEmpty(t, r.Purpose, r.URL)
	}
}

func TestHomepageFailuresStopTheAudit(t *testing.T) {
	t.Parallel()
	f, base := testFetcher(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}), Options{})
	target, err := url.Parse(base + "/")
	require.NoError(t, err)
	site, err := f.Site(context.Background(), target)
	var homeErr *HomeError
	require.ErrorAs(t, err, &homeErr)
	require.Equal(t, "http_error", homeErr.Code)
	require.Contains(t, homeErr.Message, "503")
	require.Len(t, site.All, 1, "nothing else is fetched")
}

// TestTLSFailuresSayWhatFailed: a site's TLS failure is worded once, as
// what failed (expired, not yet valid, issued for another host, by an
// unknown authority, self-signed, or a handshake the site refused), never
// with Go's "tls:" or "x509:" prefixes or "TLS" said twice.
func TestTLSFailuresSayWhatFailed(t *testing.T) {
	t.Parallel()
	bad, err := testsite.StartBadTLS()
	require.NoError(t, err)
	t.Cleanup(bad.Close)
	ca, err := bad.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	f, err := New(Options{AllowPrivate: true, ExtraCAFile: ca})
	require.NoError(t, err)

	tests := []struct {
		fault string
		want  string
	}{
		{testsite.TLSExpired, "the TLS certificate expired on " + bad.Expiry.Format(time.DateOnly)},
		{testsite.TLSNotYetValid, "the TLS certificate is not valid before " + bad.NotBefore.Format(time.DateOnly)},
		{testsite.TLSWrongHost, "the TLS certificate is valid for other.test, not for 127.0.0.1"},
		{testsite.TLSUnknownAuthority, "the TLS certificate is issued by Unknown Test Authority, which is not a trusted certificate authority (or the server does not send its intermediate certificates)"},
		{testsite.TLSSelfSigned, "the TLS certificate is self-signed, not issued by a trusted certificate authority"},
		{testsite.TLSOldProtocol, "the TLS handshake failed: the server refused it (protocol version not supported)"},
	}
	for _, tc := range tests {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			r := f.Do(context.Background(), Request{URL: bad.URL(tc.fault)})
			require.Error(t, r.Err)
			got := Describe(r.Err)
			require.Equal(t, "tls_error", got.Code, r.Err.Error())
			require.Equal(t, tc.want, got.Message)

			home := describeHome(r).Message
			require.Equal(t, "The homepage could not be fetched: "+tc.want+".", home)
			require.Equal(t, 1, strings.Count(strings.ToLower(home), "tls"), home)
			require.NotContains(t, home, "x509")
		})
	}
}

// TestKeepHoldsTheStartAndCountsTheRest: a probe that keeps the start of
// a body still learns its whole size, compressed or not, and a body over
// the limit is still cut and said to be.
func TestKeepHoldsTheStartAndCountsTheRest(t *testing.T) {
	big := strings.Repeat("<p>Grüße aus Köln, 東京 и Москва.</p>\n", 20000)
	mux := http.NewServeMux()
	mux.HandleFunc("/plain", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(big))
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		_, _ = zw.Write([]byte(big))
		_ = zw.Close()
	})
	f, base := testFetcher(t, mux, Options{MaxBodyBytes: 1 << 20})
	ctx := context.Background()
	for _, p := range []string{"/plain", "/gzip"} {
		whole := f.Do(ctx, Request{URL: base + p})
		require.NoError(t, whole.Err, p)
		require.Equal(t, len(big), whole.Bytes, p)
		require.Equal(t, big, string(whole.Body), p)

		kept := f.Do(ctx, Request{URL: base + p, Keep: 4096})
		require.NoError(t, kept.Err, p)
		require.Equal(t, len(big), kept.Bytes, p)
		require.Equal(t, big[:4096], string(kept.Body), p)
		require.False(t, kept.Truncated, p)
	}
	over := strings.Repeat("x", 2<<20)
	mux.HandleFunc("/over", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(over)) })
	cut := f.Do(ctx, Request{URL: base + "/over", Keep: 4096})
	require.ErrorIs(t, cut.Err, ErrTooLarge)
	require.True(t, cut.Truncated)
	require.Equal(t, 1<<20, cut.Bytes)
	require.Len(t, cut.Body, 4096)
}
