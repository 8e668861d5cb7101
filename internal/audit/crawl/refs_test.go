package crawl

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

func TestReadRefsReadsWhatTheCrawlNeeds(t *testing.T) {
	t.Parallel()
	pageURL, err := url.Parse("https://example.com/dir/page")
	require.NoError(t, err)
	body := `<!doctype html><html><head>
		<base href="/base/"><base href="/ignored/">
		<link rel="Canonical" href="/canon"><link rel="sitemap alternate" href="/sm.xml">
		<meta name="description" content="nofollow is only text here">
		<script>document.write('<a href="/in-script">')</script>
	</head><body>
		<a href="rel">r</a><a href="rel">again</a><a href="#top">top</a><a href="">empty</a><a>none</a>
		<a HREF="https://other.test/x?a=1&amp;b=2">o</a><a href="/abs" href="/second">first wins</a>
		<a href="mailto:x@example.com">m</a>
	</body></html>`
	r := readRefs([]byte(body), pageURL, 100)
	require.Equal(t, []string{
		"https://example.com/base/rel", "https://other.test/x?a=1&b=2", "https://example.com/abs", "mailto:x@example.com",
	}, r.links)
	require.Equal(t, []string{"https://example.com/canon"}, r.canonicals)
	require.Equal(t, []string{"https://example.com/sm.xml"}, r.sitemaps)
	require.False(t, r.nofollow)

	r = readRefs([]byte(`<meta name="GeoScan" content="noindex, NoFollow"><a href="/x">x</a>`), pageURL, 100)
	require.True(t, r.nofollow)
	r = readRefs([]byte(`<meta name="robots" content="none">`), pageURL, 100)
	require.True(t, r.nofollow)
	r = readRefs([]byte(`<meta name="googlebot" content="nofollow">`), pageURL, 100)
	require.False(t, r.nofollow, "another crawler's directive")

	r = readRefs([]byte(strings.Repeat(`<a href="/a">a</a><a href="/b">b</a>`, 10)), pageURL, 5)
	require.Equal(t, []string{"https://example.com/a", "https://example.com/b"}, r.links)
	require.Equal(t, 15, r.over)

	// Garbage is no error, only no links.
	r = readRefs([]byte("\x00<<a href=\"\xff\">"), pageURL, 100)
	require.Empty(t, r.canonicals)
}

func TestPagesAreParsedOnDemandOrByTheWorkers(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt", "/missing":
			http.NotFound(w, r)
		case "/":
			servePage(w, "Home", "", "/a", "/missing", "/moved")
		case "/moved":
			http.Redirect(w, r, "/a", http.StatusFound)
		default:
			servePage(w, "Page A", "")
		}
	})
	for _, eager := range []bool{false, true} {
		var mu sync.Mutex
		titles := map[string]string{}
		once := true
		_, err := Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, ParsePages: eager}, func(p *Page) error {
			mu.Lock()
			defer mu.Unlock()
			title := "<none>"
			if doc := p.HTML(); doc != nil {
				title = doc.Title
				once = once && doc == p.HTML()
			}
			titles[strings.TrimPrefix(p.URL, s.url("", ""))] = title
			return nil
		})
		require.NoError(t, err)
		require.True(t, once, "a page is parsed once")
		require.Equal(t, map[string]string{"/": "Home", "/a": "Page A", "/missing": "<none>", "/moved": "<none>"}, titles)
	}
}
