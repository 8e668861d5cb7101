package crawl

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// shop is a site of several templates: posts and products listed in
// sitemaps (one of them gzip), docs in llms.txt and a <link rel=sitemap>,
// tags only linked from pages, a disallowed section, and links to other
// sites and to files.
func shop(s *testSite, w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private\n\nSitemap: %s\nSitemap: %s\n", s.url("", "/sitemap_index.xml"), s.url("other.test", "/sitemap.xml"))
	case p == "/sitemap_index.xml":
		xmlBody(w, sitemapIndex(s.url("", "/sitemaps/posts.xml"), s.url("", "/sitemaps/products.xml.gz")))
	case p == "/sitemaps/posts.xml":
		var locs []string
		for n := 1; n <= 40; n++ {
			locs = append(locs, s.url("", fmt.Sprintf("/blog/2024/%02d/post-%d", n%12+1, n)))
		}
		// A tracking duplicate of the first post.
		locs = append(locs, s.url("", "/blog/2024/02/post-1?utm_source=feed&amp;utm_medium=rss"))
		xmlBody(w, urlset(locs...))
	case p == "/sitemaps/products.xml.gz":
		var locs []string
		for n := 1; n <= 40; n++ {
			locs = append(locs, s.url("", "/products/"+strconv.Itoa(n)))
		}
		locs = append(locs, s.url("", "/private/secret-1"))
		w.Header().Set("Content-Type", "application/gzip")
		zw := gzip.NewWriter(w)
		_, _ = zw.Write([]byte(urlset(locs...)))
		_ = zw.Close()
	case p == "/sitemaps/extra.xml":
		xmlBody(w, urlset(s.url("", "/docs/faq")))
	case p == "/llms.txt":
		fmt.Fprintf(w, "# Shop\n\n- [Start](/docs/getting-started): how to begin\n- [API](%s)\n- [Elsewhere](https://elsewhere.test/x)\n", s.url("", "/docs/api-reference"))
	case p == "/":
		servePage(w, "Home", `<link rel="sitemap" href="/sitemaps/extra.xml">`,
			"/about", "/contact", "/blog/2024/02/post-1?gclid=abc#comments", "/tags/news", "/private/x",
			"https://elsewhere.test/", "/logo.png", "mailto:hi@example.com")
	case strings.HasPrefix(p, "/blog/"):
		n, _ := strconv.Atoi(p[strings.LastIndex(p, "-")+1:])
		servePage(w, "Post", "", fmt.Sprintf("/tags/tag-%d", n%5), "/")
	case strings.HasPrefix(p, "/products/"):
		servePage(w, "Product", "", "/products/1", "/")
	case p == "/about", p == "/contact", strings.HasPrefix(p, "/docs/"), strings.HasPrefix(p, "/tags/"):
		servePage(w, "Page", "", "/")
	case strings.HasPrefix(p, "/private/"):
		servePage(w, "Secret", "")
	default:
		http.NotFound(w, r)
	}
}

