package audit_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkSiteAudit audits the megasite whole (500 pages, the crawl
// unthrottled, the homepage already read) and, in the same iteration,
// fetches the URLs the audit streamed bare, at the same concurrency, with
// no discovery, parsing or checks. It reports both rates and their ratio
// (audit/bare; the target is at least 0.5), and beside them a crawl of the
// same budget that only parses its pages (crawl+parse/bare): the share of
// the gap the checks account for.
//
//	go test -run '^$' -bench SiteAudit -benchtime 3x ./internal/audit/
func BenchmarkSiteAudit(b *testing.B) {
	const perHost, pages = 4, 500
	_, f := audittest.Sites(b)
	ctx := context.Background()
	target := audittest.Target(b, testsite.Megasite, "Northwind Outfitters")
	site := audittest.Site(b, testsite.Megasite)
	var auditTime, bareTime, crawlTime time.Duration
	var audited, fetched, crawled int
	for b.Loop() {
		var urls []string
		// Each phase starts on a collected heap, so none pays for the
		// garbage the one before it left.
		runtime.GC()
		start := time.Now()
		res, err := audit.Run(ctx, target, audit.Options{
			Fetcher: f, Site: site, MaxPages: pages, Crawl: crawl.Options{Unthrottled: true, PerHost: perHost},
			Pages: func(_ context.Context, p audit.PageResult) error {
				urls = append(urls, p.URL)
				return nil
			},
		})
		auditTime += time.Since(start)
		if err != nil || res.SiteView == nil || len(urls) != pages {
			b.Fatalf("site audit: %v, %d pages", err, len(urls))
		}
		audited += len(urls)

		runtime.GC()
		start = time.Now()
		jobs := make(chan string)
		var wg sync.WaitGroup
		for range perHost {
			wg.Go(func() {
				for u := range jobs {
					if r := f.Do(ctx, fetch.Request{Purpose: crawl.PagePurpose, URL: u, NoFollow: true}); r.Err != nil {
						b.Errorf("bare fetch %s: %v", u, r.Err)
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

		runtime.GC()
		start = time.Now()
		cres, err := crawl.Crawl(ctx, f, target.URL, crawl.Options{Unthrottled: true, PerHost: perHost, MaxPages: pages, ParsePages: true}, nil)
		crawlTime += time.Since(start)
		if err != nil {
			b.Fatalf("crawl: %v", err)
		}
		crawled += cres.Pages
	}
	auditRate := float64(audited) / auditTime.Seconds()
	bareRate := float64(fetched) / bareTime.Seconds()
	b.ReportMetric(auditRate, "audit-pages/s")
	b.ReportMetric(bareRate, "bare-pages/s")
	b.ReportMetric(auditRate/bareRate, "audit/bare")
	b.ReportMetric(float64(crawled)/crawlTime.Seconds()/bareRate, "crawl+parse/bare")
}
