package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"io"
	"net/url"
	"strings"

	"github.com/jimsmart/grobotstxt"
	"golang.org/x/net/publicsuffix"
)

// SitemapSource says where the location of a sitemap came from.
type SitemapSource string

// The sources of sitemap locations, in the order they are consulted.
const (
	// SitemapFromRobots is a Sitemap: line of robots.txt; a relative or
	// scheme-less value is resolved against the URL of robots.txt.
	SitemapFromRobots SitemapSource = "robots_txt"
	// SitemapFromDefault is /sitemap.xml or /sitemap_index.xml, requested
	// because robots.txt led to no readable sitemap.
	SitemapFromDefault SitemapSource = "default_location"
	// SitemapFromLink is a <link rel="sitemap"> of the homepage, requested
	// when neither of the above gave a readable sitemap.
	SitemapFromLink SitemapSource = "link_rel_sitemap"
	// SitemapFromIndex is a <sitemap> entry of a sitemap index.
	SitemapFromIndex SitemapSource = "sitemap_index"
)

// SitemapFetch is one sitemap file requested.
type SitemapFetch struct {
	Response *Response
	Source   SitemapSource
	// Listed is the location as its source wrote it ("/sitemap.xml" in a
	// robots.txt line, say); Response.URL is the resolved URL.
	Listed string
	// Parent is the URL of the sitemap index that named this file.
	Parent string
	// Kind is what the file turned out to be: "urlset", "sitemapindex",
	// "text" (a list of URLs), or "" when it was not a readable sitemap.
	Kind string
	// Entries counts the <url> entries of a urlset, the <sitemap> entries
	// of an index, or the lines of a text sitemap.
	Entries int
	// Gzip is set when the file was gzip data served without
	// Content-Encoding (a .xml.gz); it was decompressed to be read.
	Gzip bool
}

// SitemapSkip is a sitemap location that was found but not requested.
type SitemapSkip struct {
	Source SitemapSource
	Listed string
	URL    string // resolved, "" when the value is no URL
	// Reason is "other_site" (a host outside the audited site's domain),
	// "not_a_url", or "file_limit" (MaxSitemapFiles was reached).
	Reason string
}

// The default locations, in the order crawlers guess them.
var sitemapDefaults = []string{"/sitemap.xml", "/sitemap_index.xml"}

type sitemapEntry struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
}

type sitemapDoc struct {
	XMLName  xml.Name
	URLs     []sitemapEntry `xml:"url"`
	Sitemaps []sitemapEntry `xml:"sitemap"`
}

// sitemapItem is a location waiting to be fetched.
type sitemapItem struct {
	url, listed, parent string
	source              SitemapSource
	depth               int
}

// sitemaps reads the site's sitemaps: every Sitemap: line of robots.txt
// and the indexes they lead to; when none of that yields a readable
// sitemap, /sitemap.xml and then /sitemap_index.xml; when still none, the
// homepage's <link rel="sitemap">. Every URL is built with
// url.ResolveReference.
func (c *crawl) sitemaps(ctx context.Context, origin *url.URL) {
	site := c.site
	var queue []sitemapItem
	if site.Robots.OK() {
		base, err := url.Parse(site.Robots.FinalURL)
		if err != nil || base.Host == "" {
			base = origin.ResolveReference(&url.URL{Path: "/robots.txt"})
		}
		for _, v := range grobotstxt.Sitemaps(string(site.Robots.Body)) {
			queue = c.enqueue(queue, origin, sitemapItem{listed: v, source: SitemapFromRobots}, resolveSitemap(base, v))
		}
	}
	seen := map[string]bool{}
	readable := c.drain(ctx, origin, queue, seen)

	if !readable {
		for _, p := range sitemapDefaults {
			u := origin.ResolveReference(&url.URL{Path: p})
			if seen[u.String()] {
				continue
			}
			site.SitemapDefaultsTried = append(site.SitemapDefaultsTried, u.String())
			// A default location is always tried, whatever the file limit.
			if c.drain(ctx, origin, []sitemapItem{{url: u.String(), listed: p, source: SitemapFromDefault}}, seen) {
				readable = true
				break
			}
		}
	}
	if !readable && site.HomePage != nil {
		for _, href := range site.HomePage.SitemapLinks {
			u, err := url.Parse(href)
			if err != nil || seen[u.String()] {
				continue
			}
			if !sitemapOnSite(u, origin) {
				site.SitemapSkipped = append(site.SitemapSkipped, SitemapSkip{Source: SitemapFromLink, Listed: href, URL: u.String(), Reason: "other_site"})
				continue
			}
			site.SitemapLinksTried = append(site.SitemapLinksTried, u.String())
			if c.drain(ctx, origin, []sitemapItem{{url: u.String(), listed: href, source: SitemapFromLink}}, seen) {
				break
			}
		}
	}
}