func TestDiscoverBuildsTheInventory(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, shop)
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true})
	require.NoError(t, err)

	sources := func(path string) string {
		t.Helper()
		e, ok := inv.Lookup(s.url("", path))
		require.True(t, ok, path)
		return e.Sources.String()
	}
	require.Equal(t, "homepage", sources("/"))
	// The sitemap's tracking duplicate and the homepage's link with a
	// gclid and a fragment are one URL.
	require.Equal(t, "sitemap+link", sources("/blog/2024/02/post-1"))
	require.Equal(t, "sitemap", sources("/products/7"), "read from the gzip sitemap")
	require.Equal(t, "sitemap", sources("/docs/faq"), "read from the homepage's <link rel=sitemap>")
	require.Equal(t, "llms_txt", sources("/docs/getting-started"))
	require.Equal(t, "llms_txt", sources("/docs/api-reference"))
	require.Equal(t, "link", sources("/tags/news"))
	_, ok := inv.Lookup("https://elsewhere.test/x")
	require.False(t, ok)

	// The homepage, 40 posts, 40 products, a private page and the FAQ from
	// sitemaps, 2 docs from llms.txt, and /about, /contact, /tags/news and
	// /private/x from the homepage.
	require.Equal(t, 89, inv.Known())
	require.Equal(t, map[string]int{"homepage": 1, "sitemap": 82, "llms_txt": 2, "link": 5}, inv.BySource())

	var kinds []string
	for _, f := range inv.Sitemaps() {
		kinds = append(kinds, fmt.Sprintf("%s %s %s %d gzip=%v", f.Source, strings.TrimPrefix(f.URL, s.url("", "")), f.Kind, f.Entries, f.Gzip))
	}
	require.Equal(t, []string{
		"robots_txt /sitemap_index.xml sitemapindex 2 gzip=false",
		"sitemap_index /sitemaps/posts.xml urlset 41 gzip=false",
		"sitemap_index /sitemaps/products.xml.gz urlset 41 gzip=true",
		"link_rel_sitemap /sitemaps/extra.xml urlset 1 gzip=false",
	}, kinds)

	skipped := map[Reason]int{}
	for _, sk := range inv.Skipped() {
		skipped[sk.Reason] = sk.Count
	}
	require.Equal(t, 1, skipped[ReasonSitemapOtherSite])
	require.Equal(t, 2, skipped[ReasonOtherSite], "elsewhere.test from the homepage and llms.txt")
	require.Equal(t, 1, skipped[ReasonNotAPage], "/logo.png")

	// Discovery read robots.txt, the homepage, the sitemaps and llms.txt:
	// no other page, and nothing of the other site.
	require.ElementsMatch(t, []string{
		"example.com/robots.txt", "example.com/", "example.com/sitemap_index.xml", "example.com/sitemaps/posts.xml",
		"example.com/sitemaps/products.xml.gz", "example.com/sitemaps/extra.xml", "example.com/llms.txt",
	}, s.requests())
}

func TestDisallowedPagesAreNeverRequested(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, shop)
	res, err := Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 500}, nil)
	require.NoError(t, err)
	require.Equal(t, StopComplete, res.Stop)
	require.Zero(t, s.count("example.com/private"), "robots.txt disallows /private for *")
	require.Equal(t, 2, skipCount(res, ReasonDisallowed))
	require.Zero(t, s.count("other.test"))
	require.Zero(t, s.count("elsewhere.test"))

	// A group naming GeoScan replaces the * group for it (Google's
	// semantics): its rules apply, the * group's do not.
	s = newSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /star-only\n\nUser-agent: GeoScan\nDisallow: /geoscan-only\n")
		case "/":
			servePage(w, "Home", "", "/star-only", "/geoscan-only", "/open")
		default:
			servePage(w, "Page", "")
		}
	})
	res, err = Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true}, nil)
	require.NoError(t, err)
	require.Zero(t, s.count("example.com/geoscan-only"))
	require.Equal(t, 1, s.count("example.com/star-only"))
	require.Equal(t, 1, s.count("example.com/open"))
	require.Equal(t, 3, res.Pages)

	// robots.txt that cannot be read (5xx) disallows everything.
	s = newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		servePage(w, "Page", "", "/a")
	})
	res, err = Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true}, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"example.com/robots.txt"}, s.requests())
	require.Equal(t, "unreachable", res.Robots)
	require.Zero(t, res.Pages)
}

func TestSampleCoversEveryTemplateTheSameWayTwice(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, shop)
	crawlOnce := func() (*Result, []string) {
		var v visits
		res, err := Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 20, PerHost: 4}, v.visit)
		require.NoError(t, err)
		require.Equal(t, s.url("", "/"), v.urls[0], "the homepage comes first")
		urls := slices.Clone(v.urls)
		slices.Sort(urls)
		return res, urls
	}
	first, urls := crawlOnce()
	require.Equal(t, StopPages, first.Stop)
	require.Equal(t, 20, first.Pages)
	require.Equal(t, 20, first.Sample.Sampled)
	require.Len(t, slices.Compact(slices.Clone(urls)), len(urls), "no page twice")
	sampled := map[string]int{}
	for _, tc := range first.Sample.Templates {
		sampled[tc.Template] = tc.Sampled
		if tc.Template != "/private/{slug}" {
			require.Positive(t, tc.Sampled, "template %s has pages and none was sampled", tc.Template)
		}
	}
	for _, tmpl := range []string{"/", "/blog/{yyyy}/{mm}/{slug}", "/products/{id}", "/docs/{slug}", "/about", "/contact", "/tags/{slug}"} {
		require.Contains(t, sampled, tmpl)
	}
	require.Contains(t, first.Sample.String(), "/blog/{yyyy}/{mm}/{slug}")
	require.Contains(t, first.Sample.String(), "Sampled 20 of")

	second, again := crawlOnce()
	require.Equal(t, urls, again, "the same site gives the same sample")
	require.Equal(t, first.Sample, second.Sample)
}

