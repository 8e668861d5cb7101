package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/page"
)

const srRobotsURL = "https://example.com/robots.txt"

// srCase is one expected outcome of a search check.
type srCase struct {
	name   string
	in     func(t *testing.T) *Input
	status Status
	// summary is a substring the summary must contain.
	summary string
	// key and val, when key is set, are an evidence entry to assert; val
	// is compared through fmt.Sprint so numbers of any type match.
	key string
	val any
}

func srRobots(status int, body string) *fetch.Response {
	return resp(fetch.Robots, srRobotsURL, status, body)
}

// srWith builds an input around a homepage and extra responses.
func srWith(html string, extra ...*fetch.Response) func(t *testing.T) *Input {
	return func(t *testing.T) *Input { return input(site(t, html, extra...)) }
}

// srEdit builds an input and lets the case adjust the site.
func srEdit(html string, edit func(s *fetch.Site), extra ...*fetch.Response) func(t *testing.T) *Input {
	return func(t *testing.T) *Input {
		s := site(t, html, extra...)
		edit(s)
		return input(s)
	}
}

func srBot(token string, status int, body string, headers ...string) *fetch.Response {
	r := resp(fetch.BotProbe, testOrigin, status, body, headers...)
	r.Agent = token
	return r
}

func srFailed(purpose fetch.Purpose, rawURL string, err error) *fetch.Response {
	return &fetch.Response{Purpose: purpose, URL: rawURL, FinalURL: rawURL, Method: http.MethodGet, Header: http.Header{}, Err: err}
}

func srPage(head, body string) string {
	return "<!doctype html><html lang=en><head><title>Example</title>" + head + "</head><body>" + body + "</body></html>"
}

func srLinks(hrefs ...string) string {
	var b strings.Builder
	for i, h := range hrefs {
		fmt.Fprintf(&b, `<a href="%s">Link %d</a> `, h, i)
	}
	return b.String()
}

// srHubHome links to the four hubs and to enough other pages.
var srHubHome = srPage("", "<nav>"+srLinks("/about", "/contact", "/services", "/blog", "/a", "/b", "/c", "/d", "/e", "/f", "/g")+"</nav><main><p>Hello world.</p></main>")

const srBotBody = "<html><body>" + "Welcome to Example, the home of examples. " + "</body></html>"

func srAllBots(override map[string]*fetch.Response) []*fetch.Response {
	var out []*fetch.Response
	for _, b := range fetch.ProbeBots {
		if r, ok := override[b.Token]; ok {
			out = append(out, r)
			continue
		}
		out = append(out, srBot(b.Token, 200, srBotBody))
	}
	return out
}

func srSitemapXML(urls ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, u := range urls {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", u)
	}
	b.WriteString("</urlset>")
	return b.String()
}

func srSitemapURLs(lastmods ...string) []fetch.SitemapURL {
	out := make([]fetch.SitemapURL, 0, len(lastmods))
	for i, lm := range lastmods {
		out = append(out, fetch.SitemapURL{Loc: fmt.Sprintf("https://example.com/p%d", i), LastMod: lm})
	}
	return out
}

func srSamples(statuses ...int) []*fetch.Response {
	out := make([]*fetch.Response, 0, len(statuses))
	for i, st := range statuses {
		r := resp(fetch.SitemapSample, fmt.Sprintf("https://example.com/p%d", i), st, "")
		r.Method = http.MethodHead
		out = append(out, r)
	}
	return out
}

var errRefused = errors.New("dial tcp 203.0.113.1:80: connect: connection refused")

