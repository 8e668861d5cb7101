package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

func TestBadTargetsAreErrors(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	ctx := context.Background()
	_, err := Discover(ctx, nil, s.target(t, ""), Options{})
	require.ErrorContains(t, err, "no fetcher")
	_, err = Discover(ctx, s.f, nil, Options{})
	require.ErrorContains(t, err, "no target")
	for _, raw := range []string{"ftp://example.com/", "/relative", "https://"} {
		u, perr := url.Parse(raw)
		require.NoError(t, perr)
		_, err = Crawl(ctx, s.f, u, Options{}, nil)
		require.Error(t, err, raw)
	}
	_, err = Run(ctx, nil, nil)
	require.Error(t, err)
	require.Empty(t, s.requests())
}

func TestRedirectsStayOnTheSite(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			servePage(w, "Home", "", "/old", "/away", "/loop-a")
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/away":
			http.Redirect(w, r, "https://elsewhere.test/landing", http.StatusFound)
		case "/loop-a":
			http.Redirect(w, r, "/loop-b", http.StatusFound)
		case "/loop-b":
			http.Redirect(w, r, "/loop-a", http.StatusFound)
		default:
			servePage(w, "Page", "")
		}
	})
	var v visits
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true})
	require.NoError(t, err)
	res, err := Run(context.Background(), inv, v.visit)
	require.NoError(t, err)
	require.Equal(t, StopComplete, res.Stop)

	// The redirect loop is two URLs requested once each; the other site
	// is never requested.
	require.Equal(t, 1, s.count("example.com/loop-a"))
	require.Equal(t, 1, s.count("example.com/loop-b"))
	require.Equal(t, 1, s.count("example.com/new"))
	require.Zero(t, s.count("elsewhere.test"))
	require.Equal(t, 1, skipCount(res, ReasonOffsiteRedirect))

	byURL := map[string]*Page{}
	for _, p := range v.pages {
		byURL[strings.TrimPrefix(p.URL, s.url("", ""))] = p
	}
	require.Equal(t, s.url("", "/new"), byURL["/old"].RedirectTo)
	require.Equal(t, 301, byURL["/old"].Response.Status)
	require.Empty(t, byURL["/away"].RedirectTo, "not followed off the site")
	newPage, ok := inv.Lookup(s.url("", "/new"))
	require.True(t, ok)
	require.Equal(t, "redirect", newPage.Sources.String())
	require.Equal(t, Fetched, newPage.State)
	old, _ := inv.Lookup(s.url("", "/old"))
	require.Equal(t, Redirected, old.State)
}

func TestWWWIsTheSameSiteOnlyWhenTheTargetRedirectsThere(t *testing.T) {
	t.Parallel()
	handler := func(redirect bool) func(*testSite, http.ResponseWriter, *http.Request) {
		return func(s *testSite, w http.ResponseWriter, r *http.Request) {
			host := strings.Split(r.Host, ":")[0]
			switch {
			case r.URL.Path == "/robots.txt":
				http.NotFound(w, r)
			case host == "example.com" && redirect:
				http.Redirect(w, r, s.url("www.example.com", r.URL.RequestURI()), http.StatusMovedPermanently)
			case r.URL.Path == "/":
				servePage(w, "Home", "", s.url("example.com", "/apex-link"), s.url("www.example.com", "/www-link"))
			default:
				servePage(w, "Page", "")
			}
		}
	}

	s := newSite(t, fetch.Options{}, handler(true))
	inv, err := Discover(context.Background(), s.f, s.target(t, "example.com"), Options{Unthrottled: true})
	require.NoError(t, err)
	require.Equal(t, s.url("www.example.com", "/"), inv.Site().String())
	apex, ok := inv.Lookup(s.url("example.com", "/apex-link"))
	require.True(t, ok, "the apex is the www site's twin")
	require.Equal(t, s.url("www.example.com", "/apex-link"), apex.URL)
	home, _ := inv.Lookup(s.url("www.example.com", "/"))
	require.Equal(t, "homepage+redirect", home.Sources.String())
	require.Equal(t, Fetched, home.State)
	var urls []string
	for e := range inv.All() {
		urls = append(urls, e.URL)
	}
	require.Equal(t, []string{s.url("www.example.com", "/"), s.url("www.example.com", "/apex-link"), s.url("www.example.com", "/www-link")}, urls,
		"the apex homepage that redirected is the www homepage")
	res, err := Run(context.Background(), inv, nil)
	require.NoError(t, err)
	require.Equal(t, 3, res.Pages)
	// robots.txt is read for both names; every page of the crawl is asked
	// of www.
	require.Equal(t, 1, s.count("example.com/robots.txt"))
	require.Equal(t, 1, s.count("www.example.com/robots.txt"))
	require.Equal(t, 1, s.count("example.com/ "), "only the target's redirect")
	require.Equal(t, 1, s.count("www.example.com/apex-link"))

	// Served without a redirect, www is another site.
	s = newSite(t, fetch.Options{}, handler(false))
	res, err = Crawl(context.Background(), s.f, s.target(t, "example.com"), Options{Unthrottled: true}, nil)
	require.NoError(t, err)
	require.Equal(t, 2, res.Pages)
	require.Zero(t, s.count("www.example.com"))
	require.Equal(t, 1, skipCount(res, ReasonOtherSite))
}

