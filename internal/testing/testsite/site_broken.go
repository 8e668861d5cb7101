package testsite

import (
	"net/http"
	"strings"
)

// Broken Bay Marina is the neglected small-business site: robots.txt
// answers 503 (which crawlers treat as "stay away"), the homepage asks not
// to be indexed in both a meta tag and a header, there is no sitemap, no
// structured data, no description and no security header, the content is
// about sixty words under two H1s, images lack alt text, a script and an
// image load over plain http, the about page crashes, the contact page is
// missing, unknown paths answer 200 "Page not found", and the plain-HTTP
// site never redirects to HTTPS.

func newBroken(e *env) *fixture {
	k := newKit(e, Broken, false, func(h http.Header) {
		h.Set("Server", "Apache/2.4.29 (Ubuntu)")
		h.Set("X-Powered-By", "PHP/5.6.40")
	})
	k.noValidators = true
	home := &webPage{Path: "/", Body: "home.html", Layout: "home.html"}
	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path := strings.TrimSuffix(r.URL.Path, "/")
		switch path {
		case "":
			w.Header().Set("X-Robots-Tag", "noindex")
			k.page(w, r, home)
		case "/robots.txt":
			k.static(w, r, http.StatusServiceUnavailable, "503.html")
		case "/about":
			k.static(w, r, http.StatusInternalServerError, "500.html")
		case "/contact", "/sitemap.xml", "/sitemap_index.xml":
			k.static(w, r, http.StatusNotFound, "404.html")
		default:
			if k.asset(w, r, "/images/", "/js/", "/css/") {
				return
			}
			// The CMS catches every unknown URL and renders its own
			// error text without setting the status.
			k.static(w, r, http.StatusOK, "soft404.html")
		}
	}
	// Plain HTTP serves the same site: nothing redirects to HTTPS.
	return &fixture{name: Broken, host: k.host, serve: serve, plain: serve}
}
