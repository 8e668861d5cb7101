package audit

import (
	"context"
	"sync"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/report"
)

// CrawlerLog is an analysed access log of the site (crawlerlog.Analyze's
// result, as the crawler_logs job stored it), to set beside the audit.
type CrawlerLog struct {
	ID     uuid.UUID
	Result crawlerlog.Result
}

// maxKnownPages bounds the audited page addresses kept for the log's
// "never crawled" check: a whole-site audit's page budget is far below.
const maxKnownPages = 20000

// pageURLs collects the addresses of a whole-site audit's pages as the
// sink receives them.
type pageURLs struct {
	mu   sync.Mutex
	urls []string
}

func (p *pageURLs) wrap(next PageSink) PageSink {
	return func(ctx context.Context, r PageResult) error {
		p.mu.Lock()
		if len(p.urls) < maxKnownPages {
			p.urls = append(p.urls, r.URL)
		}
		p.mu.Unlock()
		if next == nil {
			return nil
		}
		return next(ctx, r)
	}
}

// attachCrawlerActivity sets the log beside what this audit read: the
// site's robots.txt, and its pages (the homepage, and a whole-site
// audit's pages).
func attachCrawlerActivity(doc *report.Stored, target Target, log *CrawlerLog, site *fetch.Site, pages *pageURLs) {
	known := []string{target.URL.String()}
	if pages != nil {
		pages.mu.Lock()
		known = append(known, pages.urls...)
		pages.mu.Unlock()
	}
	robotsTxt, fetched := crawlerlog.RobotsOf(site.Robots)
	report.AttachCrawlerActivity(doc, report.CrawlerInput{
		LogID: log.ID, Result: log.Result, ScanID: target.ScanID,
		Cross: crawlerlog.CrossCheck(log.Result, robotsTxt, fetched, known),
	})
}
