package testsite

import (
	"net/http"
	"strings"
)

// Tidewater Wiki is a local-history wiki on MediaWiki: the generator tag,
// ResourceLoader assets under /w/load.php and the Vector skin's markup are
// its own, while its articles cite other sites' WordPress uploads
// (/wp-content/uploads/… PDFs) and show photographs hot-linked from a
// museum's Drupal site (/sites/default/files/…). Those URLs belong to
// other sites and say nothing about what this one runs on. The root
// redirects to /wiki/Main_Page, and the sitemap index robots.txt lists
// sits where MediaWiki's generator writes it.

func newWiki(e *env) *fixture {
	k := newKit(e, Wiki, true, func(h http.Header) {
		h.Set("Server", "nginx/1.22.1")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Language", "en")
		h.Set("Vary", "Accept-Encoding, Cookie")
		h.Set("Cache-Control", "private, s-maxage=0, max-age=0, must-revalidate")
		h.Set("Strict-Transport-Security", "max-age=31536000")
	})
	page := func(path, body, title string, ns string, nsNumber, id, mod int) *webPage {
		name := strings.TrimPrefix(path, "/wiki/")
		return &webPage{
			Path: path, Body: body, Title: title, Published: 2000, Modified: mod,
			Data: map[string]any{"page": name, "ns": ns, "nsNumber": nsNumber, "id": id, "rev": 40000 + id*7},
		}
	}
	pages := []*webPage{
		page("/wiki/Main_Page", "main.html", "Main Page", "", 0, 1, 3),
		page("/wiki/Harbour_Lighthouse", "article.html", "Harbour Lighthouse", "", 0, 212, 45),
		page("/wiki/Tidewater_Wiki:About", "about.html", "Tidewater Wiki:About", "Project", 4, 5, 300),
		page("/wiki/Tidewater_Wiki:Contact_us", "contact.html", "Tidewater Wiki:Contact us", "Project", 4, 6, 300),
		page("/wiki/Tidewater_Wiki:Privacy_policy", "privacy.html", "Tidewater Wiki:Privacy policy", "Project", 4, 7, 500),
		page("/wiki/Tidewater_Wiki:Terms_of_use", "terms.html", "Tidewater Wiki:Terms of use", "Project", 4, 8, 500),
	}
	byPath := map[string]*webPage{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path := r.URL.Path
		if p, ok := byPath[path]; ok {
			k.page(w, r, p)
			return
		}
		switch path {
		case "/":
			redirect(w, k.origin+"/wiki/Main_Page", http.StatusMovedPermanently)
			return
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(700), nil)
			return
		case "/sitemap/sitemap-index-tidewiki.xml":
			children := []smURL{{loc: k.origin + "/sitemap/sitemap-tidewiki-NS_0-0.xml", lastmod: ago(3)}}
			k.sendXML(w, r, "application/xml; charset=utf-8", sitemapIndex(children, ""), ago(3))
			return
		case "/sitemap/sitemap-tidewiki-NS_0-0.xml":
			var urls []smURL
			for _, p := range pages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			k.sendXML(w, r, "application/xml; charset=utf-8", urlset(urls, ""), newest(urls))
			return
		case "/w/load.php":
			// ResourceLoader answers styles or scripts by query.
			d := doc{status: http.StatusOK, modified: ago(30), cache: "public, max-age=300, s-maxage=300"}
			if r.URL.Query().Get("only") == "styles" {
				d.ctype, d.body = "text/css; charset=utf-8", []byte(".mw-body{padding:1.25em 1.5em}.mw-parser-output a.external{background-position:center right}\n")
			} else {
				d.ctype, d.body = "text/javascript; charset=utf-8", []byte("(function(){var RLQ=window.RLQ||[];window.mw={loader:{impl:function(){}}};})();\n")
			}
			k.send(w, r, d)
			return
		}
		if k.asset(w, r, "/w/resources/", "/favicon") {
			return
		}
		k.send(w, r, doc{status: http.StatusNotFound, ctype: "text/html; charset=UTF-8", body: []byte(wikiNotFound)})
	}
	return &fixture{name: Wiki, host: k.host, serve: serve}
}

const wikiNotFound = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Not found - Tidewater Wiki</title></head>
<body><h1>Not Found</h1><p>The requested page title is empty or contains invalid characters.</p><p><a href="/wiki/Main_Page">Return to the main page</a>.</p></body></html>
`
