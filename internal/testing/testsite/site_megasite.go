package testsite

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
)

// Northwind Outfitters is the fixture for whole-site crawls: an outdoor
// gear shop of some five hundred pages on a dozen templates, shaped like a
// real site rather than like a homepage. Its robots.txt names a sitemap
// index whose four children (one gzipped) list most pages but not all: the
// later pages of listings, the newest posts, a few products and the
// partner pages are reachable only by links. It carries the traps a
// crawler must survive: an events calendar that links the next month
// forever, category filters whose colour and size values combine without
// end, internal links that differ only in tracking parameters, an archive
// that answers slowly, and a section that robots.txt closes to GeoScan
// alone. Structured data is right on most pages and wrong on a known few,
// and the docs template points every guide's canonical at its section.
// MegasitePages is the ground truth a crawl is checked against.
// StartWith's Options.MegasitePages serves a larger shop on the same
// templates, thousands of pages with its sitemaps split into several files
// (MegasitePagesOf is its ground truth), for benchmarks of whole-site
// audits.

// Paths and parameters of the megasite that crawler tests reason about.
const (
	// MegasiteSitemapIndex is the sitemap index robots.txt names.
	MegasiteSitemapIndex = "/sitemap_index.xml"
	// MegasiteDisallowedPrefix is the section robots.txt disallows for the
	// GeoScan user agent only; its pages exist and the footer links them.
	MegasiteDisallowedPrefix = "/private/"
	// MegasiteSlowPrefix is the section that answers every request only
	// after MegasiteSlowDelay.
	MegasiteSlowPrefix = "/archive/"
	// MegasiteSlowDelay is how long the slow section waits.
	MegasiteSlowDelay = 300 * time.Millisecond
)

// MegasiteTrackingParams are the query parameters the site's own links add
// for analytics. The site ignores them: a URL with them serves the same
// bytes as the URL without.
func MegasiteTrackingParams() []string {
	return []string{"utm_source", "utm_medium", "utm_campaign", "gclid"}
}

// MegasiteTrap is a family of URLs that never runs out.
type MegasiteTrap struct {
	Name string
	// Prefix is the path the trap's URLs start with.
	Prefix string
	// Params are the query parameters that make a URL under Prefix part of
	// the trap; with none, every URL under Prefix is.
	Params []string
}

// Matches reports whether a URL belongs to the trap.
func (t MegasiteTrap) Matches(u *url.URL) bool {
	if !strings.HasPrefix(u.Path, t.Prefix) {
		return false
	}
	if len(t.Params) == 0 {
		return true
	}
	q := u.Query()
	for _, p := range t.Params {
		if q.Has(p) {
			return true
		}
	}
	return false
}

// MegasiteTraps are the calendar, whose every month links the next one,
// and the category filters, whose every page links further combinations
// (values keep the order they were picked in, so a handful of colours and
// sizes makes hundreds of thousands of URLs).
func MegasiteTraps() []MegasiteTrap {
	return []MegasiteTrap{
		{Name: "calendar", Prefix: megaCalendarPath},
		{Name: "facets", Prefix: "/c/", Params: []string{"color", "size"}},
	}
}

// MegasiteJSONLD says what a page's structured data is like.
type MegasiteJSONLD string

// The states of a megasite page's structured data.
const (
	// MegasiteJSONLDValid pages carry JSON-LD that parses, with the
	// page's Schema as the @type of its first node.
	MegasiteJSONLDValid MegasiteJSONLD = "valid"
	// MegasiteJSONLDMissing pages have no application/ld+json script.
	MegasiteJSONLDMissing MegasiteJSONLD = "missing"
	// MegasiteJSONLDBroken pages have one whose JSON does not parse.
	MegasiteJSONLDBroken MegasiteJSONLD = "broken"
)

