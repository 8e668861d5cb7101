package testsite

import (
	"net/http"
	"strings"
)

// Weingut Sonnhalde is a family winery's hand-built PHP site from the
// early 2000s, kept alive since: its pages are UTF-8 but nothing says so —
// the server sends "text/html" without a charset and no page has a
// <meta charset> — and a long inline stylesheet pushes the first non-ASCII
// text (the title, "Germany′s Frühburgunder") past the 1,024 bytes browsers
// prescan. Browsers detect UTF-8; a decoder that falls back to
// windows-1252 shows "Germanyâ€²s FrÃ¼hburgunder". Every page sets
// <base href> to the site root and links relatively ("about/"), the
// homepage's story sits in an article's own <header>, and the wine page
// carries a Disqus comment widget with its <noscript> notice.

func newWinery(e *env) *fixture {
	k := newKit(e, Winery, false, func(h http.Header) {
		h.Set("Server", "Apache/2.4.57 (Debian)")
		h.Set("X-Powered-By", "PHP/7.4.33")
	})
	k.htmlType = "text/html"
	pages := []*webPage{
		{
			Path: "/", Body: "home.html", Published: 3000, Modified: 40,
			Title:       "Germany′s Frühburgunder from the Ahr | Weingut Sonnhalde",
			Description: "Family winery in Dernau on the Ahr since 1921: Frühburgunder and Spätburgunder from steep slate terraces, organic, hand-picked.",
		},
		{
			Path: "/wines/fruehburgunder-2022/", Body: "wine.html", Published: 120, Modified: 60,
			Title:       "Frühburgunder 2022, dry – Dernauer Pfarrwingert | Weingut Sonnhalde",
			Description: "Our Frühburgunder 2022 from the Dernauer Pfarrwingert: hand-picked, wild-fermented, sixteen months in old oak. 24,50 € per bottle.",
		},
		{
			Path: "/about/", Body: "about.html", Published: 3000, Modified: 200,
			Title:       "About us – the Brück family | Weingut Sonnhalde",
			Description: "Four generations of the Brück family have farmed the slate terraces of Dernau since 1921; the estate is certified organic since 2019.",
		},
		{
			Path: "/contact/", Body: "contact.html", Published: 3000, Modified: 200,
			Title:       "Visit & contact | Weingut Sonnhalde",
			Description: "Address, telephone and opening hours of the tasting room of Weingut Sonnhalde in Dernau an der Ahr, ten minutes from the station.",
		},
		{
			Path: "/imprint/", Body: "imprint.html", Published: 3000, Modified: 400,
			Title: "Imprint | Weingut Sonnhalde", Description: "Legal notice of Weingut Sonnhalde GbR, Dernau an der Ahr.",
		},
		{
			Path: "/privacy/", Body: "privacy.html", Published: 3000, Modified: 400,
			Title: "Privacy | Weingut Sonnhalde", Description: "How Weingut Sonnhalde handles the data of visitors to this website.",
		},
	}
	byPath := map[string]*webPage{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		if p, ok := byPath[r.URL.Path]; ok {
			k.page(w, r, p)
			return
		}
		switch r.URL.Path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain", ago(900), nil)
			return
		case "/sitemap.xml":
			var urls []smURL
			for _, p := range pages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			k.sendXML(w, r, "application/xml", urlset(urls, ""), newest(urls))
			return
		}
		if k.asset(w, r, "/images/", "/css/", "/js/", "/favicon") {
			return
		}
		// Apache adds the slash a directory needs.
		if !strings.HasSuffix(r.URL.Path, "/") {
			if _, ok := byPath[r.URL.Path+"/"]; ok {
				redirect(w, k.origin+r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
		}
		k.static(w, r, http.StatusNotFound, "404.html")
	}
	return &fixture{name: Winery, host: k.host, serve: serve}
}
