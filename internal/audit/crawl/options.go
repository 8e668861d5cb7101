package crawl

import (
	"context"
	"time"
)

// Options bound and shape one crawl. The zero value is a polite crawl of
// at most DefaultPages pages.
type Options struct {
	// MaxPages is the page budget: how many page URLs Run requests, the
	// homepage included (a redirect or an error is a page requested too;
	// retries of one URL are not). Default DefaultPages.
	MaxPages int
	// MaxBytes bounds the bytes read in all (decompressed), robots.txt and
	// sitemaps included; a request in flight when it is reached still
	// finishes. Default 256 MiB.
	MaxBytes int64
	// MaxDuration, when set, bounds the whole crawl's wall time on top of
	// the caller's context.
	MaxDuration time.Duration

	// MaxURLs caps the inventory: 50 URLs per page of the budget, at least
	// 10 000 and at most 50 000, by default. URLs found past it are
	// counted, not kept, and the sample says discovery was cut. The
	// inventory is all a crawl keeps per URL (the URL and a few bytes), so
	// this bounds a crawl's memory whatever the site.
	MaxURLs int
	// MaxTemplateURLs caps the URLs kept of one template (default 5 000),
	// so that one endless template (a calendar, a faceted search) cannot
	// fill the inventory.
	MaxTemplateURLs int
	// MaxTemplatePages caps the pages requested of one template (default
	// half the page budget, at least 10): a crawl trap spends at most that.
	MaxTemplatePages int
	// MaxPathDepth is the most path segments a URL may have (default 12).
	MaxPathDepth int
	// MaxLinksPerPage is how many distinct links of one page are taken
	// into the inventory (default 1 000).
	MaxLinksPerPage int

	// MaxSitemapFiles bounds the sitemap files requested (default 50) and
	// MaxSitemapDepth the nesting of sitemap indexes (default 3: an index
	// of indexes of sitemaps).
	MaxSitemapFiles int
	MaxSitemapDepth int
	// MaxSitemapBytes bounds a gzip sitemap file (a .xml.gz served as
	// data) once decompressed (default 16 MiB; the protocol allows 50 MB
	// but a text node is held whole while it is read). Other files are
	// bounded by the fetcher's MaxBodyBytes.
	MaxSitemapBytes int64

	// PerHost is how many requests are in flight at once (default 2, at
	// most MaxPerHost).
	PerHost int
	// Rate is the most requests per second (default 2). A robots.txt
	// Crawl-delay for GeoScan (or *) slows it further, never speeds it up.
	Rate float64
	// Unthrottled lifts Rate and Crawl-delay, for tests and benchmarks
	// against local servers. robots.txt rules, Retry-After and PerHost
	// still apply.
	Unthrottled bool

	// ParsePages parses every 2xx HTML page (Page.HTML) in the crawl's
	// workers, in parallel, before the visitor sees it. Without it a page
	// is parsed when the visitor first asks, inside its call, and visitor
	// calls take turns.
	ParsePages bool

	// MaxTries is how many times one URL is requested when the site
	// answers 429 or 503 (default 3). MaxRetryWait is the longest wait
	// honoured (default 60 s): a Retry-After beyond it ends the crawl,
	// since the site asked for a pause longer than a crawl lasts.
	MaxTries     int
	MaxRetryWait time.Duration

	// clock replaces time.Now and the waits (tests).
	clock clock
}

// The defaults and hard limits of Options.
const (
	DefaultPages = 200
	// The default MaxURLs: urlsPerPage for each page of the budget, within
	// minURLs and maxURLs. A sample drawn round-robin over templates needs
	// many more URLs known than it requests, not every URL of a big site.
	urlsPerPage = 50
	minURLs     = 10_000
	maxURLs     = 50_000
	// MaxPerHost is the most concurrent requests a crawl makes, whatever
	// PerHost says.
	MaxPerHost = 16
)

func (o Options) withDefaults() Options {
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultPages
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 20
	}
	if o.MaxURLs <= 0 {
		o.MaxURLs = min(max(urlsPerPage*o.MaxPages, minURLs), maxURLs)
	}
	if o.MaxTemplateURLs <= 0 {
		o.MaxTemplateURLs = 5_000
	}
	if o.MaxTemplatePages <= 0 {
		o.MaxTemplatePages = max(10, o.MaxPages/2)
	}
	if o.MaxPathDepth <= 0 {
		o.MaxPathDepth = 12
	}
	if o.MaxLinksPerPage <= 0 {
		o.MaxLinksPerPage = 1_000
	}
	if o.MaxSitemapFiles <= 0 {
		o.MaxSitemapFiles = 50
	}
	if o.MaxSitemapDepth <= 0 {
		o.MaxSitemapDepth = 3
	}
	if o.MaxSitemapBytes <= 0 {
		o.MaxSitemapBytes = 16 << 20
	}
	if o.PerHost <= 0 {
		o.PerHost = 2
	}
	o.PerHost = min(o.PerHost, MaxPerHost)
	if o.Rate <= 0 {
		o.Rate = 2
	}
	if o.MaxTries <= 0 {
		o.MaxTries = 3
	}
	if o.MaxRetryWait <= 0 {
		o.MaxRetryWait = time.Minute
	}
	if o.clock == nil {
		o.clock = realClock{}
	}
	return o
}

// clock is time as the crawl sees it: the real one, or a test's.
type clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, whichever is first.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
