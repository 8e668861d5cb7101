package testsite

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

// smURL is one <url> of a sitemap.
type smURL struct {
	loc     string
	lastmod time.Time // zero leaves <lastmod> out
	// images are absolute image URLs (the image: extension Yoast and
	// Shopify both emit).
	images []string
}

// urlset renders a sitemap. stylesheet, when set, adds the XSL processing
// instruction that CMS sitemaps carry for human visitors.
func urlset(urls []smURL, stylesheet string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if stylesheet != "" {
		b.WriteString(`<?xml-stylesheet type="text/xsl" href="` + html.EscapeString(stylesheet) + `"?>` + "\n")
	}
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	for _, u := range urls {
		b.WriteString("\t<url>\n\t\t<loc>" + html.EscapeString(u.loc) + "</loc>\n")
		if !u.lastmod.IsZero() {
			b.WriteString("\t\t<lastmod>" + u.lastmod.Format("2006-01-02T15:04:05+00:00") + "</lastmod>\n")
		}
		for _, img := range u.images {
			b.WriteString("\t\t<image:image>\n\t\t\t<image:loc>" + html.EscapeString(img) + "</image:loc>\n\t\t</image:image>\n")
		}
		b.WriteString("\t</url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// sitemapIndex renders a sitemap index of child sitemaps.
func sitemapIndex(children []smURL, stylesheet string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if stylesheet != "" {
		b.WriteString(`<?xml-stylesheet type="text/xsl" href="` + html.EscapeString(stylesheet) + `"?>` + "\n")
	}
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, c := range children {
		fmt.Fprintf(&b, "\t<sitemap>\n\t\t<loc>%s</loc>\n", html.EscapeString(c.loc))
		if !c.lastmod.IsZero() {
			b.WriteString("\t\t<lastmod>" + c.lastmod.Format("2006-01-02T15:04:05+00:00") + "</lastmod>\n")
		}
		b.WriteString("\t</sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return []byte(b.String())
}

// newest is the latest lastmod of a set of URLs, which is what a sitemap
// index reports for a child sitemap.
func newest(urls []smURL) time.Time {
	var t time.Time
	for _, u := range urls {
		if u.lastmod.After(t) {
			t = u.lastmod
		}
	}
	return t
}

// sendXML answers with a sitemap or feed body.
func (k *kit) sendXML(w http.ResponseWriter, r *http.Request, ctype string, body []byte, modified time.Time) {
	k.send(w, r, doc{status: http.StatusOK, ctype: ctype, body: body, modified: modified})
}
