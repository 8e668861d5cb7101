package testsite

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Nul Bakery is a small site whose bytes PostgreSQL cannot store as text:
// NUL bytes (raw, and as the JSON escape \u0000 in JSON-LD) and invalid
// UTF-8 in the title, meta tags, headings, link texts, alt texts,
// structured data, robots.txt, llms.txt and the sitemap, and obs-text bytes
// in response header values. Such pages exist (a CMS pasting binary data,
// a broken template, Latin-1 bytes labelled UTF-8); a scan must still
// complete. The about page sends a NUL inside a header value, which
// RFC 9110 section 5.5 lets a client reject: that fetch fails and is
// recorded as evidence. Responses are written raw, over HTTP/1.1.

func newNulBytes(e *env) *fixture {
	origin := e.origin(hosts[NulBytes])
	home := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
		"<title>Nul\x00 Bakery \xff\xfe Fresh Bread</title>\n" +
		"<meta name=\"description\" content=\"Sourdough\x00 and rye \xc3\x28 baked every morning in the old town.\">\n" +
		"<meta property=\"og:title\" content=\"Nul\x00Bakery\">\n" +
		"<meta name=\"author\" content=\"\xe9quipe\x00\">\n" +
		"<link rel=\"canonical\" href=\"" + origin + "/\">\n" +
		"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Bakery\",\"name\":\"Nul\\u0000 Bakery\"," +
		"\"description\":\"Bread \\u0000 and \\ud800 cakes\",\"url\":\"" + origin + "/\",\"telephone\":\"+44 20 7946 0000\\u0000\"," +
		"\"address\":{\"@type\":\"PostalAddress\",\"streetAddress\":\"Mill\\u0000 Lane 4\",\"addressLocality\":\"Oldtown\"}}</script>\n" +
		"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"WebSite\",\"name\":\"raw\x00nul \xff\"}</script>\n" +
		"</head>\n<body>\n<header><nav><a href=\"/about\">About\x00 us</a> <a href=\"/contact\">Contact \xff</a></nav></header>\n" +
		"<main>\n<h1>Nul\x00 Bakery</h1>\n<p>Our bakers start at four\x00 in the morning so that the first loaves are out of the oven when we open at seven. " +
		"We bake sourdough, rye and spelt bread, and cakes on weekends.</p>\n" +
		"<h2>Opening \xff hours</h2>\n<p>Monday to Saturday, 7:00 to 18:00.</p>\n" +
		"<img src=\"/loaf.jpg\" alt=\"A rye\x00 loaf \xfe\" width=\"400\" height=\"300\">\n" +
		"</main>\n<footer><p>Nul Bakery\x00, Mill Lane 4, Oldtown</p></footer>\n</body>\n</html>\n"
	headers := []string{
		"Content-Type: text/html; charset=utf-8",
		"Server: nulhttpd/1.0 \xff\xfe",
		"X-Powered-By: Oven\x80\xff",
		"Link: <" + origin + "/about>; rel=\"about\xff\"",
	}
	robots := "User-agent: *\x00\nAllow: /\nDisallow: /private\xff\x00/\nSitemap: " + origin + "/sitemap.xml\n"
	llms := "# Nul\x00 Bakery\n\n> Bread \xff baked daily.\n\n## Pages\n\n- [About\x00 us](" + origin + "/about): who bakes \xfe\n"
	sitemap := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"<url><loc>" + origin + "/</loc><lastmod>2024-01-01\xff</lastmod></url>\n" +
		"<url><loc>" + origin + "/about\x00</loc></url>\n</urlset>\n"
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			raw(w, r, "200 OK", headers, home)
		case "/robots.txt":
			raw(w, r, "200 OK", []string{"Content-Type: text/plain; charset=utf-8"}, robots)
		case "/llms.txt":
			raw(w, r, "200 OK", []string{"Content-Type: text/markdown; charset=utf-8"}, llms)
		case "/sitemap.xml":
			raw(w, r, "200 OK", []string{"Content-Type: application/xml"}, sitemap)
		case "/about":
			raw(w, r, "200 OK", []string{"Content-Type: text/html; charset=utf-8", "X-Baker: Nul\x00Baker"},
				"<!DOCTYPE html><html><head><title>About</title></head><body><h1>About</h1></body></html>")
		default:
			raw(w, r, "404 Not Found", []string{"Content-Type: text/html; charset=utf-8"},
				"<!DOCTYPE html><html><head><title>Not found\x00</title></head><body><h1>Not found</h1></body></html>")
		}
	}
	return &fixture{name: NulBytes, host: hosts[NulBytes], serve: serve, http1: true}
}

// raw writes a complete HTTP/1.1 response byte for byte and closes the
// connection.
func raw(w http.ResponseWriter, r *http.Request, status string, header []string, body string) {
	hijack(w, r, func(_ context.Context, buf *bufio.ReadWriter) {
		var b strings.Builder
		fmt.Fprintf(&b, "HTTP/1.1 %s\r\n", status)
		for _, h := range header {
			b.WriteString(h + "\r\n")
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\nConnection: close\r\n\r\n", len(body))
		if r.Method != http.MethodHead {
			b.WriteString(body)
		}
		_, _ = buf.WriteString(b.String())
		_ = buf.Flush()
	})
}
