package checks

import (
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestIndexability covers the indexability pillar.
func TestIndexability(t *testing.T) {
	t.Parallel()

	testPillar(t, pillarIndexability, []pillarCheck{
		{id: "homepage_http_ok", cases: []checkCase{
			{"direct 200", withSite(""), Pass, "directly", ev("hops", 0)},
			{"one permanent hop", withEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "http://example.com/", Status: 301}}
			}), Pass, "after 1 permanent redirect", nil},
			{"three hops", withEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "http://a.example/", Status: 301}, {URL: "https://a.example/", Status: 301}, {URL: "https://www.a.example/", Status: 301}}
			}), Warn, "after 3 redirects", ev("hops", 3)},
			{"temporary hop", withEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "https://example.com/start", Status: 302}}
			}), Warn, "temporary 302", nil},
			{"204", withEdit("", func(s *fetch.Site) { s.Home.Status = 204 }), Warn, "other than 200", nil},
			{"404", withEdit("", func(s *fetch.Site) { s.Home.Status = 404 }), Fail, "HTTP 404", ev("status", 404)},
			{"error", withEdit("", func(s *fetch.Site) { s.Home = failedFetch(fetch.Homepage, testOrigin, errRefused) }), Fail, "could not be fetched", nil},
			{"not fetched", withEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not fetched", nil},
			{
				"read as a browser", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 200, botBody)), allBots(nil)...),
				Pass, "directly at https://example.com/ to a browser (GeoScan's own user agent was refused: cf-mitigated: challenge).", ev("audited_as", "Browser"),
			},
			{"every request refused", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 403, "denied")), allBots(map[string]*fetch.Response{
				"Browser": botProbe("Browser", 403, "denied"), "OAI-SearchBot": botProbe("OAI-SearchBot", 403, "denied"), "ChatGPT-User": botProbe("ChatGPT-User", 403, "denied"),
				"Claude-SearchBot": botProbe("Claude-SearchBot", 403, "denied"), "PerplexityBot": botProbe("PerplexityBot", 403, "denied"), "GPTBot": botProbe("GPTBot", 403, "denied"),
			})...), Fail, "refused every request GeoScan made (cf-mitigated: challenge): as itself, as a browser and as the AI crawlers OAI-SearchBot", nil},
			{
				"GeoScan refused, AI crawlers served", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 403, "denied")), allBots(map[string]*fetch.Response{"Browser": botProbe("Browser", 403, "denied")})...),
				NA, "while AI crawler user agents OAI-SearchBot, ChatGPT-User, Claude-SearchBot, PerplexityBot and GPTBot were served, so the site could not be audited from here", nil,
			},
		}},
		{id: "https_redirect", cases: []checkCase{
			{"301 to https", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 301, "", "Location", "https://example.com/")), Pass, "permanent redirect to https://example.com/", ev("location", "https://example.com/")},
			{"308 relative", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 308, "", "Location", "https://example.com/home")), Pass, "308", nil},
			{"302", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 302, "", "Location", "https://example.com/")), Warn, "temporary 302", nil},
			{"301 to http", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 301, "", "Location", "/www")), Warn, "another http:// URL", ev("location", "http://example.com/www")},
			{"403", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 403, "no")), Warn, "HTTP 403", nil},
			{"served over http", withSite("", resp(fetch.HTTPProbe, "http://example.com/", 200, "<html>hi</html>")), Fail, "plain HTTP", ev("status", 200)},
			{"port 80 closed", withSite("", failedFetch(fetch.HTTPProbe, "http://example.com/", errRefused)), NA, "does not answer plain HTTP", ev("error_code", "connection_failed")},
			{"not probed", withSite(""), NA, "not probed", nil},
		}},
		{id: "meta_robots_indexable", never: []Status{Warn}, cases: []checkCase{
			{"nothing", withSite(htmlPage("", "hi")), Pass, "no meta robots tag", nil},
			{"index follow", withSite(htmlPage(`<meta name="robots" content="index, follow">`, "hi")), Pass, `"index, follow"`, nil},
			{"other bot header", withSite("", resp(fetch.Homepage, testOrigin, 200, htmlPage("", "hi"), "X-Robots-Tag", "otherbot: noindex")), Pass, "otherbot: noindex", nil},
			{"meta noindex", withSite(htmlPage(`<meta name="robots" content="noindex, follow">`, "hi")), Fail, "meta robots: noindex", ev("blocking", "[meta robots: noindex]")},
			{"googlebot none", withSite(htmlPage(`<meta name="googlebot" content="none">`, "hi")), Fail, "meta googlebot: none", nil},
			{"header noindex", withSite("", resp(fetch.Homepage, testOrigin, 200, htmlPage("", "hi"), "X-Robots-Tag", "googlebot: noindex, nofollow")), Fail, "X-Robots-Tag: googlebot: noindex", nil},
			{"expired", withSite(htmlPage(`<meta name="robots" content="unavailable_after: 2025-01-01">`, "hi")), Fail, "date passed", nil},
			{"not fetched", withEdit("", func(s *fetch.Site) { s.Home, s.HomePage = nil, nil }), NA, "not fetched", nil},
		}},
		{id: "snippet_controls", cases: []checkCase{
			{"none", withSite(htmlPage("", "<p>Plenty of quotable text here.</p>")), Pass, "sets no snippet limits", ev("nosnippet_pct", 0)},
			{"unlimited", withSite(htmlPage(`<meta name="robots" content="max-snippet:-1, max-image-preview:large">`, "<p>text</p>")), Pass, "max-snippet:-1", ev("max_snippet", -1)},
			{"short limit", withSite(htmlPage(`<meta name="robots" content="max-snippet:20">`, "<p>text</p>")), Warn, "20 characters", ev("max_snippet", 20)},
			{"mostly data-nosnippet", withSite(htmlPage("", `<p>one two</p><div data-nosnippet>three four five six seven eight</div>`)), Warn, "75% of the homepage's text", ev("nosnippet_words", 6)},
			{"nosnippet", withSite(htmlPage(`<meta name="robots" content="nosnippet">`, "<p>text</p>")), Fail, "meta robots: nosnippet", nil},
			{"max-snippet 0 header", withSite("", resp(fetch.Homepage, testOrigin, 200, htmlPage("", "<p>text</p>"), "X-Robots-Tag", "max-snippet:0")), Fail, "X-Robots-Tag: max-snippet:0", nil},
			{"not fetched", withEdit("", func(s *fetch.Site) { s.Home, s.HomePage = nil, nil }), NA, "not fetched", nil},
		}},
		{id: "canonical_valid", cases: []checkCase{
			{"self", withSite(htmlPage(`<link rel="canonical" href="https://example.com/">`, "hi")), Pass, "declares itself", ev("target_status", 200)},
			{"self via Link header", withSite("", resp(fetch.Homepage, testOrigin, 200, htmlPage("", "hi"), "Link", `<https://example.com/>; rel="canonical"`)), Pass, "declares itself", nil},
			{"other page answered 200", withSite(htmlPage(`<link rel="canonical" href="https://example.com/en/">`, "hi"),
				resp(fetch.Article, "https://example.com/en/", 200, htmlPage("", "en"))), Pass, "answers HTTP 200", ev("target_status", 200)},
			{"missing", withSite(htmlPage("", "hi")), Warn, "no canonical", nil},
			{"relative", withSite(htmlPage(`<link rel="canonical" href="/">`, "hi")), Warn, "relative", ev("relative", true)},
			{"other page not fetched", withSite(htmlPage(`<link rel="canonical" href="https://example.com/home">`, "hi")), Warn, "was not fetched", nil},
			{"conflicting", withSite(htmlPage(`<link rel="canonical" href="https://example.com/"><link rel="canonical" href="https://example.com/a">`, "hi")), Fail, "2 different canonical URLs", nil},
			{"cross-site", withSite(htmlPage(`<link rel="canonical" href="https://other.example/">`, "hi")), Fail, "another site", nil},
			{"http canonical", withSite(htmlPage(`<link rel="canonical" href="http://example.com/">`, "hi")), Fail, "uses http://", nil},
			{"canonical redirects", withEdit(htmlPage(`<link rel="canonical" href="https://example.com/old">`, "hi"), func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "https://example.com/old", Status: 301}}
			}), Fail, "redirects (HTTP 301)", nil},
			{"target 404", withSite(htmlPage(`<link rel="canonical" href="https://example.com/gone">`, "hi"),
				resp(fetch.Article, "https://example.com/gone", 404, "nope")), Fail, "answered HTTP 404", ev("target_status", 404)},
			{"not html", withEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not an HTML page", nil},
		}},
		{id: "hreflang_valid", cases: []checkCase{
			{"valid", withSite(htmlPage(`<link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="de-DE" href="https://example.com/de/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Pass, "3 hreflang entries", nil},
			{"no x-default", withSite(htmlPage(`<link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="fr" href="https://example.com/fr/">`, "hi")), Warn, "no x-default entry", nil},
			{"no self", withSite(htmlPage(`<link rel="alternate" hreflang="fr" href="https://example.com/fr/"><link rel="alternate" hreflang="x-default" href="https://example.com/fr/">`, "hi")), Warn, "page itself", nil},
			{"en-UK", withSite(htmlPage(`<link rel="alternate" hreflang="en-UK" href="https://example.com/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "use GB", nil},
			{"underscore and relative", withSite(htmlPage(`<link rel="alternate" hreflang="en_US" href="/us/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "not a fully qualified URL", nil},
			{"unknown language", withSite(htmlPage(`<link rel="alternate" hreflang="jp" href="https://example.com/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "unknown language", nil},
			{"none", withSite(htmlPage("", "hi")), NA, "no hreflang", nil},
		}},
		{id: "soft_404", cases: []checkCase{
			{"404", withSite("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 404, "not found")), Pass, "HTTP 404", ev("status", 404)},
			{"410", withSite("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 410, "gone")), Pass, "HTTP 410", nil},
			{"500", withSite("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 500, "oops")), Warn, "HTTP 500", nil},
			{"200", withSite("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 200, "<html>home</html>")), Fail, "soft 404", ev("bytes", 17)},
			{"probe failed", withSite("", failedFetch(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", errRefused)), NA, "probe", nil},
			{"not probed", withSite(""), NA, "No non-existent path", nil},
		}},
		{id: "crawlable_anchors", cases: []checkCase{
			{"all real", withSite(htmlPage("", linksTo("/a", "/b", "mailto:x@example.com", "https://other.example/"))), Pass, "3 of 3 links", ev("crawlable", 3)},
			{"some placeholders", withSite(htmlPage("", linksTo("/a", "/b", "/c", "#"))), Warn, "3 of 4", ev("crawlable_pct", 75)},
			{"mostly javascript", withSite(htmlPage("", linksTo("/a", "javascript:void(0)", "#")+`<a onclick="go()">Go</a>`)), Fail, "1 of 4", nil},
			{
				"wiki footnotes jump within the page", withSite(htmlPage("", `<a href="#bodyContent">Jump to content</a>`+linksTo("/wiki/A", "/wiki/B", "/wiki/C")+
					`<div id="bodyContent"><p>Fact.<sup id="cite_ref-1"><a href="#cite_note-1">[1]</a></sup> More.<sup><a href="#cite_note-2">[2]</a></sup></p>`+
					`<ol><li id="cite_note-1"><a href="#cite_ref-1">^</a> Source</li><li id="cite_note-2">Source</li></ol><a name="end"></a><a href="#top">Top</a></div>`)),
				Pass, "3 of 3 links on the homepage (100%) have a crawlable href (6 jumps within the page left out)", ev("in_page_anchors", 6),
			},
			{"a hash route is no jump", withSite(htmlPage("", linksTo("/a", "/b", "#/pricing", "#/about"))), Fail, "2 of 4", nil},
			{"only jumps", withSite(htmlPage("", `<a href="#main">Skip</a><main id="main">hi</main>`)), Fail, "links to no other page; its only anchor is a jump within the page", ev("anchors", 0, "in_page_anchors", 1)},
			{"no links", withSite(htmlPage("", "<p>hi</p>")), Fail, "no <a> links", ev("anchors", 0)},
			{"not html", withEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", nil},
		}},
	})
}