func TestCrawlTrapsAreBounded(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/robots.txt":
			http.NotFound(w, r)
		case p == "/":
			servePage(w, "Home", "", "/calendar/2024/01", "/list?page=1", "/a/b/", "/about")
		case strings.HasPrefix(p, "/calendar/"):
			// An endless calendar: every month links to the next.
			parts := strings.Split(p, "/")
			y, _ := strconv.Atoi(parts[2])
			m, _ := strconv.Atoi(parts[3])
			if m++; m > 12 {
				y, m = y+1, 1
			}
			servePage(w, "Month", "", fmt.Sprintf("/calendar/%d/%02d", y, m))
		case p == "/list":
			n, _ := strconv.Atoi(r.URL.Query().Get("page"))
			servePage(w, "List", "", fmt.Sprintf("/list?page=%d", n+1), fmt.Sprintf("/list?page=%d&sort=new", n+1))
		default:
			// Relative links that nest without end: /a/b/a/b/…
			servePage(w, "Deep", "", "a/b/", "c/")
		}
	})
	res, err := Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 100, MaxTemplatePages: 5}, nil)
	require.NoError(t, err)
	require.Equal(t, StopComplete, res.Stop, "every template reached its cap before the budget")
	require.Equal(t, 5, s.count("example.com/calendar/"))
	// Two templates, /list?page and /list?page&sort, five pages each.
	require.Equal(t, 10, s.count("example.com/list?page="))
	require.Positive(t, skipCount(res, ReasonRepeated), "the relative-link trap")
	capped := 0
	for _, tc := range res.Sample.Templates {
		require.LessOrEqual(t, tc.Sampled, 5, tc.Template)
		if tc.Capped {
			capped++
		}
	}
	require.GreaterOrEqual(t, capped, 2)
	require.Less(t, res.Pages, 100)
}

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	tries := map[string]int{}
	s := newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch p {
		case "/robots.txt":
			http.NotFound(w, r)
			return
		case "/":
			servePage(w, "Home", "", "/busy", "/down", "/fine")
			return
		}
		mu.Lock()
		tries[p]++
		n := tries[p]
		mu.Unlock()
		switch {
		case p == "/busy" && n == 1:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		case p == "/down":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			servePage(w, "Page", "")
		}
	})
	clk := newFakeClock()
	var v visits
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, PerHost: 1, clock: clk})
	require.NoError(t, err)
	res, err := Run(context.Background(), inv, v.visit)
	require.NoError(t, err)
	log := s.requests()
	require.Equal(t, []string{
		"example.com/robots.txt", "example.com/", "example.com/sitemap.xml", "example.com/sitemap_index.xml", "example.com/llms.txt",
	}, log[:5])
	// A URL keeps its one slot through its tries, so each URL's requests
	// come in one run: /busy 429 then served after the wait it asked for,
	// /down 503 three times and given up.
	require.ElementsMatch(t, []string{"example.com/busy×2", "example.com/down×3", "example.com/fine×1"}, runs(log[5:]))
	// The waits asked of the clock: 7 s for the Retry-After, then the
	// backoff of 1 s and 2 s for the 503s without one.
	require.Equal(t, []time.Duration{7 * time.Second, time.Second, 2 * time.Second}, clk.slept())
	require.Equal(t, 3, res.Retries)
	require.Equal(t, 1, skipCount(res, ReasonGaveUp))
	byURL := map[string]*Page{}
	for _, p := range v.pages {
		byURL[strings.TrimPrefix(p.URL, s.url("", ""))] = p
	}
	require.Equal(t, 2, byURL["/busy"].Tries)
	require.Equal(t, 200, byURL["/busy"].Response.Status)
	require.Equal(t, 3, byURL["/down"].Tries)
	require.Equal(t, 503, byURL["/down"].Response.Status)
	down, ok := inv.Lookup(s.url("", "/down"))
	require.True(t, ok)
	require.Equal(t, Failed, down.State)

	// A Retry-After beyond MaxRetryWait ends the crawl: nothing more is
	// requested.
	s = newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			servePage(w, "Home", "", "/a", "/b", "/c")
		default:
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	res, err = Crawl(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, PerHost: 1, clock: newFakeClock()}, nil)
	require.NoError(t, err)
	require.Equal(t, StopRetryAfter, res.Stop)
	require.Contains(t, res.StopDetail, "1h0m0s")
	require.Equal(t, 1, s.count("example.com/sitemap.xml"), "the first 503 ends the crawl")
	require.Zero(t, s.count("example.com/a"))
}