// MegasitePage is one page of the megasite as a crawl should find it.
type MegasitePage struct {
	// Path is the page's path, with ?page=N on the later pages of a
	// listing: the URL a crawler keeps once tracking parameters are gone.
	Path string
	// Template is one of home, page, blog, post, category, product, docs,
	// docs-section, doc, events, archive and private.
	Template string
	Title    string
	// Description is the meta description, empty where there is none.
	Description string
	// Canonical is the path rel=canonical names: Path, except on doc
	// pages, whose template wrongly names the section index.
	Canonical string
	// Schema is the @type the page's JSON-LD was meant to have, empty for
	// templates without structured data.
	Schema string
	JSONLD MegasiteJSONLD
	// InSitemap is whether a child of the sitemap index lists the page.
	InSitemap bool
	// Disallowed is whether robots.txt closes the page to GeoScan.
	Disallowed bool
	// Slow is whether the page answers only after MegasiteSlowDelay.
	Slow bool
}

// LinkOnly reports whether only links lead to the page.
func (p MegasitePage) LinkOnly() bool { return !p.InSitemap }

// MegasitePages lists every page in a stable order: home, the about,
// contact and help pages, the journal and its posts, categories and
// products, docs, events, the archive and the partner pages. Paths of
// posts and archive years follow the current UTC day, like the fixture.
func MegasitePages() []MegasitePage { return MegasitePagesOf(0) }

// MegasitePagesOf lists the pages of the megasite served with
// Options.MegasitePages set to pages: the default site when pages is at
// most its size, else the smallest site on the same templates with at
// least that many pages (more product ranges, more posts, and their
// listings' pages).
func MegasitePagesOf(pages int) []MegasitePage {
	m := buildMegasite(megaSizeFor(pages))
	out := make([]MegasitePage, len(m.pages))
	for i, p := range m.pages {
		out[i] = p.MegasitePage
	}
	return out
}

// MegasiteTemplate is a template and how many pages it renders.
type MegasiteTemplate struct {
	Name  string
	Pages int
}

// MegasiteTemplates lists the templates in the order MegasitePages first
// uses them.
func MegasiteTemplates() []MegasiteTemplate {
	var out []MegasiteTemplate
	at := map[string]int{}
	for _, p := range MegasitePages() {
		i, ok := at[p.Template]
		if !ok {
			i = len(out)
			at[p.Template] = i
			out = append(out, MegasiteTemplate{Name: p.Template})
		}
		out[i].Pages++
	}
	return out
}

// megasiteTemplates parses the megasite's templates once per process.
var megasiteTemplates = sync.OnceValues(func() (*template.Template, error) {
	set := template.New(Megasite).Option("missingkey=error").Funcs(template.FuncMap{
		"ago":  ago,
		"iso":  func(t time.Time) string { return t.Format("2006-01-02T15:04:05+00:00") },
		"ymd":  func(t time.Time) string { return t.Format("2006-01-02") },
		"long": func(t time.Time) string { return t.Format("2 January 2006") },
	})
	if _, err := set.ParseFS(siteFiles, "sites/"+Megasite+"/*"); err != nil {
		return nil, fmt.Errorf("testsite: templates of %s: %w", Megasite, err)
	}
	return set, nil
})

// sitemap is one child of the sitemap index: part (0-based) of the
// pages of a kind.
func (m *megasite) sitemap(origin, tmpl string, part int) []smURL {
	var urls []smURL
	n := 0
	for _, p := range m.pages {
		if !p.InSitemap || megaSitemapOf(p.Template) != tmpl {
			continue
		}
		n++
		if (n-1)/megaSitemapURLs != part {
			continue
		}
		u := smURL{loc: origin + p.Path, lastmod: ago(p.web.Modified)}
		if p.Template == "product" {
			u.images = []string{origin + p.web.Image}
		}
		urls = append(urls, u)
	}
	return urls
}

// megaSitemapOf names the child sitemap that lists a template's pages.
func megaSitemapOf(tmpl string) string {
	switch tmpl {
	case "post", "product", "doc":
		return tmpl
	}
	return "page"
}

// megaSitemapURLs is the most URLs one child sitemap lists (the protocol
// allows 50 000): a larger site's posts and products are split over
// several files, the first keeping the default site's name.
const megaSitemapURLs = 1000

// megaSitemapFile is one child of the sitemap index.
type megaSitemapFile struct {
	path, of string
	part     int
}