// sitemapSite serves robots.txt pointing at /sitemap.xml, served by sm,
// and a homepage.
func sitemapSite(t *testing.T, o fetch.Options, sm func(s *testSite, w http.ResponseWriter, r *http.Request)) *testSite {
	t.Helper()
	return newSite(t, o, func(s *testSite, w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s\n", s.url("", "/sitemap.xml"))
		case r.URL.Path == "/":
			servePage(w, "Home", "", "/from-home")
		case strings.HasPrefix(r.URL.Path, "/sitemap") || strings.HasPrefix(r.URL.Path, "/sm/"):
			sm(s, w, r)
		default:
			servePage(w, "Page", "")
		}
	})
}

func TestBadSitemapsAreBoundedAndRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := Options{Unthrottled: true, MaxPages: 5}

	t.Run("none", func(t *testing.T) {
		t.Parallel()
		s := sitemapSite(t, fetch.Options{}, func(_ *testSite, w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
		inv, err := Discover(ctx, s.f, s.target(t, ""), opts)
		require.NoError(t, err)
		require.Len(t, inv.Sitemaps(), 2, "robots.txt's sitemap, then /sitemap_index.xml")
		for _, f := range inv.Sitemaps() {
			require.Equal(t, 404, f.Status)
			require.Contains(t, f.Error, "HTTP 404")
		}
		require.Equal(t, 2, inv.Known(), "the homepage and its link")
	})

	t.Run("50 MB", func(t *testing.T) {
		t.Parallel()
		// A urlset streamed without end: fetch cuts it at its body limit
		// and the URLs before the cut are kept.
		s := sitemapSite(t, fetch.Options{MaxBodyBytes: 1 << 20}, func(s *testSite, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			_, _ = fmt.Fprint(w, `<?xml version="1.0"?><urlset>`)
			for n, written := 0, 0; written < 50<<20; n++ {
				k, err := fmt.Fprintf(w, "<url><loc>%s</loc></url>", s.url("", fmt.Sprintf("/p/%d", n)))
				if err != nil {
					return
				}
				written += k
			}
			_, _ = fmt.Fprint(w, `</urlset>`)
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxURLs: 100_000, MaxTemplateURLs: 100_000})
		require.NoError(t, err)
		f := inv.Sitemaps()[0]
		require.Equal(t, "urlset", f.Kind)
		require.True(t, f.Truncated)
		require.Empty(t, f.Error)
		require.Greater(t, f.Entries, 10_000)
		require.Equal(t, f.Entries+2, inv.Known())
		res, err := Run(ctx, inv, nil)
		require.NoError(t, err)
		require.LessOrEqual(t, res.Bytes, int64(3<<20), "the 50 MB were never read")
	})

	t.Run("index of 10000", func(t *testing.T) {
		t.Parallel()
		s := sitemapSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/sitemap.xml" {
				locs := make([]string, 10_000)
				for i := range locs {
					locs[i] = s.url("", fmt.Sprintf("/sm/%d.xml", i))
				}
				xmlBody(w, sitemapIndex(locs...))
				return
			}
			xmlBody(w, urlset(s.url("", "/page"+strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sm/"), ".xml"))))
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxSitemapFiles: 20})
		require.NoError(t, err)
		require.Len(t, inv.Sitemaps(), 20)
		require.Equal(t, 19, s.count("example.com/sm/"))
		skips := map[Reason]Skip{}
		for _, sk := range inv.Skipped() {
			skips[sk.Reason] = sk
		}
		require.Equal(t, 10_000-19, skips[ReasonSitemapFiles].Count)
		require.Len(t, skips[ReasonSitemapFiles].Examples, maxExamples)
	})

	t.Run("nested too deep", func(t *testing.T) {
		t.Parallel()
		// Every index names one more index, forever.
		s := sitemapSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
			xmlBody(w, sitemapIndex(s.url("", "/sm/"+strings.Trim(r.URL.Path, "/")+"x.xml")))
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxSitemapDepth: 3})
		require.NoError(t, err)
		require.Len(t, inv.Sitemaps(), 4, "the root and three levels")
		require.Equal(t, 1, skipCountOf(inv.Skipped(), ReasonSitemapDepth))
	})

	t.Run("other hosts", func(t *testing.T) {
		t.Parallel()
		s := sitemapSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/sitemap.xml" {
				xmlBody(w, sitemapIndex(s.url("other.test", "/sitemap.xml"), s.url("sitemaps.example.com", "/sm/more.xml")))
				return
			}
			xmlBody(w, urlset(s.url("", "/more")))
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), opts)
		require.NoError(t, err)
		require.Zero(t, s.count("other.test"), "another site's sitemap is not this site's")
		require.Equal(t, 1, s.count("sitemaps.example.com/sm/more.xml"), "a sitemap host of the same domain is read")
		require.Equal(t, 1, skipCountOf(inv.Skipped(), ReasonSitemapOtherSite))
		_, ok := inv.Lookup(s.url("", "/more"))
		require.True(t, ok)
	})

	t.Run("malformed", func(t *testing.T) {
		t.Parallel()
		s := sitemapSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, _ *http.Request) {
			xmlBody(w, `<urlset><url><loc>`+s.url("", "/ok")+`</loc></url><url><loc>`+s.url("", "/also")+`</loc></url><url><<<>>></urlset>`)
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), opts)
		require.NoError(t, err)
		f := inv.Sitemaps()[0]
		require.Equal(t, "urlset", f.Kind)
		require.Contains(t, f.Error, "malformed after 2 entries")
		_, ok := inv.Lookup(s.url("", "/also"))
		require.True(t, ok)
	})

	t.Run("gzip bombs", func(t *testing.T) {
		t.Parallel()
		var bomb bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
		_, _ = zw.Write([]byte(`<urlset>`))
		_, _ = zw.Write(bytes.Repeat([]byte(" "), 8<<20))
		_ = zw.Close()
		s := sitemapSite(t, fetch.Options{MaxBodyBytes: 1 << 20}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/sitemap.xml":
				xmlBody(w, sitemapIndex(s.url("", "/sm/encoded.xml"), s.url("", "/sm/raw.xml.gz")))
			case "/sm/encoded.xml":
				// Content-Encoding: fetch decompresses under its body limit.
				w.Header().Set("Content-Encoding", "gzip")
				_, _ = w.Write(bomb.Bytes())
			default:
				// A .xml.gz served as data: decompressed here, bounded.
				w.Header().Set("Content-Type", "application/gzip")
				_, _ = w.Write(bomb.Bytes())
			}
		})
		inv, err := Discover(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxSitemapBytes: 2 << 20})
		require.NoError(t, err)
		files := inv.Sitemaps()
		require.Len(t, files, 3)
		require.True(t, files[1].Truncated, "fetch cut the encoded bomb")
		require.False(t, files[1].Gzip)
		require.True(t, files[2].Truncated, "the reader cut the raw bomb")
		require.True(t, files[2].Gzip)
	})
}

