package testsite

import (
	"net/http"
	"strings"
)

// Millbrook Bakery is a bakery café's Eleventy site with tidy metadata and
// structured data whose sitemap lives only at the default location:
// /sitemap.xml answers, but robots.txt has no Sitemap: line and no page
// links to it. Crawlers that try the default path find it; an auditor that
// only reads robots.txt does not.

func newBakery(e *env) *fixture {
	k := newKit(e, Bakery, true, func(h http.Header) {
		h.Set("Server", "Netlify")
		h.Set("Strict-Transport-Security", "max-age=31536000")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	})
	org := func(v *view) obj {
		return obj{
			"@context":  "https://schema.org",
			"@type":     "Bakery",
			"@id":       v.Abs("/#bakery"),
			"name":      "Millbrook Bakery",
			"url":       v.Abs("/"),
			"logo":      v.Abs("/img/logo.png"),
			"image":     v.Abs("/img/millbrook-bakery-window.jpg"),
			"telephone": "+44 1422 845210",
			"email":     "hello@millbrook-bakery.test",
			"address": obj{
				"@type": "PostalAddress", "streetAddress": "18 Mill Lane", "addressLocality": "Hebden Bridge",
				"postalCode": "HX7 8AB", "addressCountry": "GB",
			},
			"openingHours": []string{"Tu-Sa 08:00-16:00", "Su 09:00-14:00"},
			"priceRange":   "££",
		}
	}
	home := &webPage{
		Path: "/", Body: "home.html", Published: 1400, Modified: 12,
		Title:       "Millbrook Bakery – Sourdough and café in Hebden Bridge",
		Description: "Naturally leavened bread baked every morning, pastries and Yorkshire-roasted coffee on Mill Lane, Hebden Bridge. Open Tuesday to Sunday.",
		Schema: func(v *view) any {
			return []any{obj{"@context": "https://schema.org", "@type": "WebSite", "@id": v.Abs("/#website"), "name": "Millbrook Bakery", "url": v.Abs("/"), "publisher": obj{"@id": v.Abs("/#bakery")}}, org(v)}
		},
	}
	journal := &webPage{
		Path: "/journal/sourdough-starter-guide/", Body: "article.html", Published: 90, Modified: 30, OGType: "article",
		Title:       "How to keep a sourdough starter alive | Millbrook Bakery",
		Description: "Our head baker's guide to feeding a sourdough starter, telling when it is ready to bake with, and rescuing one that smells of acetone.",
		Schema: func(v *view) any {
			return obj{
				"@context": "https://schema.org", "@type": "Article", "headline": "How to keep a sourdough starter alive",
				"datePublished": v.Pub().Format("2006-01-02T15:04:05Z07:00"), "dateModified": v.Mod().Format("2006-01-02T15:04:05Z07:00"),
				"author":    obj{"@type": "Person", "name": "Priya Shah", "url": v.Abs("/about/")},
				"publisher": obj{"@id": v.Abs("/#bakery")}, "image": v.Abs("/img/millbrook-bakery-window.jpg"), "mainEntityOfPage": v.URL(),
			}
		},
	}
	simple := func(path, body, title, desc string, mod int) *webPage {
		return &webPage{Path: path, Body: body, Title: title, Description: desc, Published: 1400, Modified: mod}
	}
	pages := []*webPage{
		home, journal,
		simple("/menu/", "menu.html", "Menu and prices | Millbrook Bakery", "Our breads, pastries and café menu with prices, and what to know about allergens in our bakery on Mill Lane, Hebden Bridge.", 20),
		simple("/about/", "about.html", "About us | Millbrook Bakery", "Priya Shah and Tom Ellison opened Millbrook Bakery in 2016 in the old ironmonger's shop on Mill Lane; today a team of nine bakes and serves.", 200),
		simple("/contact/", "contact.html", "Contact and directions | Millbrook Bakery", "Find Millbrook Bakery at 18 Mill Lane, Hebden Bridge HX7 8AB, call 01422 845210 or email us to reserve bread or book a class.", 200),
		simple("/privacy/", "privacy.html", "Privacy notice | Millbrook Bakery", "Millbrook Bakery sets no cookies; this notice explains the little personal data we keep for bread reservations and baking classes.", 400),
		simple("/terms/", "terms.html", "Terms | Millbrook Bakery", "Terms for bread reservations and baking class bookings at Millbrook Bakery in Hebden Bridge.", 400),
	}
	byPath := map[string]*webPage{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	notFound := &webPage{Path: "/404.html", Body: "404.html", Status: http.StatusNotFound, Title: "Page not found | Millbrook Bakery", Description: "This page does not exist."}
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
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(600), nil)
			return
		case "/sitemap.xml":
			var urls []smURL
			for _, p := range pages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			k.sendXML(w, r, "application/xml", urlset(urls, ""), newest(urls))
			return
		}
		if k.asset(w, r, "/img/", "/css/", "/favicon") {
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/") {
			if _, ok := byPath[r.URL.Path+"/"]; ok {
				redirect(w, k.origin+r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
		}
		k.page(w, r, notFound)
	}
	return &fixture{name: Bakery, host: k.host, serve: serve}
}
