package crawl

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// benchSite is a 500-page site of four templates, every page listed in
// the sitemap and linking to a dozen others, each page a few KiB of
// ordinary markup.
func benchSite(s *testSite, w http.ResponseWriter, r *http.Request) {
	const posts, products, docs = 200, 200, 99
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		fmt.Fprint(w, "User-agent: *\nDisallow: /admin\n")
	case p == "/sitemap.xml":
		locs := []string{s.url("", "/")}
		for i := range posts {
			locs = append(locs, s.url("", fmt.Sprintf("/blog/post-number-%d", i)))
		}
		for i := range products {
			locs = append(locs, s.url("", fmt.Sprintf("/products/%d", i)))
		}
		for i := range docs {
			locs = append(locs, s.url("", fmt.Sprintf("/docs/topic-%d", i)))
		}
		xmlBody(w, urlset(locs...))
	case p == "/" || strings.HasPrefix(p, "/blog/") || strings.HasPrefix(p, "/products/") || strings.HasPrefix(p, "/docs/"):
		n := len(p)
		links := []string{"/", "/blog/post-number-1", "/products/1", "/docs/topic-1"}
		for i := range 8 {
			links = append(links, fmt.Sprintf("/blog/post-number-%d", (n*7+i*13)%posts), fmt.Sprintf("/products/%d", (n*11+i*17)%products))
		}
		body := `<meta name="description" content="A page of the benchmark site.">` +
			`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Bench"}</script>`
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><html lang=en><head><title>%s</title>%s</head><body><header><nav>", p, body)
		for _, l := range links {
			fmt.Fprintf(&b, `<a href="%s">%s</a> `, l, l)
		}
		b.WriteString("</nav></header><main><article><h1>Benchmark page</h1>")
		for i := range 12 {
			fmt.Fprintf(&b, "<h2>Section %d</h2><p>%s</p>", i, strings.Repeat("Plain words of an ordinary paragraph. ", 8))
		}
		b.WriteString("</article></main><footer>Footer</footer></body></html>")
		_, _ = w.Write([]byte(b.String()))
	default:
		http.NotFound(w, r)
	}
}

// BenchmarkCrawl crawls the 500-page site with politeness off and, in
// the same iteration, fetches the same URLs bare (no discovery, link
// reading or inventory) at the same concurrency; it reports both rates
// and their ratio (crawl/bare; the target is at least 0.5). A third crawl
// that parses every page (ParsePages) is reported beside them, as
// crawl+parse/bare: what an audit that reads every page pays.
func BenchmarkCrawl(b *testing.B) {
	const perHost = 4
	s := newSite(b, fetch.Options{PerHost: perHost}, benchSite)
	ctx := context.Background()
	opts := Options{Unthrottled: true, PerHost: perHost, MaxPages: 1000, MaxTemplatePages: 1000}
	var crawlTime, bareTime, parseTime time.Duration
	var crawled, fetched, parsed int
	for b.Loop() {
		var mu sync.Mutex
		var urls []string
		start := time.Now()
		res, err := Crawl(ctx, s.f, s.target(b, ""), opts, func(p *Page) error {
			mu.Lock()
			urls = append(urls, p.URL)
			mu.Unlock()
			return nil
		})
		crawlTime += time.Since(start)
		if err != nil || res.Stop != StopComplete || res.Pages != 500 {
			b.Fatalf("crawl: %v, stop %s, %d pages", err, res.Stop, res.Pages)
		}
		crawled += res.Pages

		start = time.Now()
		jobs := make(chan string)
		var wg sync.WaitGroup
		for range perHost {
			wg.Go(func() {
				for u := range jobs {
					if r := s.f.Do(ctx, fetch.Request{URL: u}); !r.OK() {
						b.Errorf("bare fetch %s: %d %v", u, r.Status, r.Err)
					}
				}
			})
		}
		for _, u := range urls {
			jobs <- u
		}
		close(jobs)
		wg.Wait()
		bareTime += time.Since(start)
		fetched += len(urls)

		start = time.Now()
		withParse := opts
		withParse.ParsePages = true
		res, err = Crawl(ctx, s.f, s.target(b, ""), withParse, func(p *Page) error {
			if p.HTML() == nil {
				return fmt.Errorf("%s: not parsed", p.URL)
			}
			return nil
		})
		parseTime += time.Since(start)
		if err != nil || res.Pages != 500 {
			b.Fatalf("crawl with parsing: %v, %d pages", err, res.Pages)
		}
		parsed += res.Pages
	}
	crawlRate := float64(crawled) / crawlTime.Seconds()
	bareRate := float64(fetched) / bareTime.Seconds()
	b.ReportMetric(crawlRate, "crawl-pages/s")
	b.ReportMetric(bareRate, "bare-pages/s")
	b.ReportMetric(crawlRate/bareRate, "crawl/bare")
	b.ReportMetric(float64(parsed)/parseTime.Seconds()/bareRate, "crawl+parse/bare")
}
