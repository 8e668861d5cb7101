package crawl

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// refs is what the crawl reads of an HTML page for itself: its links,
// its rel=canonical and rel=sitemap targets, and whether a robots meta
// tag forbids following its links. It is read with the HTML tokenizer,
// without building the document tree: the crawl needs a fraction of what
// page.Parse computes, and a visitor that wants the whole parse asks for
// it (Page.HTML).
type refs struct {
	links      []string // absolute, in document order, each href once
	canonicals []string
	sitemaps   []string
	nofollow   bool
	// over counts the links past the cap.
	over int
}

// readRefs reads body (a 2xx HTML page fetched from pageURL), keeping at
// most maxLinks hrefs. Relative URLs resolve against the first
// <base href> (http or https), as browsers do, else pageURL.
func readRefs(body []byte, pageURL *url.URL, maxLinks int) refs {
	var out refs
	var raw, rawCanon, rawSitemap []string
	var base *url.URL
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tagName, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		tag := string(tagName)
		if tag != "a" && tag != "base" && tag != "link" && tag != "meta" {
			continue
		}
		// The first of each attribute counts, as in the HTML parser.
		var href, rel, name, content string
		var hasHref bool
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch string(k) {
			case "href":
				if !hasHref {
					href, hasHref = string(v), true
				}
			case "rel":
				if rel == "" {
					rel = string(v)
				}
			case "name":
				if name == "" {
					name = string(v)
				}
			case "content":
				if content == "" {
					content = string(v)
				}
			}
		}
		switch tag {
		case "a":
			if hasHref {
				if len(raw) >= maxLinks {
					out.over++
					continue
				}
				raw = append(raw, href)
			}
		case "base":
			if hasHref && base == nil && pageURL != nil {
				if ref, err := url.Parse(strings.TrimSpace(href)); err == nil {
					if b := pageURL.ResolveReference(ref); b.Scheme == "http" || b.Scheme == "https" {
						base = b
					}
				}
			}
		case "link":
			for _, r := range strings.Fields(strings.ToLower(rel)) {
				switch r {
				case "canonical":
					rawCanon = append(rawCanon, href)
				case "sitemap":
					if strings.TrimSpace(href) != "" {
						rawSitemap = append(rawSitemap, href)
					}
				}
			}
		case "meta":
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "robots" || name == strings.ToLower(Token) {
				for _, d := range strings.Split(strings.ToLower(content), ",") {
					if d = strings.TrimSpace(d); d == "nofollow" || d == "none" {
						out.nofollow = true
					}
				}
			}
		}
	}
	if base == nil {
		base = pageURL
	}
	resolve := func(hrefs []string) []string {
		out := make([]string, 0, len(hrefs))
		seen := make(map[string]bool, len(hrefs))
		for _, h := range hrefs {
			h = strings.TrimSpace(h)
			if h == "" || strings.HasPrefix(h, "#") || seen[h] {
				continue
			}
			seen[h] = true
			ref, err := url.Parse(h)
			if err != nil {
				continue
			}
			if base != nil {
				ref = base.ResolveReference(ref)
			}
			out = append(out, ref.String())
		}
		return out
	}
	out.links = resolve(raw)
	out.canonicals = resolve(rawCanon)
	out.sitemaps = resolve(rawSitemap)
	return out
}
