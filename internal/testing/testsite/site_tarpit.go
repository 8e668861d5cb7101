package testsite

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// The tarpits hold a connection open while sending next to nothing, the
// way hostile or broken servers stall crawlers: one answers a complete but
// tiny homepage a byte every two seconds (it would finish inside any
// plausible per-request timeout), one never finishes its response headers,
// and one serves a normal homepage while robots.txt, llms.txt, the sitemap
// and the about page crawl.

// tarpitPage is the whole homepage of the body tarpit: seven bytes, sent
// over fourteen seconds.
const tarpitPage = "Welcome"

func newTarpitBody(e *env) *fixture {
	serve := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(tarpitPage)))
		drip(w, r, e.done, "text/html; charset=utf-8", tarpitPage, len(tarpitPage))
	}
	return &fixture{name: TarpitBody, host: hosts[TarpitBody], serve: serve}
}

// newTarpitHeaders answers every request with a status line and then one
// header byte a second, forever: the headers never end. It needs HTTP/1.1
// to write raw bytes.
func newTarpitHeaders(e *env) *fixture {
	serve := func(w http.ResponseWriter, r *http.Request) {
		hijack(w, r, func(ctx context.Context, buf *bufio.ReadWriter) {
			if _, err := buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"); err != nil || buf.Flush() != nil {
				return
			}
			for i := 0; ; i++ {
				if !sleep(ctx, e.done, dripInterval/2) {
					return
				}
				line := fmt.Sprintf("X-Wait-%d: 1\r\n", i/16)
				if err := buf.WriteByte(line[i%len(line)]); err != nil || buf.Flush() != nil {
					return
				}
			}
		})
	}
	return &fixture{name: TarpitHeaders, host: hosts[TarpitHeaders], serve: serve, http1: true}
}

// newSlowPages is a plain little site whose secondary files drip forever:
// the homepage is fine, so the scan completes and records each slow fetch
// as an error in its evidence.
func newSlowPages(e *env) *fixture {
	origin := e.origin(hosts[SlowPages])
	home := `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sluggish Joinery – Handmade Oak Furniture</title>
<meta name="description" content="Sluggish Joinery builds oak tables, chairs and shelves by hand in a small workshop.">
<link rel="canonical" href="` + origin + `/">
</head>
<body>
<header><nav><a href="/about">About</a> <a href="/contact">Contact</a> <a href="/blog/oak-care">Caring for oak</a></nav></header>
<main>
<h1>Handmade oak furniture</h1>
<p>We build tables, chairs and shelves from locally grown oak. Every piece is made to order and finished with natural oil.</p>
<h2>How we work</h2>
<p>Tell us what you need, we send a drawing and a price within a week, and the piece is ready six to eight weeks later.</p>
</main>
<footer><p>Sluggish Joinery, Mill Lane 4</p></footer>
</body>
</html>
`
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if r.Method != http.MethodHead {
				_, _ = w.Write([]byte(home))
			}
		case "/robots.txt":
			drip(w, r, e.done, "text/plain; charset=utf-8", "User-agent: *\nAllow: /\n", -1)
		case "/llms.txt":
			drip(w, r, e.done, "text/markdown; charset=utf-8", "# Sluggish Joinery\n", -1)
		case "/sitemap.xml":
			drip(w, r, e.done, "application/xml", `<?xml version="1.0" encoding="UTF-8"?>`, -1)
		case "/about":
			drip(w, r, e.done, "text/html; charset=utf-8", "<!DOCTYPE html><html><head><title>About</title>", -1)
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: SlowPages, host: hosts[SlowPages], serve: serve}
}

// hijack takes over an HTTP/1.1 connection so a handler can write bytes
// that net/http would not (unfinished headers, invalid header values);
// write gets the request's context.
func hijack(w http.ResponseWriter, r *http.Request, write func(ctx context.Context, buf *bufio.ReadWriter)) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "this fixture needs HTTP/1.1", http.StatusHTTPVersionNotSupported)
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer func() { _ = conn.Close() }()
	write(r.Context(), buf)
}
