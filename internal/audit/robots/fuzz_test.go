package robots

import (
	"net/url"
	"strings"
	"testing"
)

// robotsSeeds are robots.txt files shaped the way the web writes them.
var robotsSeeds = []string{
	"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://example.com/wp-sitemap.xml\n",
	"User-agent: GPTBot\nDisallow: /\n\nUser-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nAllow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 10\n",
	"User-agent: *\r\nDisallow: /search\r\nDisallow: /*?q=\r\nAllow: /search/about$\r\n",
	"User-agent: *\rDisallow: /cart\rSitemap: https://shop.example.com/sitemap_index.xml\r",
	"\ufeffUser-agent: *\nDisallow:\n",
	"# Squarespace Robots Txt\n\nUser-agent: Amazonbot\nUser-agent: anthropic-ai\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /config\nDisallow: /*?author=*\nDisallow: /*&author=*\n",
	"User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n",
	"<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>404</h1></body></html>",
	"Useragent: *\nDissallow: /admin\nnoindex: /tmp\nHost: example.com\nSitemap: /relative.xml\n",
	"Disallow: /before-any-group\nUser-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /%7Ejoe/\nDisallow: /caf%C3%A9\nAllow: /~joe/public\n",
	"User-agent: *\nDisallow: /a\x00b\nDisallow: /\xff\xfe\n",
	"User-agent: *\nDisallow: " + strings.Repeat("/*", 200) + "x$\n",
	"user-agent:*\ndisallow:/\nallow:/$\n",
	"",
}

// FuzzRobots: any robots.txt body parses without panicking and answers
// any token and path; what it reports stays consistent (verdicts name a
// rule on a real line, sitemaps are absolute URLs, problems are bounded,
// robots.txt itself is always allowed), and a group appended for a fresh
// token always decides that token's fate.
func FuzzRobots(f *testing.F) {
	for _, s := range robotsSeeds {
		f.Add(s, "GPTBot", "/wp-admin/index.php?x=1")
	}
	f.Add("User-agent: *\nDisallow: /\n", "*", "https://example.com/%7Ejoe/")
	f.Fuzz(func(t *testing.T, body, token, path string) {
		file := ParseBody(body)
		lines := strings.Count(body, "\n") + strings.Count(body, "\r") + 1
		for _, tok := range []string{token, "*", "OAI-SearchBot", "Googlebot"} {
			v := file.Allowed(tok, path)
			if v.Rule != "" && (v.Line < 1 || v.Line > lines) {
				t.Fatalf("rule %q on line %d of %d", v.Rule, v.Line, lines)
			}
			if v.Reason == "" {
				t.Fatal("a verdict without a reason")
			}
			if !file.Allowed(tok, "/robots.txt").Allowed {
				t.Fatal("/robots.txt itself must always be allowed")
			}
		}
		for _, s := range file.Sitemaps() {
			if u, err := url.Parse(s); err != nil || !u.IsAbs() {
				t.Fatalf("sitemap %q is not an absolute URL", s)
			}
		}
		if n := len(file.Problems()); n > maxProblems+1 {
			t.Fatalf("%d problems kept", n)
		}
		_, _, _ = file.Groups(), file.ContentSignals(), file.Names(token)

		// A fresh group at the end of a file that fits the parse limit
		// disallows everything for its token.
		const probe = "geoscanfuzzprobe"
		if len(body) < MaxParseBytes-100 && !strings.Contains(strings.ToLower(body), probe) {
			ext := ParseBody(body + "\nUser-agent: " + probe + "\nDisallow: /\n")
			if v := ext.Allowed(probe, "/some/page"); v.Allowed {
				t.Fatalf("the appended group must disallow /some/page: %+v", v)
			}
		}
	})
}