// enqueue adds a resolved location, or records why it is skipped.
func (c *crawl) enqueue(queue []sitemapItem, origin *url.URL, it sitemapItem, u *url.URL) []sitemapItem {
	switch {
	case u == nil:
		c.site.SitemapSkipped = append(c.site.SitemapSkipped, SitemapSkip{Source: it.source, Listed: it.listed, Reason: "not_a_url"})
		return queue
	case !sitemapOnSite(u, origin):
		c.site.SitemapSkipped = append(c.site.SitemapSkipped, SitemapSkip{Source: it.source, Listed: it.listed, URL: u.String(), Reason: "other_site"})
		return queue
	}
	it.url = u.String()
	return append(queue, it)
}

// drain fetches the queued locations and the index entries they lead to,
// breadth first, and reports whether any file was a readable sitemap. The
// first item is always fetched; the others count against MaxSitemapFiles.
func (c *crawl) drain(ctx context.Context, origin *url.URL, items []sitemapItem, seen map[string]bool) bool {
	site := c.site
	readable := false
	first := true
	for len(items) > 0 {
		it := items[0]
		items = items[1:]
		if seen[it.url] {
			continue
		}
		if !first && len(site.Sitemaps) >= c.f.opts.MaxSitemapFiles {
			site.SitemapSkipped = append(site.SitemapSkipped, SitemapSkip{Source: it.source, Listed: it.listed, URL: it.url, Reason: "file_limit"})
			continue
		}
		first = false
		seen[it.url] = true
		r := c.do(ctx, Request{Purpose: Sitemap, URL: it.url, Accept: "application/xml,text/xml,*/*;q=0.5"})
		fetched := SitemapFetch{Response: r, Source: it.source, Listed: it.listed, Parent: it.parent}
		doc := fetched.read(c.f.opts.MaxBodyBytes)
		site.Sitemaps = append(site.Sitemaps, r)
		site.SitemapFetches = append(site.SitemapFetches, fetched)
		if fetched.Kind == "" {
			continue
		}
		readable = true
		base, _ := url.Parse(r.FinalURL)
		for _, u := range doc.URLs {
			site.SitemapTotal++
			if len(site.SitemapURLs) < maxKeptSitemapURLs && site.SitemapTotal <= c.f.opts.MaxSitemapURLs {
				site.SitemapURLs = append(site.SitemapURLs, SitemapURL{Loc: strings.TrimSpace(u.Loc), LastMod: strings.TrimSpace(u.LastMod)})
			}
		}
		if it.depth+1 > c.f.opts.MaxSitemapDepth {
			continue
		}
		for _, s := range doc.Sitemaps {
			loc := strings.TrimSpace(s.Loc)
			child := sitemapItem{listed: loc, parent: r.URL, source: SitemapFromIndex, depth: it.depth + 1}
			var cu *url.URL
			if ref, err := url.Parse(loc); err == nil && loc != "" && base != nil {
				cu = base.ResolveReference(ref)
			}
			items = c.enqueue(items, origin, child, cu)
		}
	}
	return readable
}

// ReadSitemap reads a fetched sitemap file as a crawl does (its Kind,
// Entries and Gzip), for a location found at source: tests and tools that
// build a Site by hand get what a fetch would record.
func ReadSitemap(r *Response, source SitemapSource, listed, parent string) SitemapFetch {
	f := SitemapFetch{Response: r, Source: source, Listed: listed, Parent: parent}
	f.read(Options{}.withDefaults().MaxBodyBytes)
	return f
}

// read sets Kind, Entries and Gzip from the response and returns the
// parsed document.
func (f *SitemapFetch) read(limit int64) sitemapDoc {
	r := f.Response
	if !r.OK() {
		return sitemapDoc{}
	}
	body := r.Body
	if plain, ok := gunzipped(body, limit); ok {
		// The fetch decoded the compressed bytes' charset, not the XML's.
		body, _ = decodeBody(plain, "application/xml", Sitemap)
		f.Gzip = true
	}
	var doc sitemapDoc
	f.Kind, doc = readSitemap(body, r.IsHTML())
	f.Entries = len(doc.URLs) + len(doc.Sitemaps)
	return doc
}