func skipCountOf(skips []Skip, r Reason) int {
	for _, s := range skips {
		if s.Reason == r {
			return s.Count
		}
	}
	return 0
}

// wide is a site of n pages, all listed in its sitemap.
func wide(n int) func(*testSite, http.ResponseWriter, *http.Request) {
	return func(s *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/sitemap.xml":
			locs := make([]string, n)
			for i := range locs {
				locs[i] = s.url("", fmt.Sprintf("/section%d/item-%d", i%7, i))
			}
			xmlBody(w, urlset(locs...))
		default:
			servePage(w, "Page "+r.URL.Path, "", "/")
		}
	}
}

func TestEveryBoundStopsTheCrawlCleanly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSite(t, fetch.Options{}, wide(300))

	res, err := Crawl(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 25}, nil)
	require.NoError(t, err)
	require.Equal(t, StopPages, res.Stop)
	require.Equal(t, 25, res.Pages)
	require.Equal(t, 25, res.Sample.Sampled)
	require.Equal(t, 301, res.Sample.Known)

	res, err = Crawl(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxBytes: 40 << 10, MaxPages: 300}, nil)
	require.NoError(t, err)
	require.Equal(t, StopBytes, res.Stop)
	require.Less(t, res.Pages, 300)
	require.GreaterOrEqual(t, res.Bytes, int64(40<<10))

	// A deadline already past: Discover reads nothing, Run fetches
	// nothing, and the crawl says the time ran out.
	before := len(s.requests())
	past, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	res, err = Crawl(past, s.f, s.target(t, ""), Options{Unthrottled: true}, nil)
	require.NoError(t, err)
	require.Equal(t, StopTime, res.Stop)
	require.Zero(t, res.Pages)
	require.Len(t, s.requests(), before)

	// MaxDuration bounds the crawl the same way.
	res, err = Crawl(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, MaxDuration: time.Nanosecond}, nil)
	require.NoError(t, err)
	require.Equal(t, StopTime, res.Stop)
	require.Zero(t, res.Pages)
	require.Len(t, s.requests(), before)

	// Cancelled: an error, with what was done.
	cancelled, cancelNow := context.WithCancel(ctx)
	var seen int
	res, err = Crawl(cancelled, s.f, s.target(t, ""), Options{Unthrottled: true, MaxPages: 300}, func(*Page) error {
		if seen++; seen == 10 {
			cancelNow()
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, StopCanceled, res.Stop)
	require.Less(t, res.Pages, 300)

	// A visitor's error ends the crawl and is returned.
	boom := errors.New("boom")
	res, err = Crawl(ctx, s.f, s.target(t, ""), Options{Unthrottled: true, PerHost: 4}, func(p *Page) error {
		if strings.Contains(p.URL, "item-") {
			return boom
		}
		return nil
	})
	require.ErrorIs(t, err, boom)
	require.Equal(t, StopVisitor, res.Stop)
	require.Equal(t, 2, res.Pages, "no page is visited after the error")
}

func TestInventoryIsCapped(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, wide(300))
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxURLs: 50})
	require.NoError(t, err)
	require.Equal(t, 50, inv.Known())
	require.Equal(t, 251, inv.Overflow(), "300 listed and the homepage, 50 kept")
	require.Equal(t, 251, skipCountOf(inv.Skipped(), ReasonInventoryCap))
	res, err := Run(context.Background(), inv, nil)
	require.NoError(t, err)
	// The report says so: the pages' links were cut too.
	require.GreaterOrEqual(t, res.Sample.NotKept, 251)
	require.Equal(t, 50, res.Sample.URLCap)
	require.Contains(t, res.Sample.String(), "Discovery was cut at the crawl's limit of 50 URLs: ")

	inv, err = Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true, MaxTemplateURLs: 10})
	require.NoError(t, err)
	require.Equal(t, 71, inv.Known(), "ten of each of the 7 sections, and the homepage")
	require.Equal(t, 230, skipCountOf(inv.Skipped(), ReasonTemplateFull))
}

