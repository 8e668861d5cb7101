package testsite_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/jimsmart/grobotstxt"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// megaPage is what a fetched megasite page says about itself.
type megaPage struct {
	status      int
	body        string
	title       string
	description string
	canonical   string
	jsonLD      testsite.MegasiteJSONLD
	schema      string // @type of the first JSON-LD node
	links       []*url.URL
}

func fetchMega(t *testing.T, c *http.Client, rawURL string) megaPage {
	t.Helper()
	r := get(t, c, rawURL, browserUA)
	p := megaPage{status: r.status, body: r.body}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	require.NoError(t, err, rawURL)
	p.title = doc.Find("title").First().Text()
	p.description, _ = doc.Find(`meta[name="description"]`).Attr("content")
	p.canonical, _ = doc.Find(`link[rel="canonical"]`).Attr("href")
	p.jsonLD = testsite.MegasiteJSONLDMissing
	doc.Find(`script[type="application/ld+json"]`).Each(func(_ int, s *goquery.Selection) {
		var v any
		if err := json.Unmarshal([]byte(s.Text()), &v); err != nil {
			p.jsonLD = testsite.MegasiteJSONLDBroken
			return
		}
		if p.jsonLD == testsite.MegasiteJSONLDMissing {
			p.jsonLD = testsite.MegasiteJSONLDValid
			if list, ok := v.([]any); ok && len(list) > 0 {
				v = list[0]
			}
			if node, ok := v.(map[string]any); ok {
				p.schema, _ = node["@type"].(string)
			}
		}
	})
	base, err := url.Parse(rawURL)
	require.NoError(t, err)
	doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		u, err := base.Parse(href)
		require.NoError(t, err, "link %q on %s", href, rawURL)
		u.Fragment = ""
		if u.Scheme == "https" && u.Host == base.Host {
			p.links = append(p.links, u)
		}
	})
	return p
}

// trapOf names the trap a URL belongs to, or "".
func trapOf(u *url.URL) string {
	for _, trap := range testsite.MegasiteTraps() {
		if trap.Matches(u) {
			return trap.Name
		}
	}
	return ""
}

// stripTracking drops the tracking parameters, reporting whether there
// were any.
func stripTracking(u *url.URL) (*url.URL, bool) {
	q := u.Query()
	found := false
	for _, p := range testsite.MegasiteTrackingParams() {
		if q.Has(p) {
			found = true
			q.Del(p)
		}
	}
	out := *u
	out.RawQuery = q.Encode()
	return &out, found
}

// megaSizes are the sizes of the megasite the tests check: the default
// site, and one of thousands of pages as the whole-site benchmarks serve.
var megaSizes = []struct {
	name  string
	pages int
}{{"default", 0}, {"5000", 5000}}

// startMega starts the fixtures with the megasite of at least pages pages
// (the default site for 0).
func startMega(t *testing.T, pages int) *testsite.Server {
	t.Helper()
	s, err := testsite.StartWith(testsite.Options{MegasitePages: pages})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func TestMegasiteScales(t *testing.T) {
	t.Parallel()
	def := testsite.MegasitePages()
	require.Len(t, def, 516, "the default site keeps its size")
	require.Equal(t, def, testsite.MegasitePagesOf(len(def)))
	require.Equal(t, def, testsite.MegasitePagesOf(1))

	templates := func(pages []testsite.MegasitePage) []string {
		var out []string
		for _, p := range pages {
			if !slices.Contains(out, p.Template) {
				out = append(out, p.Template)
			}
		}
		return out
	}
	for _, want := range []int{517, 2000, 5000, 12000} {
		big := testsite.MegasitePagesOf(want)
		require.GreaterOrEqual(t, len(big), want)
		require.Less(t, len(big), want+50, "the smallest site of at least %d pages", want)
		require.Equal(t, templates(def), templates(big), "the same templates")
		// The pages that do not grow are the default site's, in order.
		var fixed []testsite.MegasitePage
		for _, p := range def {
			if !slices.Contains([]string{"post", "product", "category", "blog"}, p.Template) {
				fixed = append(fixed, p)
			}
		}
		var bigFixed []testsite.MegasitePage
		for _, p := range big {
			if !slices.Contains([]string{"post", "product", "category", "blog"}, p.Template) {
				bigFixed = append(bigFixed, p)
			}
		}
		require.Equal(t, fixed, bigFixed)
	}
}

func TestMegasiteGroundTruth(t *testing.T) {
	t.Parallel()
	for _, size := range megaSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			checkMegasiteGroundTruth(t, testsite.MegasitePagesOf(size.pages))
		})
	}
}

