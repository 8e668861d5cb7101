package fetch

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// FuzzLLMsTxtLinks: the links sampled from any llms.txt are at most n,
// distinct, absolute https URLs, in order.
func FuzzLLMsTxtLinks(f *testing.F) {
	for _, s := range []string{
		"# Lumen Docs\n\n> Docs.\n\n## Guides\n\n- [Install](https://lumen.example/docs/install.md): first steps\n- [Deploy](https://lumen.example/docs/deploy.md)\n- [Install again](https://lumen.example/docs/install.md)\n",
		"- [a](http://plain.example/)\n- [b](/relative)\n- [c]( https://spaced.example/ )\n- [d](https://x.example/a(b))\n",
		"[x](https://a.example/\x00)[y](https://b.example/\xff)",
		strings.Repeat("[l](https://example.com/p)", 50),
		"",
	} {
		f.Add([]byte(s), 5)
	}
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 1 || n > 50 {
			return
		}
		links := llmsTxtLinks(&Response{Status: 200, Body: body}, n)
		if len(links) > n {
			t.Fatalf("%d links for n=%d", len(links), n)
		}
		if !slices.IsSorted(links) || len(slices.Compact(slices.Clone(links))) != len(links) {
			t.Fatalf("links not sorted and distinct: %q", links)
		}
		for _, l := range links {
			if !strings.HasPrefix(l, "https://") || strings.ContainsAny(l, " )\t\n") {
				t.Fatalf("link %q", l)
			}
		}
		if llmsTxtLinks(&Response{Status: 404, Body: body}, n) != nil {
			t.Fatal("links read from a 404")
		}
	})
}

// FuzzReadSitemap: any sitemap body (gzip data included) reads as one of
// the known kinds, or as nothing, consistently with what it holds.
func FuzzReadSitemap(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc><lastmod>2026-11-01</lastmod></url></urlset>`,
		`<?xml version="1.0" encoding="windows-1252"?><?xml-stylesheet type="text/xsl" href="/main-sitemap.xsl"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc> https://example.com/post-sitemap.xml </loc></sitemap></sitemapindex>`,
		"https://example.com/\r\nhttps://example.com/a\n\nhttp://example.com/b\n",
		"https://example.com/\nnot a url\n",
		"https://example.com/a\rhttps://example.com/b\r",
		`<!DOCTYPE html><html><body>Not found</body></html>`,
		`<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><urlset><url><loc>&b;</loc></url></urlset>`,
		"<urlset><url><loc>https://example.com/\x00</loc></url></urlset>",
		strings.Repeat("<urlset>", 100),
		"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
		"",
	} {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(`<html><head><title>Sitemap</title></head></html>`), true)
	f.Fuzz(func(t *testing.T, body []byte, html bool) {
		const limit = 1 << 20
		if out, ok := gunzipped(body, limit); ok {
			if len(out) > limit {
				t.Fatalf("gunzipped %d bytes past the %d limit", len(out), limit)
			}
			body = out
		}
		kind, doc := readSitemap(body, html)
		switch kind {
		case "":
			if len(doc.URLs) != 0 || len(doc.Sitemaps) != 0 {
				t.Fatalf("no kind but %d urls and %d sitemaps", len(doc.URLs), len(doc.Sitemaps))
			}
		case "urlset", "sitemapindex":
		case "text":
			if html || len(doc.URLs) == 0 || len(doc.Sitemaps) != 0 {
				t.Fatalf("text sitemap: html %v, %d urls, %d sitemaps", html, len(doc.URLs), len(doc.Sitemaps))
			}
			for _, u := range doc.URLs {
				if !strings.HasPrefix(u.Loc, "http://") && !strings.HasPrefix(u.Loc, "https://") || strings.ContainsAny(u.Loc, "\r\n") {
					t.Fatalf("text sitemap entry %q", u.Loc)
				}
			}
		default:
			t.Fatalf("unknown kind %q", kind)
		}
	})
}

// FuzzResolveSitemap: a Sitemap: value either is no URL or resolves to an
// http(s) URL; one the audit would read has a host.
func FuzzResolveSitemap(f *testing.F) {
	for _, s := range []string{
		"https://www.example.com/sitemap_index.xml", "/sitemap.xml", "sitemap.xml", "//cdn.example.com/sitemap.xml",
		"www.example.com/sitemap.xml", "example.com:8443/s.xml", "ftp://example.com/s.xml", "javascript:alert(1)",
		" https://example.com/a b.xml ", "https://example.com/%zz", "http://[::1]/s.xml", "",
	} {
		f.Add(s)
	}
	base, err := url.Parse("https://example.com/robots.txt")
	if err != nil {
		f.Fatal(err)
	}
	origin := &url.URL{Scheme: "https", Host: "example.com"}
	f.Fuzz(func(t *testing.T, v string) {
		u := resolveSitemap(base, v)
		if u == nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("%q resolved to %q", v, u)
		}
		if sitemapOnSite(u, origin) && u.Host == "" {
			t.Fatalf("%q resolved to %q without a host", v, u)
		}
	})
}