// TestInventoryCapFollowsTheBudget: the inventory keeps 50 URLs per page
// of the budget, within 10 000 and 50 000, so a crawl's memory is bounded
// whatever the site and a small crawl does not keep a big site's every URL.
func TestInventoryCapFollowsTheBudget(t *testing.T) {
	for pages, want := range map[int]int{0: 10_000, 10: 10_000, 200: 10_000, 500: 25_000, 1000: 50_000, 5000: 50_000} {
		require.Equal(t, want, Options{MaxPages: pages}.withDefaults().MaxURLs, "%d pages", pages)
	}
	require.Equal(t, 7, Options{MaxPages: 5000, MaxURLs: 7}.withDefaults().MaxURLs, "a caller's cap stands")
}

func TestCanonicalMergesAPageWithItsCanonical(t *testing.T) {
	t.Parallel()
	s := newSite(t, fetch.Options{}, func(s *testSite, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/sitemap.xml":
			xmlBody(w, urlset(s.url("", "/print/guide"), s.url("", "/guide"), s.url("", "/print/faq")))
		case "/print/guide":
			servePage(w, "Guide", `<link rel="canonical" href="/guide">`)
		case "/print/faq":
			servePage(w, "FAQ", `<link rel="canonical" href="/faq">`)
		default:
			servePage(w, "Page", "")
		}
	})
	inv, err := Discover(context.Background(), s.f, s.target(t, ""), Options{Unthrottled: true})
	require.NoError(t, err)
	require.Equal(t, 4, inv.Known())
	res, err := Run(context.Background(), inv, nil)
	require.NoError(t, err)

	// /faq is named only as a canonical: the page that names it stands
	// for it, and it is never requested.
	require.Zero(t, s.count("example.com/faq"))
	faq, _ := inv.Lookup(s.url("", "/faq"))
	require.Equal(t, Merged, faq.State)
	require.Equal(t, "canonical", faq.Sources.String())
	// /guide was requested with its print copy: the copy is the duplicate.
	guide, _ := inv.Lookup(s.url("", "/guide"))
	require.Equal(t, Fetched, guide.State)
	require.Equal(t, "sitemap+canonical", guide.Sources.String())
	printed, _ := inv.Lookup(s.url("", "/print/guide"))
	require.Equal(t, Merged, printed.State)
	// The homepage, /guide and /print/faq (standing for /faq).
	require.Equal(t, 3, inv.Known())
	require.Equal(t, 3, res.Sample.Known)
}