func checkMegasiteGroundTruth(t *testing.T, pages []testsite.MegasitePage) {
	require.GreaterOrEqual(t, len(pages), 500)

	counts := map[string]int{}
	for _, p := range pages {
		counts[p.Template]++
	}
	if len(pages) == len(testsite.MegasitePages()) {
		total := 0
		for _, tm := range testsite.MegasiteTemplates() {
			require.Equal(t, counts[tm.Name], tm.Pages, tm.Name)
			total += tm.Pages
		}
		require.Equal(t, len(pages), total)
	}
	for _, name := range []string{"home", "page", "blog", "post", "category", "product", "docs", "docs-section", "doc", "events", "archive", "private"} {
		require.Positive(t, counts[name], "template %s has no pages", name)
	}

	shapes := map[string]*regexp.Regexp{
		"post":     regexp.MustCompile(`^/blog/[0-9]{4}/[0-9]{2}/[a-z0-9-]+$`),
		"product":  regexp.MustCompile(`^/products/[a-z0-9-]+$`),
		"category": regexp.MustCompile(`^/c/[a-z0-9-]+(\?page=([2-9]|[1-9][0-9]+))?$`),
		"doc":      regexp.MustCompile(`^/docs/[a-z0-9-]+/[a-z0-9-]+$`),
	}
	seen := map[string]bool{}
	products := 0
	states := map[testsite.MegasiteJSONLD]int{}
	var linkOnly, disallowed, slow int
	for _, p := range pages {
		require.False(t, seen[p.Path], "duplicate path %s", p.Path)
		seen[p.Path] = true
		if re := shapes[p.Template]; re != nil {
			require.Regexp(t, re, p.Path)
		}
		require.NotEmpty(t, p.Title, p.Path)
		states[p.JSONLD]++
		if p.LinkOnly() {
			linkOnly++
		}
		require.Equal(t, strings.HasPrefix(p.Path, testsite.MegasiteDisallowedPrefix), p.Disallowed, p.Path)
		if p.Disallowed {
			disallowed++
			require.False(t, p.InSitemap, "%s: a sitemap lists a disallowed page", p.Path)
		}
		if p.Slow {
			slow++
			require.True(t, strings.HasPrefix(p.Path, testsite.MegasiteSlowPrefix), p.Path)
		}
		if p.Template == "doc" {
			require.NotEqual(t, p.Path, p.Canonical, "doc canonicals are meant to be wrong")
		} else {
			require.Equal(t, p.Path, p.Canonical)
		}
		if p.Template == "product" {
			products++
			require.Equal(t, products%7 == 0, p.JSONLD == testsite.MegasiteJSONLDMissing,
				"product %d (%s): every seventh product, and only those, lacks JSON-LD", products, p.Path)
		}
		require.Equal(t, p.Schema == "", p.JSONLD == testsite.MegasiteJSONLDMissing && p.Template != "product", p.Path)
		for _, trap := range testsite.MegasiteTraps() {
			u, err := url.Parse(p.Path)
			require.NoError(t, err)
			require.False(t, trap.Matches(u), "page %s is inside the %s trap", p.Path, trap.Name)
		}
	}
	require.Positive(t, states[testsite.MegasiteJSONLDValid])
	require.Positive(t, states[testsite.MegasiteJSONLDMissing])
	require.Positive(t, states[testsite.MegasiteJSONLDBroken])
	require.Positive(t, linkOnly)
	require.Less(t, linkOnly, len(pages)/2, "sitemaps list most pages")
	require.Positive(t, disallowed)
	require.Positive(t, slow)
}

func TestMegasiteSitemapIndexListsTheSitemapPages(t *testing.T) {
	t.Parallel()
	for _, size := range megaSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			checkMegasiteSitemaps(t, startMega(t, size.pages), size.pages)
		})
	}
}