func srCases() map[string][]srCase {
	allowAll := srRobots(200, "User-agent: *\nAllow: /\n")
	return map[string][]srCase{
		"robots_txt_fetchable": {
			{"200", srWith("", allowAll), Pass, "HTTP 200", "state", "rules"},
			{"404 allows all", srWith("", srRobots(404, "")), Warn, "unavailable", "status", 404},
			{"oversize", srWith("", srRobots(200, "User-agent: *\nAllow: /\n"+strings.Repeat("#\n", 300<<10))), Warn, "KiB", "", nil},
			{"503 disallows all", srWith("", srRobots(503, "")), Fail, "unreachable", "state", "unreachable"},
			{"network error", srWith("", srFailed(fetch.Robots, srRobotsURL, errRefused)), Fail, "could not be fetched", "error", "the connection to the site was refused or reset"},
			{"not fetched", srWith(""), NA, "not fetched", "", nil},
		},
		"robots_txt_syntax": {
			{"clean", srWith("", allowAll), Pass, "parses cleanly", "directives", 2},
			{"empty", srWith("", srRobots(200, "")), Pass, "empty", "", nil},
			{"unknown directive", srWith("", srRobots(200, "User-agent: *\nDisallow: /x\nFoo: bar\n")), Warn, `unknown directive "foo"`, "", nil},
			{"html page", srWith("", resp(fetch.Robots, srRobotsURL, 200, "<!doctype html><html><body>Home</body></html>", "Content-Type", "text/html")), Fail, "HTML page", "html", true},
			{"garbage", srWith("", srRobots(200, "hello\nworld\nthis is not robots\n")), Fail, "None of the 3 lines", "", nil},
			{"404", srWith("", srRobots(404, "")), NA, "HTTP 404", "", nil},
		},
		"ai_search_bots_allowed": {
			{"allow all", srWith("", allowAll), Pass, "allows all 9 AI search crawlers", "blocked", "[]"},
			{"404", srWith("", srRobots(404, "")), Pass, "HTTP 404", "", nil},
			{"substring is not a match", srWith("", srRobots(200, "User-agent: bot\nDisallow: /\nUser-agent: Search\nDisallow: /\n")), Pass, "allows all", "", nil},
			{"minor bot blocked", srWith("", srRobots(200, "User-agent: DuckAssistBot\nDisallow: /\n")), Warn, "blocks DuckAssistBot", "blocked", "[DuckAssistBot]"},
			{"core bot blocked", srWith("", srRobots(200, "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n")), Fail, "1 of the 6 core AI search crawlers: OAI-SearchBot", "blocked", "[OAI-SearchBot]"},
			{"wildcard disallow", srWith("", srRobots(200, "User-agent: *\nDisallow: /\n")), Fail, "6 of the 6", "", nil},
			{"applebot follows googlebot", srWith("", srRobots(200, "User-agent: Googlebot\nDisallow: /\n")), Fail, "Googlebot and Applebot", "", nil},
			{"homepage path blocked", srEdit("", func(s *fetch.Site) { s.Home.FinalURL = "https://example.com/en/" },
				srRobots(200, "User-agent: PerplexityBot\nDisallow: /en/\n")), Fail, "PerplexityBot", "paths", "[/ /en/]"},
			{"503", srWith("", srRobots(503, "")), Fail, "HTTP 503", "robots_state", "unreachable"},
			{"not fetched", srWith(""), NA, "not fetched", "", nil},
		},
		"ai_user_fetchers_allowed": {
			{"allow all", srWith("", allowAll), Pass, "All 4 assistant fetchers", "", nil},
			{"chatgpt-user blocked", srWith("", srRobots(200, "User-agent: ChatGPT-User\nDisallow: /\n")), Warn, "may ignore robots.txt", "blocked", "[ChatGPT-User]"},
			{"claude-user blocked", srWith("", srRobots(200, "User-agent: Claude-User\nDisallow: /\n")), Warn, "blocks 1 of 4 assistant fetchers (Claude-User)", "", nil},
			{"503", srWith("", srRobots(503, "")), Warn, "HTTP 503", "", nil},
			{"not fetched", srWith(""), NA, "not fetched", "", nil},
		},
		"ai_training_policy": {
			{"opt out of some", srWith("", srRobots(200, "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n")), Info, "opts out of AI training for GPTBot and Google-Extended", "blocked", "[GPTBot Google-Extended]"},
			{"all allowed", srWith("", allowAll), Info, "allows all 9", "", nil},
			{"all blocked", srWith("", srRobots(200, "User-agent: *\nDisallow: /\n")), Info, "for all 9", "", nil},
			{"unreachable", srWith("", srRobots(500, "")), Info, "unreachable", "", nil},
			{"not fetched", srWith(""), NA, "not fetched", "", nil},
		},
		"stale_ai_tokens": {
			{"none", srWith("", allowAll), Pass, "names none", "", nil},
			{"with successor", srWith("", srRobots(200, "User-agent: anthropic-ai\nUser-agent: ClaudeBot\nDisallow: /\n")), Pass, "harmless", "", nil},
			{"same verdict via wildcard", srWith("", srRobots(200, "User-agent: Claude-Web\nDisallow: /\nUser-agent: *\nDisallow: /\n")), Pass, "harmless", "", nil},
			{"retired only", srWith("", srRobots(200, "User-agent: anthropic-ai\nDisallow: /\n")), Warn, "anthropic-ai (successor ClaudeBot is allowed)", "", nil},
			{"facebookbot", srWith("", srRobots(200, "User-agent: FacebookBot\nDisallow: /\n")), Warn, "meta-externalagent", "", nil},
			{"404", srWith("", srRobots(404, "")), NA, "HTTP 404", "", nil},
		},
		"edge_bot_reachability": {
			{"all alike", srWith("", srAllBots(nil)...), Pass, "All 5 AI user agents got the same answer", "", nil},
			{"training blocked only", srWith("", srAllBots(map[string]*fetch.Response{"GPTBot": srBot("GPTBot", 403, "Forbidden")})...), Pass, "only the training crawler GPTBot (HTTP 403)", "", nil},
			{"captcha in both", srWith("", srAllBots(map[string]*fetch.Response{
				"Browser":       srBot("Browser", 200, srBotBody+"<div class=g-recaptcha>captcha</div>"),
				"OAI-SearchBot": srBot("OAI-SearchBot", 200, srBotBody+"<div class=g-recaptcha>captcha</div>"),
			})...), Pass, "same answer", "", nil},
			{"search bot 403", srWith("", srAllBots(map[string]*fetch.Response{"OAI-SearchBot": srBot("OAI-SearchBot", 403, "Forbidden", "Server", "cloudflare")})...), Fail, "OAI-SearchBot (HTTP 403)", "", nil},
			{"search bot challenged", srWith("", srAllBots(map[string]*fetch.Response{
				"Claude-SearchBot": srBot("Claude-SearchBot", 200, "<title>Just a moment...</title><script src=/cdn-cgi/challenge-platform/_cf_chl_opt></script>", "Cf-Mitigated", "challenge"),
			})...), Fail, "Claude-SearchBot (challenge page: cf-mitigated: challenge, Just a moment, _cf_chl)", "", nil},
			{"user fetcher rate limited", srWith("", srAllBots(map[string]*fetch.Response{"ChatGPT-User": srBot("ChatGPT-User", 429, "slow down")})...), Warn, "ChatGPT-User (HTTP 429)", "", nil},
			{"size differs", srWith("", srAllBots(map[string]*fetch.Response{"PerplexityBot": srBot("PerplexityBot", 200, "<p>hi</p>")})...), Warn, "differs in size", "", nil},
			{"no probes", srWith(""), NA, "not fetched under AI crawler user agents", "", nil},
			{"baseline blocked", srWith("", srAllBots(map[string]*fetch.Response{"Browser": srBot("Browser", 403, "denied")})...), NA, "browser baseline itself answered HTTP 403", "", nil},
		},
		"content_signals": {
			{"declared", srWith("", srRobots(200, "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n")), Info, "search=yes", "ai_train", "no"},
			{"search opt-out", srWith("", srRobots(200, "User-agent: *\nContent-Signal: search=no\n")), Info, "asks engines not to use", "", nil},
			{"absent", srWith("", allowAll), Info, "no Content-Signal line", "", nil},
			{"404", srWith("", srRobots(404, "")), NA, "HTTP 404", "", nil},
		},
		"homepage_http_ok": {
			{"direct 200", srWith(""), Pass, "directly", "hops", 0},
			{"one permanent hop", srEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "http://example.com/", Status: 301}}
			}), Pass, "after 1 permanent redirect", "", nil},
			{"three hops", srEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "http://a.example/", Status: 301}, {URL: "https://a.example/", Status: 301}, {URL: "https://www.a.example/", Status: 301}}
			}), Warn, "after 3 redirects", "hops", 3},
			{"temporary hop", srEdit("", func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "https://example.com/start", Status: 302}}
			}), Warn, "temporary 302", "", nil},
			{"204", srEdit("", func(s *fetch.Site) { s.Home.Status = 204 }), Warn, "other than 200", "", nil},
			{"404", srEdit("", func(s *fetch.Site) { s.Home.Status = 404 }), Fail, "HTTP 404", "status", 404},
			{"error", srEdit("", func(s *fetch.Site) { s.Home = srFailed(fetch.Homepage, testOrigin, errRefused) }), Fail, "could not be fetched", "", nil},
			{"not fetched", srEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not fetched", "", nil},
		},
		"https_redirect": {
			{"301 to https", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 301, "", "Location", "https://example.com/")), Pass, "permanent redirect to https://example.com/", "location", "https://example.com/"},
			{"308 relative", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 308, "", "Location", "https://example.com/home")), Pass, "308", "", nil},
			{"302", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 302, "", "Location", "https://example.com/")), Warn, "temporary 302", "", nil},
			{"301 to http", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 301, "", "Location", "/www")), Warn, "another http:// URL", "location", "http://example.com/www"},
			{"403", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 403, "no")), Warn, "HTTP 403", "", nil},
			{"served over http", srWith("", resp(fetch.HTTPProbe, "http://example.com/", 200, "<html>hi</html>")), Fail, "plain HTTP", "status", 200},
			{"port 80 closed", srWith("", srFailed(fetch.HTTPProbe, "http://example.com/", errRefused)), NA, "does not answer plain HTTP", "error_code", "connection_failed"},
			{"not probed", srWith(""), NA, "not probed", "", nil},
		},
		"meta_robots_indexable": {
			{"nothing", srWith(srPage("", "hi")), Pass, "no meta robots tag", "", nil},
			{"index follow", srWith(srPage(`<meta name="robots" content="index, follow">`, "hi")), Pass, `"index, follow"`, "", nil},
			{"other bot header", srWith("", resp(fetch.Homepage, testOrigin, 200, srPage("", "hi"), "X-Robots-Tag", "otherbot: noindex")), Pass, "otherbot: noindex", "", nil},
			{"meta noindex", srWith(srPage(`<meta name="robots" content="noindex, follow">`, "hi")), Fail, "meta robots: noindex", "blocking", "[meta robots: noindex]"},
			{"googlebot none", srWith(srPage(`<meta name="googlebot" content="none">`, "hi")), Fail, "meta googlebot: none", "", nil},
			{"header noindex", srWith("", resp(fetch.Homepage, testOrigin, 200, srPage("", "hi"), "X-Robots-Tag", "googlebot: noindex, nofollow")), Fail, "X-Robots-Tag: googlebot: noindex", "", nil},
			{"expired", srWith(srPage(`<meta name="robots" content="unavailable_after: 2025-01-01">`, "hi")), Fail, "date passed", "", nil},
			{"not fetched", srEdit("", func(s *fetch.Site) { s.Home, s.HomePage = nil, nil }), NA, "not fetched", "", nil},
		},
		"snippet_controls": {
			{"none", srWith(srPage("", "<p>Plenty of quotable text here.</p>")), Pass, "sets no snippet limits", "nosnippet_pct", 0},
			{"unlimited", srWith(srPage(`<meta name="robots" content="max-snippet:-1, max-image-preview:large">`, "<p>text</p>")), Pass, "max-snippet:-1", "max_snippet", -1},
			{"short limit", srWith(srPage(`<meta name="robots" content="max-snippet:20">`, "<p>text</p>")), Warn, "20 characters", "max_snippet", 20},
			{"mostly data-nosnippet", srWith(srPage("", `<p>one two</p><div data-nosnippet>three four five six seven eight</div>`)), Warn, "75% of the homepage's text", "nosnippet_words", 6},
			{"nosnippet", srWith(srPage(`<meta name="robots" content="nosnippet">`, "<p>text</p>")), Fail, "meta robots: nosnippet", "", nil},
			{"max-snippet 0 header", srWith("", resp(fetch.Homepage, testOrigin, 200, srPage("", "<p>text</p>"), "X-Robots-Tag", "max-snippet:0")), Fail, "X-Robots-Tag: max-snippet:0", "", nil},
			{"not fetched", srEdit("", func(s *fetch.Site) { s.Home, s.HomePage = nil, nil }), NA, "not fetched", "", nil},
		},
		"canonical_valid": {
			{"self", srWith(srPage(`<link rel="canonical" href="https://example.com/">`, "hi")), Pass, "declares itself", "target_status", 200},
			{"self via Link header", srWith("", resp(fetch.Homepage, testOrigin, 200, srPage("", "hi"), "Link", `<https://example.com/>; rel="canonical"`)), Pass, "declares itself", "", nil},
			{"other page answered 200", srWith(srPage(`<link rel="canonical" href="https://example.com/en/">`, "hi"),
				resp(fetch.Article, "https://example.com/en/", 200, srPage("", "en"))), Pass, "answers HTTP 200", "target_status", 200},
			{"missing", srWith(srPage("", "hi")), Warn, "no canonical", "", nil},
			{"relative", srWith(srPage(`<link rel="canonical" href="/">`, "hi")), Warn, "relative", "relative", true},
			{"other page not fetched", srWith(srPage(`<link rel="canonical" href="https://example.com/home">`, "hi")), Warn, "was not fetched", "", nil},
			{"conflicting", srWith(srPage(`<link rel="canonical" href="https://example.com/"><link rel="canonical" href="https://example.com/a">`, "hi")), Fail, "2 different canonical URLs", "", nil},
			{"cross-site", srWith(srPage(`<link rel="canonical" href="https://other.example/">`, "hi")), Fail, "another site", "", nil},
			{"http canonical", srWith(srPage(`<link rel="canonical" href="http://example.com/">`, "hi")), Fail, "uses http://", "", nil},
			{"canonical redirects", srEdit(srPage(`<link rel="canonical" href="https://example.com/old">`, "hi"), func(s *fetch.Site) {
				s.Home.Redirects = []fetch.Redirect{{URL: "https://example.com/old", Status: 301}}
			}), Fail, "redirects (HTTP 301)", "", nil},
			{"target 404", srWith(srPage(`<link rel="canonical" href="https://example.com/gone">`, "hi"),
				resp(fetch.Article, "https://example.com/gone", 404, "nope")), Fail, "answered HTTP 404", "target_status", 404},
			{"not html", srEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not an HTML page", "", nil},
		},
		"hreflang_valid": {
			{"valid", srWith(srPage(`<link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="de-DE" href="https://example.com/de/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Pass, "3 hreflang entries", "", nil},
			{"no x-default", srWith(srPage(`<link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="fr" href="https://example.com/fr/">`, "hi")), Warn, "no x-default entry", "", nil},
			{"no self", srWith(srPage(`<link rel="alternate" hreflang="fr" href="https://example.com/fr/"><link rel="alternate" hreflang="x-default" href="https://example.com/fr/">`, "hi")), Warn, "page itself", "", nil},
			{"en-UK", srWith(srPage(`<link rel="alternate" hreflang="en-UK" href="https://example.com/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "use GB", "", nil},
			{"underscore and relative", srWith(srPage(`<link rel="alternate" hreflang="en_US" href="/us/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "not a fully qualified URL", "", nil},
			{"unknown language", srWith(srPage(`<link rel="alternate" hreflang="jp" href="https://example.com/"><link rel="alternate" hreflang="x-default" href="https://example.com/">`, "hi")), Fail, "unknown language", "", nil},
			{"none", srWith(srPage("", "hi")), NA, "no hreflang", "", nil},
		},
		"soft_404": {
			{"404", srWith("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 404, "not found")), Pass, "HTTP 404", "status", 404},
			{"410", srWith("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 410, "gone")), Pass, "HTTP 410", "", nil},
			{"500", srWith("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 500, "oops")), Warn, "HTTP 500", "", nil},
			{"200", srWith("", resp(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", 200, "<html>home</html>")), Fail, "soft 404", "bytes", 17},
			{"probe failed", srWith("", srFailed(fetch.NotFoundProbe, "https://example.com/geoscan-probe-x/", errRefused)), NA, "probe", "", nil},
			{"not probed", srWith(""), NA, "No non-existent path", "", nil},
		},
		"crawlable_anchors": {
			{"all real", srWith(srPage("", srLinks("/a", "/b", "mailto:x@example.com", "https://other.example/"))), Pass, "3 of 3 links", "crawlable", 3},
			{"some placeholders", srWith(srPage("", srLinks("/a", "/b", "/c", "#"))), Warn, "3 of 4", "crawlable_pct", 75},
			{"mostly javascript", srWith(srPage("", srLinks("/a", "javascript:void(0)", "#")+`<a onclick="go()">Go</a>`)), Fail, "1 of 4", "", nil},
			{"no links", srWith(srPage("", "<p>hi</p>")), Fail, "no <a> links", "anchors", 0},
			{"not html", srEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", "", nil},
		},
		"sitemap_present": {
			{
				"listed and valid", srEdit("", func(s *fetch.Site) { s.SitemapTotal = 2 },
					srRobots(200, "User-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n"),
					resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, srSitemapXML("https://example.com/a", "https://example.com/b"))),
				Pass, "robots.txt lists 1 sitemap; 1 valid file was read, with 2 URLs.", "urls_in_files", 2,
			},
			{
				"index", srWith("", srRobots(200, "Sitemap: https://example.com/index.xml\n"),
					resp(fetch.Sitemap, "https://example.com/index.xml", 200, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`),
					resp(fetch.Sitemap, "https://example.com/a.xml", 200, "https://example.com/a\nhttps://example.com/b\n", "Content-Type", "text/plain")),
				Pass, "2 valid files were read, with 2 URLs and 1 sitemap index naming 1 sitemap.", "", nil,
			},
			{"default location only", srWith("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, srSitemapXML("https://example.com/a"))), Warn, "with 1 entry, but robots.txt does not list it", "", nil},
			{"listed off-host", srWith("", srRobots(200, "Sitemap: https://cdn.example.net/sitemap.xml\n")), Warn, "none is on this site's host", "", nil},
			{"one of two broken", srWith("", srRobots(200, "Sitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n"),
				resp(fetch.Sitemap, "https://example.com/a.xml", 200, srSitemapXML("https://example.com/a")),
				resp(fetch.Sitemap, "https://example.com/b.xml", 404, "")), Warn, "1 of 2 sitemap files", "", nil},
			{"missing", srWith("", allowAll), Fail, "No sitemap was found", "", nil},
			{"404", srWith("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 404, "nope")), Fail, "No readable sitemap", "", nil},
			{"html instead of xml", srWith("", allowAll, resp(fetch.Sitemap, "https://example.com/sitemap.xml", 200, "<!doctype html><html><body>x</body></html>", "Content-Type", "text/html")), Fail, "not a sitemap", "", nil},
		},
		"sitemap_quality": {
			{"good", srEdit("", func(s *fetch.Site) {
				s.SitemapURLs = srSitemapURLs("2026-11-20", "2026-10-01", "2026-09-15T10:00:00Z", "2026-08-01", "2026-07-01")
				s.SitemapSamples = srSamples(200, 200, 200, 200, 200)
			}), Pass, "All 5 sitemap URLs", "newest_lastmod", "2026-11-20"},
			{"stale", srEdit("", func(s *fetch.Site) {
				s.SitemapURLs = srSitemapURLs("2026-01-02", "2026-01-01")
				s.SitemapSamples = srSamples(200, 200)
			}), Warn, "days old", "newest_age_days", 325},
			{"identical lastmods", srEdit("", func(s *fetch.Site) {
				s.SitemapURLs = srSitemapURLs("2026-11-22", "2026-11-22", "2026-11-22", "2026-11-22", "2026-11-22")
			}), Warn, "build timestamp", "distinct_lastmod", 1},
			{"no lastmod", srEdit("", func(s *fetch.Site) { s.SitemapURLs = srSitemapURLs("", "") }), Warn, "no URL has a usable lastmod", "", nil},
			{"broken samples", srEdit("", func(s *fetch.Site) {
				s.SitemapURLs = srSitemapURLs("2026-11-20", "2026-11-19", "2026-11-18", "2026-11-17", "2026-11-16")
				s.SitemapSamples = srSamples(200, 404, 200, 404, 200)
			}), Fail, "only 3 of 5 sampled URLs", "sample_ok", 3},
			{"off host", srEdit("", func(s *fetch.Site) {
				s.SitemapURLs = []fetch.SitemapURL{{Loc: "https://other.example/a", LastMod: "2026-11-01"}, {Loc: "https://other.example/b", LastMod: "2026-11-02"}}
			}), Fail, "0% of URLs are on example.com", "same_host_pct", 0},
			{"no urls", srWith(""), NA, "No sitemap URLs", "", nil},
			{"entries without loc", srEdit("", func(s *fetch.Site) { s.SitemapURLs = []fetch.SitemapURL{{}, {LastMod: "2026-11-01"}} }), NA, "No sitemap URLs", "entries_without_loc", 2},
		},
		"llms_txt_present": {
			{"text", srWith("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, "# Example\n> Examples.\n")), Pass, "HTTP 200", "content_type", "text/plain"},
			{"404", srWith("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 404, "")), Warn, "HTTP 404", "", nil},
			{"html catch-all", srWith("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, "<!doctype html><html></html>", "Content-Type", "text/html")), Warn, "HTML page", "", nil},
			{"503", srWith("", resp(fetch.LLMsTxt, "https://example.com/llms.txt", 503, "")), Fail, "server error", "status", 503},
			{"not fetched", srWith(""), NA, "not fetched", "", nil},
		},
		"feed_discoverable": {
			{"rss", srWith(srPage(`<link rel="alternate" type="application/rss+xml" href="/feed.xml">`, "hi")), Pass, "https://example.com/feed.xml", "feeds", "[https://example.com/feed.xml]"},
			{"blog without feed", srWith(srPage("", srLinks("/blog/", "/about"))), Warn, "https://example.com/blog/", "", nil},
			{"article pages without feed", srWith(srPage("", "hi"), resp(fetch.Article, "https://example.com/news/launch", 200, srPage("", "news"))), Warn, "news/launch", "", nil},
			{"no blog", srWith(srPage("", srLinks("/about"))), NA, "No blog", "", nil},
			{"not html", srEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", "", nil},
		},
		"internal_link_hubs": {
			{"hubs and links", srWith(srHubHome), Pass, "including the about, contact, offer and content hubs", "internal_links", 11},
			{"few links", srWith(srPage("", srLinks("/about", "/contact", "/pricing"))), Warn, "3 internal URLs (fewer than 10) with the about, contact and offer hubs but none for content", "", nil},
			{"no hubs", srWith(srPage("", srLinks("/x", "/y", "/z", "/w"))), Fail, "none of the about", "", nil},
			{"too few links", srWith(srPage("", srLinks("/about", "/"))), Fail, "only 1 internal URL (the about hub)", "internal_links", 1},
			{"not html", srEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", "", nil},
		},
		"ttfb": {
			{"fast", srWith(""), Pass, "40 ms", "median_ms", 40},
			{"medium", srEdit("", func(s *fetch.Site) {
				s.TTFBSamples = []time.Duration{900 * time.Millisecond, 1200 * time.Millisecond, 5 * time.Second}
			}), Warn, "1200 ms", "samples_ms", "[900 1200 5000]"},
			{"even count", srEdit("", func(s *fetch.Site) {
				s.TTFBSamples = []time.Duration{2 * time.Second, 3 * time.Second}
			}), Fail, "2500 ms", "median_ms", 2500},
			{"no samples", srEdit("", func(s *fetch.Site) { s.TTFBSamples = nil }), NA, "No time-to-first-byte", "", nil},
		},
		"html_weight": {
			{"small", srWith(srPage("", "hi")), Pass, "86 bytes", "kib", 0},
			{"heavy", srEdit("", func(s *fetch.Site) { s.Home.Bytes = 600 << 10 }), Warn, "600 KiB", "kib", 600},
			{"huge", srEdit("", func(s *fetch.Site) { s.Home.Bytes = 3 << 20 }), Fail, "over 2 MiB", "", nil},
			{"truncated", srEdit("", func(s *fetch.Site) {
				s.Home.Bytes, s.Home.Truncated, s.Home.Err = 5<<20, true, fetch.ErrTooLarge
			}), Fail, "exceeds", "truncated", true},
			{"not fetched", srEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not read", "", nil},
		},
		"compression": {
			{"br", srEdit(srPage("", strings.Repeat("<p>word</p>", 300)), func(s *fetch.Site) { s.Home.ContentEncoding = "br" }), Pass, "Content-Encoding br", "content_encoding", "br"},
			{"deflate", srEdit(srPage("", strings.Repeat("<p>word</p>", 300)), func(s *fetch.Site) { s.Home.ContentEncoding = "deflate" }), Warn, "deflate", "", nil},
			{"none", srWith(srPage("", strings.Repeat("<p>word</p>", 300))), Fail, "uncompressed", "content_encoding", ""},
			{"tiny", srWith(srPage("", "hi")), NA, "too small", "", nil},
			{"not fetched", srEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not fetched", "", nil},
		},
		"render_blocking_head": {
			{"deferred", srWith(srPage(`<script src="/a.js" defer></script><script src="/b.js" async></script><script type="module" src="/c.js"></script><link rel="stylesheet" href="/s.css">`, "hi")), Pass, "0 synchronous scripts and 1 stylesheet", "total", 1},
			{"five", srWith(srPage(`<script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script><link rel="stylesheet" href="/1.css"><link rel="stylesheet" href="/2.css">`, "hi")), Warn, "5 in total", "blocking_stylesheets", 2},
			{"ten", srWith(srPage(strings.Repeat(`<script src="/a.js"></script>`, 6)+strings.Repeat(`<link rel="stylesheet" href="/s.css">`, 4), "hi")), Fail, "10 in total", "", nil},
			{"not html", srEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", "", nil},
		},
		"image_dimensions_lcp": {
			{"sized", srWith(srPage("", `<img src="/hero.jpg" width="800" height="400"><img src="/b.jpg" width="10" height="10" loading="lazy">`)), Pass, "2 of 2", "with_dimensions", 2},
			{"unsized", srWith(srPage("", `<img src="/hero.jpg"><img src="/b.jpg" width="10" height="10">`)), Warn, "only 1 of 2 images", "with_dimensions_pct", 50},
			{"first lazy", srWith(srPage("", `<img src="/hero.jpg" width="800" height="400" loading="lazy">`)), Warn, "first image is lazy-loaded", "first_lazy", true},
			{"no images", srWith(srPage("", "hi")), NA, "no <img>", "", nil},
		},
		"crux_field_vitals": {
			{"always na", srWith(""), NA, "Field Core Web Vitals need a CrUX API key, which comes with the AI layer; not scored.", "reason", "no_crux_api_key"},
		},
	}
}

func TestSearchChecks(t *testing.T) {
	t.Parallel()
	byID := map[string]*Check{}
	for _, c := range searchChecks() {
		byID[c.ID] = c
	}
	cases := srCases()
	for id, cs := range cases {
		c := byID[id]
		if c == nil {
			t.Errorf("cases for unknown check %s", id)
			continue
		}
		for _, tc := range cs {
			t.Run(id+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				r := c.Eval(tc.in(t))
				t.Log(r.Summary)
				if r.Status != tc.status {
					t.Fatalf("status %s, want %s: %s\nevidence: %v", r.Status, tc.status, r.Summary, r.Evidence)
				}
				if !strings.Contains(r.Summary, tc.summary) {
					t.Errorf("summary %q lacks %q", r.Summary, tc.summary)
				}
				if tc.key != "" {
					got, ok := r.Evidence[tc.key]
					if !ok {
						t.Errorf("evidence lacks %q: %v", tc.key, r.Evidence)
					} else if fmt.Sprint(got) != fmt.Sprint(tc.val) {
						t.Errorf("evidence %s = %v, want %v", tc.key, got, tc.val)
					}
				}
				srAssertEvidence(t, r)
			})
		}
	}
	// Every search check has cases for the verdicts it can give.
	noWarn := map[string]bool{"crux_field_vitals": true, "ai_training_policy": true, "content_signals": true, "meta_robots_indexable": true}
	noFail := map[string]bool{
		"ai_user_fetchers_allowed": true, "image_dimensions_lcp": true, "crux_field_vitals": true,
		"ai_training_policy": true, "content_signals": true, "stale_ai_tokens": true, "feed_discoverable": true,
	}
	noPass := map[string]bool{"crux_field_vitals": true, "ai_training_policy": true, "content_signals": true}
	noNA := map[string]bool{"sitemap_present": true}
	for id := range byID {
		seen := map[Status]bool{}
		for _, tc := range cases[id] {
			seen[tc.status] = true
		}
		if !noPass[id] && !seen[Pass] {
			t.Errorf("%s: no pass case", id)
		}
		if !noWarn[id] && !seen[Warn] {
			t.Errorf("%s: no warn case", id)
		}
		if !noFail[id] && !seen[Fail] {
			t.Errorf("%s: no fail case", id)
		}
		if !noNA[id] && !seen[NA] && !seen[Info] {
			t.Errorf("%s: no na or info case", id)
		}
	}
}

// srAssertEvidence holds a result to the evidence contract: one sentence
// of summary and evidence that survives JSON with only plain values.
func srAssertEvidence(t *testing.T, r Result) {
	t.Helper()
	if r.Summary == "" || !strings.HasSuffix(r.Summary, ".") {
		t.Errorf("summary %q is not a sentence", r.Summary)
	}
	if r.Evidence == nil {
		t.Fatal("nil evidence")
	}
	if _, err := json.Marshal(r.Evidence); err != nil {
		t.Fatalf("evidence does not marshal: %v", err)
	}
	var check func(path string, v any)
	check = func(path string, v any) {
		switch x := v.(type) {
		case string, bool, int, int64, float64, []string, []int64:
		case []map[string]any:
			for i, m := range x {
				check(fmt.Sprintf("%s[%d]", path, i), m)
			}
		case map[string]any:
			for k, e := range x {
				check(path+"."+k, e)
			}
		default:
			t.Errorf("evidence %s has type %T", path, v)
		}
	}
	check("evidence", r.Evidence)
}

// TestSearchChecksSurviveMissingData runs every search evaluator directly
// (no recovery) on inputs with nothing fetched.
func TestSearchChecksSurviveMissingData(t *testing.T) {
	t.Parallel()
	empty := site(t, "")
	empty.Home.Header = nil
	orphan, err := page.Parse([]byte(srHubHome+`<link rel="alternate" hreflang="en" href="/">`), nil)
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]*Input{
		"no site":                  {Now: testNow},
		"empty homepage":           input(site(t, "")),
		"nil header":               input(empty),
		"page without site or URL": {Home: orphan},
		"nothing fetched": input(&fetch.Site{
			Bots:     []fetch.BotResult{{Bot: fetch.ProbeBots[0]}, {Bot: fetch.ProbeBots[1]}},
			Sitemaps: []*fetch.Response{nil}, SitemapSamples: []*fetch.Response{nil},
		}),
	}
	for name, in := range inputs {
		for _, c := range searchChecks() {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s on %s panicked: %v", c.ID, name, p)
					}
				}()
				r := c.Eval(in)
				if r.Summary == "" {
					t.Errorf("%s on %s: empty summary", c.ID, name)
				}
				srAssertEvidence(t, r)
			}()
		}
	}
}

func TestSearchCatalogShape(t *testing.T) {
	t.Parallel()
	want := []string{
		"robots_txt_fetchable", "robots_txt_syntax", "ai_search_bots_allowed", "ai_user_fetchers_allowed",
		"ai_training_policy", "stale_ai_tokens", "edge_bot_reachability", "content_signals",
		"homepage_http_ok", "https_redirect", "meta_robots_indexable", "snippet_controls", "canonical_valid",
		"hreflang_valid", "soft_404", "crawlable_anchors",
		"sitemap_present", "sitemap_quality", "llms_txt_present", "feed_discoverable", "internal_link_hubs",
		"ttfb", "html_weight", "compression", "render_blocking_head", "image_dimensions_lcp", "crux_field_vitals",
	}
	got := searchChecks()
	if len(got) != len(want) {
		t.Fatalf("%d search checks, want %d", len(got), len(want))
	}
	for i, c := range got {
		if c.ID != want[i] {
			t.Errorf("check %d is %s, want %s", i, c.ID, want[i])
		}
		if c.Ring != RingSearch {
			t.Errorf("%s: ring %s", c.ID, c.Ring)
		}
		if c.Marketing.Why == c.Engineering.Why || c.Marketing.Fix == c.Engineering.Fix || c.Marketing.Title == "" || c.Engineering.Title == "" {
			t.Errorf("%s: texts must exist and differ by audience", c.ID)
		}
	}
}