// runs compresses a request log into runs of the same request: "x×2".
func runs(log []string) []string {
	var out []string
	for i := 0; i < len(log); {
		j := i
		for j < len(log) && log[j] == log[i] {
			j++
		}
		out = append(out, fmt.Sprintf("%s×%d", log[i], j-i))
		i = j
	}
	return out
}

func TestCrawlDelayPacesEveryRequest(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: GeoScan\nCrawl-delay: 5\nAllow: /\n")
		case "/":
			servePage(w, "Home", "", "/a", "/b")
		default:
			servePage(w, "Page", "")
		}
	})
	clk := newFakeClock()
	res, err := Crawl(context.Background(), s.f, s.target(t, ""), Options{PerHost: 1, clock: clk}, nil)
	require.NoError(t, err)
	require.Equal(t, 5*time.Second, res.CrawlDelay)
	require.Equal(t, 5*time.Second, res.Interval)
	n := len(s.requests())
	require.Equal(t, 7, n, "robots.txt, /, two default sitemaps, llms.txt, /a, /b")
	// robots.txt went first without a wait; every request after it waited
	// the Crawl-delay, one at a time.
	waits := clk.slept()
	require.Len(t, waits, n-1)
	for _, w := range waits {
		require.Equal(t, 5*time.Second, w)
	}
}

func TestQueryVariantsShareTheirPathsTurnAndCopiesAreLeft(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/robots.txt":
			http.NotFound(w, r)
		case p == "/sitemap.xml":
			var locs []string
			for n := 1; n <= 30; n++ {
				locs = append(locs,
					s.url("", fmt.Sprintf("/c/shoes?color=%d", n)), s.url("", fmt.Sprintf("/c/shoes?size=%d", n)),
					s.url("", fmt.Sprintf("/p/%d", n)), s.url("", fmt.Sprintf("/print/%d", n)))
			}
			xmlBody(w, urlset(locs...))
		case strings.HasPrefix(p, "/print/"):
			// Every print page names its original as canonical.
			servePage(w, "Print", `<link rel="canonical" href="/p/`+strings.TrimPrefix(p, "/print/")+`">`)
		default:
			servePage(w, "Page", "")
		}
	})
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 31})
	require.NoError(t, err)
	res, err := Run(context.Background(), inv, nil)
	require.NoError(t, err)
	require.Equal(t, 31, res.Pages)

	// The filters of /c/{slug} are one path template's variants: together
	// they get the turns /p/{id} gets, not twice as many.
	filters, products, prints := s.count("example.com/c/"), s.count("example.com/p/"), s.count("example.com/print/")
	require.Equal(t, 30, filters+products+prints)
	require.InDelta(t, products, filters, 1)
	// Copies are known once their wave is read: the first wave's turns go
	// to the print pages, none after it.
	require.Less(t, prints, products/2)
	byTemplate := map[string]TemplateCount{}
	for _, tc := range res.Sample.Templates {
		byTemplate[tc.Template] = tc
	}
	require.True(t, byTemplate["/print/{id}"].Copied)
	require.Equal(t, prints, byTemplate["/print/{id}"].Copies)
	require.InDelta(t, byTemplate["/c/{slug}?color"].Sampled, byTemplate["/c/{slug}?size"].Sampled, 1)
	require.Contains(t, res.Sample.String(), "name others as canonical")
}