func checkMegasiteSitemaps(t *testing.T, s *testsite.Server, size int) {
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")

	robots := get(t, c, origin+"/robots.txt", browserUA)
	require.Equal(t, http.StatusOK, robots.status)
	require.Equal(t, []string{origin + testsite.MegasiteSitemapIndex}, grobotstxt.Sitemaps(robots.body))

	index := get(t, c, origin+testsite.MegasiteSitemapIndex, browserUA)
	require.Equal(t, http.StatusOK, index.status)
	var idx struct {
		XMLName  xml.Name `xml:"sitemapindex"`
		Sitemaps []struct {
			Loc     string `xml:"loc"`
			Lastmod string `xml:"lastmod"`
		} `xml:"sitemap"`
	}
	require.NoError(t, xml.Unmarshal([]byte(index.body), &idx))
	require.GreaterOrEqual(t, len(idx.Sitemaps), 3)

	var listed []string
	gzipped := 0
	pages := testsite.MegasitePagesOf(size)
	for _, sm := range idx.Sitemaps {
		require.NotEmpty(t, sm.Lastmod, sm.Loc)
		r := get(t, c, sm.Loc, browserUA)
		require.Equal(t, http.StatusOK, r.status, sm.Loc)
		body := []byte(r.body)
		if strings.HasSuffix(sm.Loc, ".gz") {
			gzipped++
			require.Equal(t, "application/gzip", r.header.Get("Content-Type"))
			require.Empty(t, r.header.Get("Content-Encoding"), "a .gz sitemap is a gzip file, not a compressed response")
			zr, err := gzip.NewReader(bytes.NewReader(body))
			require.NoError(t, err, sm.Loc)
			body, err = io.ReadAll(zr)
			require.NoError(t, err, sm.Loc)
		}
		var set struct {
			XMLName xml.Name `xml:"urlset"`
			Locs    []string `xml:"url>loc"`
		}
		require.NoError(t, xml.Unmarshal(body, &set), sm.Loc)
		require.NotEmpty(t, set.Locs, sm.Loc)
		require.LessOrEqual(t, len(set.Locs), 50_000, "the protocol's limit of URLs per sitemap")
		listed = append(listed, set.Locs...)
	}
	if size == 0 {
		require.Len(t, idx.Sitemaps, 4)
		require.Equal(t, 1, gzipped, "one child sitemap is gzipped")
	} else {
		require.Greater(t, len(idx.Sitemaps), 4, "a larger site's sitemaps are split")
		require.Greater(t, gzipped, 1, "the product sitemaps are gzipped")
	}

	var want []string
	for _, p := range pages {
		if p.InSitemap {
			want = append(want, origin+p.Path)
		}
	}
	require.ElementsMatch(t, want, listed)

	// The default sitemap path sends crawlers to the index.
	r := get(t, c, origin+"/sitemap.xml", browserUA)
	require.Equal(t, http.StatusMovedPermanently, r.status)
	require.Equal(t, origin+testsite.MegasiteSitemapIndex, r.header.Get("Location"))
}

// TestMegasiteCrawlFindsTheGroundTruth crawls the site from its homepage,
// as a crawler that knows the traps and tracking parameters would, and
// checks that it reaches exactly the listed pages and that each page says
// what the ground truth says: title, description, canonical and
// structured data.
func TestMegasiteCrawlFindsTheGroundTruth(t *testing.T) {
	t.Parallel()
	for _, size := range megaSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			checkMegasiteCrawl(t, startMega(t, size.pages), size.pages)
		})
	}
}

func checkMegasiteCrawl(t *testing.T, s *testsite.Server, size int) {
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")

	found := map[string]megaPage{}
	linkedFrom := map[string]map[string]bool{}
	traps := map[string]int{}
	tracked := 0
	queue := []string{origin + "/"}
	linkedFrom[origin+"/"] = map[string]bool{}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		p := fetchMega(t, c, u)
		require.Equal(t, http.StatusOK, p.status, u)
		found[u] = p
		for _, l := range p.links {
			if name := trapOf(l); name != "" {
				traps[name]++
				continue
			}
			clean, had := stripTracking(l)
			if had {
				tracked++
			}
			next := clean.String()
			if linkedFrom[next] == nil {
				linkedFrom[next] = map[string]bool{}
				queue = append(queue, next)
			}
			linkedFrom[next][u] = true
		}
	}

	pages := testsite.MegasitePagesOf(size)
	var want []string
	for _, p := range pages {
		want = append(want, origin+p.Path)
	}
	require.ElementsMatch(t, want, slices.Collect(maps.Keys(found)))

	for _, p := range pages {
		u := origin + p.Path
		got := found[u]
		require.Equal(t, p.Title, got.title, u)
		require.Equal(t, p.Description, got.description, u)
		require.Equal(t, origin+p.Canonical, got.canonical, u)
		require.Equal(t, p.JSONLD, got.jsonLD, u)
		if p.JSONLD == testsite.MegasiteJSONLDValid {
			require.Equal(t, p.Schema, got.schema, u)
		}
		if p.LinkOnly() {
			delete(linkedFrom[u], u)
			require.NotEmpty(t, linkedFrom[u], "link-only page %s is linked from nowhere", u)
		}
	}
	for _, trap := range testsite.MegasiteTraps() {
		require.Positive(t, traps[trap.Name], "no page links into the %s trap", trap.Name)
	}
	require.Positive(t, tracked, "no link carries tracking parameters")
}