// sitemapFiles are the children of the sitemap index, in order: pages,
// posts, products (gzipped) and docs, each kind in as many parts as its
// pages need (/sitemaps/products.xml.gz, /sitemaps/products-2.xml.gz, …).
func (m *megasite) sitemapFiles() []megaSitemapFile {
	count := map[string]int{}
	for _, p := range m.pages {
		if p.InSitemap {
			count[megaSitemapOf(p.Template)]++
		}
	}
	var out []megaSitemapFile
	for _, k := range []struct{ name, of, ext string }{
		{"pages", "page", ".xml"}, {"posts", "post", ".xml"}, {"products", "product", ".xml.gz"}, {"docs", "doc", ".xml"},
	} {
		for part := 0; part == 0 || part*megaSitemapURLs < count[k.of]; part++ {
			path := "/sitemaps/" + k.name + k.ext
			if part > 0 {
				path = "/sitemaps/" + k.name + "-" + strconv.Itoa(part+1) + k.ext
			}
			out = append(out, megaSitemapFile{path: path, of: k.of, part: part})
		}
	}
	return out
}

func newMegasite(e *env) *fixture {
	k := newKit(e, Megasite, true, func(h http.Header) {
		h.Set("Server", "nginx")
		h.Set("Strict-Transport-Security", "max-age=31536000")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Cache-Control", "public, max-age=300")
	})
	// Start has already checked that the templates parse.
	k.tmpl, _ = megasiteTemplates()
	// The gzipped sitemap is a file, not a compressed response.
	raw := *k
	raw.gzip = false

	m := buildMegasite(megaSizeFor(e.megasitePages))
	files := m.sitemapFiles()
	for _, p := range m.pages {
		if p.JSONLD != MegasiteJSONLDBroken {
			continue
		}
		// The theme prints a comma after the last property.
		if js, err := jsonLD(p.web.Schema(k.newView(p.web))); err == nil {
			p.web.Data["brokenLD"] = strings.TrimSuffix(js, "\n}") + ",\n}"
		}
		p.web.Schema = nil
	}

	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path, q := r.URL.Path, r.URL.Query()
		if strings.HasPrefix(path, MegasiteSlowPrefix) && !sleep(r.Context(), e.done, MegasiteSlowDelay) {
			return
		}
		switch path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(45), map[string]any{"sitemap": MegasiteSitemapIndex})
			return
		case "/sitemap.xml":
			redirect(w, k.origin+MegasiteSitemapIndex, http.StatusMovedPermanently)
			return
		case MegasiteSitemapIndex:
			var children []smURL
			for _, sm := range files {
				children = append(children, smURL{loc: k.origin + sm.path, lastmod: newest(m.sitemap(k.origin, sm.of, sm.part))})
			}
			k.sendXML(w, r, "application/xml; charset=utf-8", sitemapIndex(children, ""), newest(children))
			return
		case megaCalendarPath:
			if p := m.calendarPage(q.Get("month")); p != nil {
				k.page(w, r, p)
			} else {
				k.page(w, r, m.notFound)
			}
			return
		}
		for _, sm := range files {
			if path != sm.path {
				continue
			}
			urls := m.sitemap(k.origin, sm.of, sm.part)
			body := urlset(urls, "")
			if !strings.HasSuffix(path, ".gz") {
				k.sendXML(w, r, "application/xml; charset=utf-8", body, newest(urls))
				return
			}
			var zb bytes.Buffer
			zw := gzip.NewWriter(&zb)
			if _, err := zw.Write(body); err != nil || zw.Close() != nil {
				k.fail(w, fmt.Errorf("gzip %s", path))
				return
			}
			raw.sendXML(w, r, "application/gzip", zb.Bytes(), newest(urls))
			return
		}
		if c := m.catPaths[path]; c != nil && (q.Has("color") || q.Has("size")) {
			k.page(w, r, m.facetPage(c, q))
			return
		}
		key := path
		if n := q.Get("page"); n != "" && n != "1" && m.listings[path] {
			key += "?page=" + n
		}
		if p := m.byKey[key]; p != nil {
			k.page(w, r, p.web)
			return
		}
		if k.asset(w, r, "/assets/", "/favicon") {
			return
		}
		if !strings.HasSuffix(path, "/") && m.byKey[path+"/"] != nil {
			redirect(w, k.origin+path+"/", http.StatusMovedPermanently)
			return
		}
		k.page(w, r, m.notFound)
	}
	return &fixture{name: Megasite, host: k.host, serve: serve}
}
