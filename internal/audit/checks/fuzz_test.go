package checks

import (
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// FuzzSitemapPresent: any body served at the sitemap robots.txt lists is
// judged without panicking, by a result that keeps the evidence rule; a
// sitemap that is no readable file never passes, and a non-2xx answer is
// no readable file.
func FuzzSitemapPresent(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc><lastmod>2026-11-01T09:00:00+00:00</lastmod></url><url><loc>https://example.com/about/</loc></url></urlset>`,
		`<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="//example.com/wp-content/plugins/wordpress-seo/css/main-sitemap.xsl"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/post-sitemap.xml</loc><lastmod>2026-10-30T11:12:13+00:00</lastmod></sitemap></sitemapindex>`,
		`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/caf` + "\xe9" + `/</loc></url></urlset>`,
		"https://example.com/\nhttps://example.com/pricing\r\n\nhttps://example.com/blog/\n",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
		`<!DOCTYPE html><html><head><title>Not found</title></head><body>404</body></html>`,
		`<urlset><url><loc>https://example.com/a&amp;b</loc></url><url><loc>https://example.com/` + "\x00" + `</loc></url></urlset>`,
		`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><urlset><url><loc>&lol2;</loc></url></urlset>`,
		`<rss version="2.0"><channel><item><link>https://example.com/feed-item</link></item></channel></rss>`,
		strings.Repeat("<sitemapindex>", 64),
		"",
	} {
		f.Add([]byte(s), "application/xml", 200)
	}
	f.Add([]byte("https://example.com/\n"), "text/plain", 200)
	f.Add([]byte("<urlset></urlset>"), "text/html; charset=utf-8", 404)
	f.Fuzz(func(t *testing.T, body []byte, contentType string, status int) {
		if status < 100 || status > 599 {
			return
		}
		s := site(t, "", robotsTxt(200, "User-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n"),
			resp(fetch.Sitemap, "https://example.com/sitemap.xml", status, string(body), "Content-Type", contentType))
		readable := s.SitemapFetches[0].Kind != ""
		if readable && (status < 200 || status > 299) {
			t.Fatalf("HTTP %d read as a %s sitemap", status, s.SitemapFetches[0].Kind)
		}
		r := evalSitemapPresent(input(s))
		requireResult(t, r)
		if r.Status == Pass && !readable {
			t.Fatalf("passed without a readable sitemap: %s", r.Summary)
		}
		requireResult(t, evalSitemapQuality(input(s)))
	})
}

// FuzzReadLLMsTxt: any llms.txt body is read without panicking, and what
// the report says is consistent with itself.
func FuzzReadLLMsTxt(f *testing.F) {
	for _, s := range []string{
		"# Lumen Docs\n\n> Documentation for the Lumen static site toolkit.\n\n## Guides\n\n- [Install](https://lumen.example/docs/install.md): first steps\n- [Deploy](https://lumen.example/docs/deploy.md)\n\n## Optional\n\n- [Changelog](https://lumen.example/changelog.md)\n",
		"# Shop\r\n> Our store\r\n## Products\r\n- [Kettles](/products/kettles)\r\n",
		"\ufeff# Title\n\nFree text before sections.\n\n```\n## not a section inside a fence\n```\n## Links\n  continued line\n* [a](https://x.example/a)\n### deeper\n",
		"<!DOCTYPE html><html><head><title>llms.txt</title></head><body>Not found</body></html>",
		"Welcome to our llms file\n- [a](b)\n",
		"# A\n# B\n## Empty\n## Also empty\n",
		"# Nul\x00 Bakery\n> Bread \xff baked daily.\n## Pages\n- [About\x00 us](https://nulbytes.test/about): who bakes \xfe\n",
		"",
		strings.Repeat("## s\n", 100),
	} {
		f.Add([]byte(s), "text/markdown")
	}
	f.Add([]byte("<html><body>catch-all</body></html>"), "text/html")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		r := readLLMsTxt(body, contentType)
		if r.html {
			if r.title != "" || r.links != 0 || len(r.sections) != 0 || r.fatal != "" {
				t.Fatalf("an HTML page read as llms.txt too: %+v", r)
			}
			return
		}
		if r.fatal != "" && (r.title != "" || len(r.sections) != 0 || r.links != 0) {
			t.Fatalf("a fatal read kept content: %+v", r)
		}
		if len(r.relative) > r.links || len(r.mdLinks) > r.links {
			t.Fatalf("%d links but %d relative and %d .md", r.links, len(r.relative), len(r.mdLinks))
		}
		lines := strings.Count(string(body), "\n") + 1
		if len(r.sections) > lines {
			t.Fatalf("%d sections in %d lines", len(r.sections), lines)
		}
		if strings.ContainsAny(r.title, "\n") {
			t.Fatalf("title %q spans lines", r.title)
		}
		optional := false
		for _, s := range r.sections {
			optional = optional || strings.EqualFold(s, "optional")
		}
		if optional != r.optional {
			t.Fatalf("optional %v but sections %q", r.optional, r.sections)
		}
	})
}