func TestMegasiteRobotsClosesOneSectionToGeoScan(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")
	robots := get(t, c, origin+"/robots.txt", browserUA).body

	disallowed := 0
	for _, p := range testsite.MegasitePages() {
		u := origin + p.Path
		// Robots matchers take the product token, not the whole header.
		require.Equal(t, !p.Disallowed, grobotstxt.AgentAllowed(robots, "GeoScan", u), u)
		require.True(t, grobotstxt.AgentAllowed(robots, "GPTBot", u), "%s is closed to GPTBot", u)
		if p.Disallowed {
			disallowed++
			require.Equal(t, http.StatusOK, get(t, c, u, geoscanUA).status, "disallowed page %s must exist", u)
		}
	}
	require.Positive(t, disallowed)
}

func TestMegasiteCalendarNeverEnds(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")

	next := func(p megaPage, from string) string {
		t.Helper()
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(p.body))
		require.NoError(t, err)
		href, ok := doc.Find(`a[rel="next"]`).Attr("href")
		require.True(t, ok, "%s has no next link", from)
		base, err := url.Parse(from)
		require.NoError(t, err)
		u, err := base.Parse(href)
		require.NoError(t, err)
		return u.String()
	}

	u := origin + "/events/calendar"
	seen := map[string]bool{}
	for range 60 {
		p := fetchMega(t, c, u)
		require.Equal(t, http.StatusOK, p.status, u)
		require.Equal(t, "calendar", trapOf(mustURL(t, u)))
		n := next(p, u)
		require.False(t, seen[n], "calendar loops back to %s", n)
		seen[n] = true
		u = n
	}

	// Far past the years anyone plans for, there is still a next month.
	far := origin + "/events/calendar?month=9999-12"
	p := fetchMega(t, c, far)
	require.Equal(t, http.StatusOK, p.status)
	beyond := next(p, far)
	require.Contains(t, beyond, "month=10000-01")
	require.Equal(t, http.StatusOK, fetchMega(t, c, beyond).status)

	require.Equal(t, http.StatusNotFound, get(t, c, origin+"/events/calendar?month=2026-13", browserUA).status)
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}

// TestMegasiteFacetsMultiply follows a category's filters two levels
// deep: each level links more new filter URLs than the one before (the
// third level is counted, not fetched), and every filtered page names the
// category as canonical.
func TestMegasiteFacetsMultiply(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")
	var category string
	for _, p := range testsite.MegasitePages() {
		if p.Template == "category" {
			category = origin + p.Path
			break
		}
	}
	require.NotEmpty(t, category)

	seen := map[string]bool{category: true}
	level := []string{category}
	var sizes []int
	for depth := range 3 {
		var nextLevel []string
		for _, u := range level {
			p := fetchMega(t, c, u)
			require.Equal(t, http.StatusOK, p.status, u)
			require.Equal(t, category, p.canonical, u)
			for _, l := range p.links {
				if trapOf(l) != "facets" || seen[l.String()] {
					continue
				}
				seen[l.String()] = true
				nextLevel = append(nextLevel, l.String())
			}
		}
		sizes = append(sizes, len(nextLevel))
		if depth > 0 {
			require.Greater(t, sizes[depth], sizes[depth-1], "filter URLs per level: %v", sizes)
		}
		level = nextLevel
	}
}

func TestMegasiteTrackingDuplicatesServeTheSamePage(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := client(s)
	origin := strings.TrimSuffix(s.URL(testsite.Megasite), "/")
	var post string
	for _, p := range testsite.MegasitePages() {
		if p.Template == "post" {
			post = origin + p.Path
			break
		}
	}

	checked := 0
	for _, from := range []string{origin + "/", post} {
		for _, l := range fetchMega(t, c, from).links {
			clean, had := stripTracking(l)
			if !had {
				continue
			}
			checked++
			tracked := get(t, c, l.String(), browserUA)
			plain := get(t, c, clean.String(), browserUA)
			require.Equal(t, http.StatusOK, tracked.status, l.String())
			require.Equal(t, plain.body, tracked.body, "%s differs from %s", l, clean)
		}
	}
	require.GreaterOrEqual(t, checked, 3)
}