// maxSitemapDepth bounds how deep a sitemap's elements may nest: the
// protocol and its extensions nest five deep, and decoding a file nested a
// million deep would cost a stack entry per level.
const maxSitemapDepth = 32

// tooDeep reports whether XML elements in body nest deeper than max, read
// with RawToken, which keeps no stack of open elements.
func tooDeep(body []byte, maxDepth int) bool {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	dec.Strict = false
	depth := 0
	for {
		tok, err := dec.RawToken()
		if err != nil {
			return false
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return true
			}
		case xml.EndElement:
			depth--
		}
	}
}

// readSitemap parses a sitemap file: XML urlset or sitemapindex, or the
// protocol's plain-text form (one absolute URL per line).
func readSitemap(body []byte, html bool) (string, sitemapDoc) {
	var doc sitemapDoc
	if tooDeep(body, maxSitemapDepth) {
		return "", sitemapDoc{}
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	// Bodies are UTF-8 already (see decodeBody), whatever the declaration.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	if err := dec.Decode(&doc); err == nil {
		switch doc.XMLName.Local {
		case "urlset", "sitemapindex":
			return doc.XMLName.Local, doc
		}
		return "", sitemapDoc{}
	}
	if html {
		return "", sitemapDoc{}
	}
	var urls []sitemapEntry
	// Lines end with LF, CRLF or a bare CR; blank lines are skipped.
	lines := strings.FieldsFunc(string(body), func(r rune) bool { return r == '\n' || r == '\r' })
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "http://") && !strings.HasPrefix(line, "https://") {
			return "", sitemapDoc{}
		}
		urls = append(urls, sitemapEntry{Loc: line})
	}
	if len(urls) == 0 {
		return "", sitemapDoc{}
	}
	return "text", sitemapDoc{URLs: urls}
}

// gunzipped decompresses gzip data (a .xml.gz served without
// Content-Encoding), within the body size limit.
func gunzipped(b []byte, limit int64) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return nil, false
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit))
	if err != nil && len(out) == 0 {
		return nil, false
	}
	return out, true
}

// resolveSitemap turns a Sitemap: value into a URL. Absolute URLs stay as
// they are; "//host/x" and "/x" or "x" resolve against robots.txt's URL;
// a value that starts with a host name ("www.example.com/sitemap.xml")
// takes robots.txt's scheme. nil means the value is no URL.
func resolveSitemap(base *url.URL, v string) *url.URL {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	ref, err := url.Parse(v)
	if err != nil {
		return nil
	}
	if ref.Scheme == "" && ref.Host == "" && !strings.HasPrefix(v, "/") {
		first, _, _ := strings.Cut(ref.Path, "/")
		if looksLikeHost(first) {
			if ref, err = url.Parse("//" + v); err != nil {
				return nil
			}
		}
	}
	if ref.Scheme != "" && ref.Scheme != "http" && ref.Scheme != "https" {
		return nil
	}
	return base.ResolveReference(ref)
}

// looksLikeHost reports a name that ends in a public suffix, like
// "www.example.com", and not a file name like "sitemap.xml".
func looksLikeHost(s string) bool {
	h := s
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	if !strings.Contains(h, ".") {
		return false
	}
	suffix, icann := publicsuffix.PublicSuffix(strings.ToLower(h))
	return icann && suffix != strings.ToLower(h)
}

// sitemapOnSite reports a sitemap URL the audit may read: http or https,
// on the audited host or another host of the same registrable domain
// (www, a sitemaps subdomain). A sitemap listed on another site is not the
// site's own.
func sitemapOnSite(u *url.URL, origin *url.URL) bool {
	if u == nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return false
	}
	a, b := strings.ToLower(u.Hostname()), strings.ToLower(origin.Hostname())
	if strings.TrimPrefix(a, "www.") == strings.TrimPrefix(b, "www.") {
		return true
	}
	da, errA := publicsuffix.EffectiveTLDPlusOne(a)
	db, errB := publicsuffix.EffectiveTLDPlusOne(b)
	return errA == nil && errB == nil && da == db
}
