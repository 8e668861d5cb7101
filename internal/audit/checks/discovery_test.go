package checks

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// sitemapXML is a urlset listing the URLs.
func sitemapXML(urls ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, u := range urls {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", u)
	}
	b.WriteString("</urlset>")
	return b.String()
}

// sitemapURLs are sitemap entries with the given lastmods.
func sitemapURLs(lastmods ...string) []fetch.SitemapURL {
	out := make([]fetch.SitemapURL, 0, len(lastmods))
	for i, lm := range lastmods {
		out = append(out, fetch.SitemapURL{Loc: fmt.Sprintf("https://example.com/p%d", i), LastMod: lm})
	}
	return out
}

// sitemapSamples are HEAD probes of sitemap URLs answering the statuses.
func sitemapSamples(statuses ...int) []*fetch.Response {
	out := make([]*fetch.Response, 0, len(statuses))
	for i, st := range statuses {
		r := resp(fetch.SitemapSample, fmt.Sprintf("https://example.com/p%d", i), st, "")
		r.Method = http.MethodHead
		out = append(out, r)
	}
	return out
}

// TestDiscovery covers the discovery pillar.
func TestDiscovery(t *testing.T) {
	t.Parallel()
	allowAll := robotsTxt(200, "User-agent: *\nAllow: /\n")
	testPillar(t, pillarDiscovery, []pillarCheck{
		{id: "sitemap_present", cases: []checkCase{
			{
				"listed and valid", withEdit("", func(s *fetch.Site) { s.SitemapTotal = 2 },
					robotsTxt(200, "User-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n"),
					resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, sitemapXML("https://example.com/a", "https://example.com/b"))),
				Pass, "robots.txt lists 1 sitemap; 1 valid file was read, with 2 URLs.", ev("urls_in_files", 2, "default_locations_tried", "[]"),
			},
			{
				"index", withSite("", robotsTxt(200, "Sitemap: https://example.com/index.xml\n"),
					resp(fetch.Sitemap, "https://example.com/index.xml", 200, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`),
					resp(fetch.Sitemap, "https://example.com/a.xml", 200, "https://example.com/a\nhttps://example.com/b\n", "Content-Type", "text/plain")),
				Pass, "2 valid files were read, with 2 URLs and 1 sitemap index naming 1 sitemap.", nil,
			},
			{
				"a relative Sitemap: line", withSite("", robotsTxt(200, "User-agent: *\nDisallow:\nSitemap: /sitemap-pages.xml\n"),
					resp(fetch.Sitemap, "https://example.com/sitemap-pages.xml", 200, sitemapXML("https://example.com/a"))),
				Pass, "robots.txt lists 1 sitemap; 1 valid file was read, with 1 URL.", ev("listed_in_robots", []string{"/sitemap-pages.xml"}),
			},
			{
				"an ISO-8859-1 sitemap", withSite("", robotsTxt(200, "Sitemap: https://example.com/sitemap.xml\n"),
					resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, `<?xml version="1.0" encoding="ISO-8859-1"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/caf`+"\xe9"+`/</loc></url></urlset>`)),
				Pass, "1 valid file was read, with 1 URL.", nil,
			},
			{
				"listed off-site, found at the default location", withEdit("", func(s *fetch.Site) {
					s.SitemapSkipped = []fetch.SitemapSkip{{Source: fetch.SitemapFromRobots, Listed: "https://cdn.example.net/sitemap.xml", URL: "https://cdn.example.net/sitemap.xml", Reason: "other_site"}}
				}, robotsTxt(200, "Sitemap: https://cdn.example.net/sitemap.xml\n"), resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, sitemapXML("https://example.com/a"))),
				Pass, "robots.txt lists https://cdn.example.net/sitemap.xml on another site, which was not read; 1 valid file was read at the default location", nil,
			},
			{
				"default location only", withSite("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, sitemapXML("https://example.com/a"))),
				Warn, "A sitemap with 1 entry was found at https://example.com/sitemap.xml, but robots.txt does not list it", ev("default_locations_tried", []string{"https://example.com/sitemap.xml"}),
			},
			{
				"robots lists a dead one, the default path has one", withSite("", robotsTxt(200, "Sitemap: https://example.com/old-sitemap.xml\n"),
					resp(fetch.Sitemap, "https://example.com/old-sitemap.xml", 404, "gone"), resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, sitemapXML("https://example.com/a"))),
				Warn, "but robots.txt lists only sitemaps that could not be read: https://example.com/old-sitemap.xml (listed in robots.txt) answered HTTP 404.", nil,
			},
			{
				"only a link rel=sitemap", withSite(htmlPage(`<link rel="sitemap" type="application/xml" href="/feeds/map.xml">`, "hi"), allowAll,
					resp(fetch.Sitemap, "https://example.com/sitemap.xml", 404, ""), resp(fetch.Sitemap, "https://example.com/sitemap_index.xml", 404, ""),
					resp(fetch.Sitemap, "https://example.com/feeds/map.xml", 200, sitemapXML("https://example.com/a", "https://example.com/b"))),
				Warn, `A sitemap with 2 entries was found only through the homepage's <link rel="sitemap"> at https://example.com/feeds/map.xml, but robots.txt does not list it and few crawlers follow such a link.`, nil,
			},
			{"one of two broken", withSite("", robotsTxt(200, "Sitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n"),
				resp(fetch.Sitemap, "https://example.com/a.xml", 200, sitemapXML("https://example.com/a")),
				resp(fetch.Sitemap, "https://example.com/b.xml", 404, "")), Warn, "1 of 2 sitemap files could not be read: https://example.com/b.xml (listed in robots.txt) answered HTTP 404.", nil},
			{
				"listed off-site, nothing on the site", withEdit("", func(s *fetch.Site) {
					s.SitemapSkipped = []fetch.SitemapSkip{{Source: fetch.SitemapFromRobots, Listed: "https://cdn.example.net/sitemap.xml", URL: "https://cdn.example.net/sitemap.xml", Reason: "other_site"}}
				}, robotsTxt(200, "Sitemap: https://cdn.example.net/sitemap.xml\n"),
					resp(fetch.Sitemap, "https://example.com/sitemap.xml", 404, ""), resp(fetch.Sitemap, "https://example.com/sitemap_index.xml", 404, "")),
				Warn, "the one robots.txt lists could not be checked", nil,
			},
			{
				"missing: says what was tried", withSite("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 404, "nope"), resp(fetch.Sitemap, "https://example.com/sitemap_index.xml", 404, "nope")),
				Fail, "No readable sitemap was found: robots.txt lists none; https://example.com/sitemap.xml (at a default location) answered HTTP 404 and https://example.com/sitemap_index.xml (at a default location) answered HTTP 404.", nil,
			},
			{
				"no robots.txt either", withSite("", robotsTxt(404, "Not found"), resp(fetch.Sitemap, "https://example.com/sitemap.xml", 404, ""), resp(fetch.Sitemap, "https://example.com/sitemap_index.xml", 404, "")),
				Fail, "robots.txt answered HTTP 404, so it lists none; https://example.com/sitemap.xml", nil,
			},
			{"html instead of xml", withSite("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, "<!doctype html><html><body>x</body></html>", "Content-Type", "text/html")), Fail, "(at a default location) not a sitemap", nil},
			{"nothing requested", withSite("", allowAll), NA, "No sitemap location was requested", nil},
		}},
		{id: "sitemap_quality", cases: []checkCase{
			{"good", withEdit("", func(s *fetch.Site) {
				s.SitemapURLs = sitemapURLs("2026-11-20", "2026-10-01", "2026-09-15T10:00:00Z", "2026-08-01", "2026-07-01")
				s.SitemapSamples = sitemapSamples(200, 200, 200, 200, 200)
			}), Pass, "All 5 sitemap URLs", ev("newest_lastmod", "2026-11-20")},
			{"stale", withEdit("", func(s *fetch.Site) {
				s.SitemapURLs = sitemapURLs("2026-01-02", "2026-01-01")
				s.SitemapSamples = sitemapSamples(200, 200)
			}), Warn, "days old", ev("newest_age_days", 325)},
			{"identical lastmods", withEdit("", func(s *fetch.Site) {
				s.SitemapURLs = sitemapURLs("2026-11-22", "2026-11-22", "2026-11-22", "2026-11-22", "2026-11-22")
			}), Warn, "build timestamp", ev("distinct_lastmod", 1)},
			{"no lastmod", withEdit("", func(s *fetch.Site) { s.SitemapURLs = sitemapURLs("", "") }), Warn, "no URL has a usable lastmod", nil},
			{"broken samples", withEdit("", func(s *fetch.Site) {
				s.SitemapURLs = sitemapURLs("2026-11-20", "2026-11-19", "2026-11-18", "2026-11-17", "2026-11-16")
				s.SitemapSamples = sitemapSamples(200, 404, 200, 404, 200)
			}), Fail, "only 3 of 5 sampled URLs", ev("sample_ok", 3)},
			{"off host", withEdit("", func(s *fetch.Site) {
				s.SitemapURLs = []fetch.SitemapURL{{Loc: "https://other.example/a", LastMod: "2026-11-01"}, {Loc: "https://other.example/b", LastMod: "2026-11-02"}}
			}), Fail, "0% of URLs are on example.com", ev("same_host_pct", 0)},
			{"no urls", withSite(""), NA, "No sitemap URLs", nil},
			{
				"read from the default location", withEdit("", func(s *fetch.Site) {
					s.SitemapURLs = sitemapURLs("2026-11-20", "2026-11-19")
				}, allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, sitemapXML("https://example.com/p0", "https://example.com/p1"))),
				Pass, "All 2 sitemap URLs", ev("read_from", []string{"https://example.com/sitemap.xml (at a default location)"}),
			},
			{"entries without loc", withEdit("", func(s *fetch.Site) { s.SitemapURLs = []fetch.SitemapURL{{}, {LastMod: "2026-11-01"}} }), NA, "No sitemap URLs", ev("entries_without_loc", 2)},
		}},
		{id: "llms_txt_present", cases: []checkCase{
			{"text", withSite("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, "# Example\n> Examples.\n")), Pass, "HTTP 200", ev("content_type", "text/plain")},
			{"404", withSite("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 404, "")), Warn, "HTTP 404", nil},
			{"html catch-all", withSite("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, "<!doctype html><html></html>", "Content-Type", "text/html")), Warn, "HTML page", nil},
			{"503", withSite("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 503, "")), Fail, "server error", ev("status", 503)},
			{"not fetched", withSite(""), NA, "not fetched", nil},
		}},
		{id: "feed_discoverable", never: []Status{Fail}, cases: []checkCase{
			{"rss", withSite(htmlPage(`<link rel="alternate" type="application/rss+xml" href="/feed.xml">`, "hi")), Pass, "https://example.com/feed.xml", ev("feeds", "[https://example.com/feed.xml]")},
			{"blog without feed", withSite(htmlPage("", linksTo("/blog/", "/about"))), Warn, "https://example.com/blog/", nil},
			{"article pages without feed", withSite(htmlPage("", "hi"), resp(fetch.Article, "https://example.com/news/launch", 200, htmlPage("", "news"))), Warn, "news/launch", nil},
			{"no blog", withSite(htmlPage("", linksTo("/about"))), NA, "No blog", nil},
			{"not html", withEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", nil},
		}},
		{id: "internal_link_hubs", cases: []checkCase{
			{"hubs and links", withSite(hubHome), Pass, "including the about, contact, offer and content hubs", ev("internal_links", 11)},
			{"few links", withSite(htmlPage("", linksTo("/about", "/contact", "/pricing"))), Warn, "3 internal URLs (fewer than 10) with the about, contact and offer hubs but no link whose address or text names a content hub (blog, news, guides, categories…).", nil},
			{"a wiki's categories are its content hubs", withSite(htmlPage("", linksTo("/wiki/Site:About", "/wiki/Site:Contact_us", "/wiki/Category:Harbour", "/wiki/Harbour", "/wiki/Lighthouse",
				"/wiki/Ferry", "/wiki/Tides", "/wiki/Fishing", "/wiki/Boats", "/wiki/Special:Random", "/wiki/Help:Contents"))), Pass, "including the about, contact and content hubs; no offer hub was found", nil},
			{
				"hubs named in the site's language", withSite(htmlPage("", `<nav><a href="/page/2">О компании</a> <a href="/page/3">Контакты</a> `+
					`<a href="/page/4">Каталог</a></nav>`+linksTo("/a", "/b", "/c", "/d", "/e", "/f", "/g"))), Warn,
				"with the about and contact hubs", ev("hubs", map[string]any{"about": "https://example.com/page/2", "contact": "https://example.com/page/3"}),
			},
			{"no hubs", withSite(htmlPage("", linksTo("/x", "/y", "/z", "/w"))), Fail, "none of the about", nil},
			{"too few links", withSite(htmlPage("", linksTo("/about", "/"))), Fail, "only 1 internal URL (the about hub)", ev("internal_links", 1)},
			{"not html", withEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", nil},
		}},
	})
}
