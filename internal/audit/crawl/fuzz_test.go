package crawl

import (
	"net/url"
	"strings"
	"testing"
)

// Bad input never panics: URLs, sitemap bodies and HTML from sites are
// data of any shape.

func FuzzCanonicalizeAndTemplate(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a?b=1&utm_source=x#f", "../x/./y", "//other.test/p", "https://[::1]:443/", "http://a:80",
		"https://example.com/%zz", "https://example.com/2024/05/12/a-b.html?x=%ZZ&&=", "/a/b/a/b/a/b", "\x00", "https://example.com/" + strings.Repeat("9", 40),
	} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.com/dir/page")
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Canonicalize(base, raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Fragment != "" {
			t.Fatalf("%q canonicalized to %q", raw, u)
		}
		// Canonical forms are fixed points.
		again, err := Canonicalize(nil, u.String())
		if err != nil || again.String() != u.String() {
			t.Fatalf("%q → %q → %v %v", raw, u, again, err)
		}
		if tmpl := Template(u); !strings.HasPrefix(tmpl, "/") {
			t.Fatalf("template %q of %q", tmpl, u)
		}
		_ = refusal(u, 12)
	})
}

func FuzzSitemapReader(f *testing.F) {
	f.Add([]byte(urlset("https://example.com/a", "https://example.com/b")), false)
	f.Add([]byte(sitemapIndex("https://example.com/s.xml")), true)
	f.Add([]byte("https://example.com/1\nhttps://example.com/2\n"), false)
	f.Add([]byte("https://example.com/1\rhttps://example.com/2\r\n"), false)
	f.Add([]byte("\x1f\x8b\x08\x00garbage"), false)
	f.Add([]byte("<urlset><url><loc>x</loc></url><url><loc>"), true)
	f.Fuzz(func(_ *testing.T, body []byte, truncated bool) {
		var file SitemapFile
		sitemapReader{limit: 1 << 20, each: func(string) {}}.read(&file, body, truncated)
	})
}

func FuzzReadRefs(f *testing.F) {
	f.Add([]byte(`<base href="/b/"><a href="x">x</a><link rel="canonical sitemap" href="/c"><meta name=robots content=nofollow>`))
	f.Add([]byte("<a href=\"\xff\x00\">"))
	page, _ := url.Parse("https://example.com/p")
	f.Fuzz(func(t *testing.T, body []byte) {
		r := readRefs(body, page, 50)
		if len(r.links) > 50 {
			t.Fatalf("%d links past the cap", len(r.links))
		}
	})
}
