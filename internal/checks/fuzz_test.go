package checks

import (
	"net/http"
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/fetch"
)

// FuzzSitemapKind: any body served as a sitemap is classified without
// panicking, as one of the known kinds, with a count that fits the kind.
func FuzzSitemapKind(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc><lastmod>2026-11-01T09:00:00+00:00</lastmod></url><url><loc>https://example.com/about/</loc></url></urlset>`,
		`<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="//example.com/wp-content/plugins/wordpress-seo/css/main-sitemap.xsl"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/post-sitemap.xml</loc><lastmod>2026-10-30T11:12:13+00:00</lastmod></sitemap></sitemapindex>`,
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
		h := http.Header{}
		h.Set("Content-Type", contentType)
		kind, n := sitemapKind(&fetch.Response{Purpose: fetch.Sitemap, Status: status, Header: h, Body: body, Bytes: len(body)})
		switch kind {
		case "urlset", "sitemapindex":
			if n < 0 {
				t.Fatalf("%s with %d entries", kind, n)
			}
		case "text":
			if n <= 0 || n > strings.Count(string(body), "\n")+1 {
				t.Fatalf("text sitemap with %d entries", n)
			}
		case "error", "gzip", "invalid":
			if n != 0 {
				t.Fatalf("%s with %d entries", kind, n)
			}
		default:
			t.Fatalf("unknown kind %q", kind)
		}
		if (status < 200 || status > 299) && kind != "error" {
			t.Fatalf("HTTP %d classified as %s", status, kind)
		}
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
