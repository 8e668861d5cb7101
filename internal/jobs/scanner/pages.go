package scanner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/store"
)

// PageStorer is what a whole-site audit's pages need of the store.
type PageStorer interface {
	AddScanPage(ctx context.Context, p store.NewScanPage) error
	SetScanProgress(ctx context.Context, scanID uuid.UUID, done, planned int) error
}

// wholeSite makes opts a whole-site audit of the scan's page budget when
// it is above 1. The crawl starts from no pages: what an earlier attempt
// of the job stored (its worker died mid-crawl) is dropped first, so the
// pages stored and the report's roll-up are those of one crawl. The crawl
// is as polite as the organization's limits say, the previous whole-site
// audit of the same site is handed in for the report's trend, the plan
// bounds the pages a browser renders, each judged
// page is stored as it comes and the scan's progress follows the crawl.
func (r *Runner) wholeSite(ctx context.Context, opts *audit.Options, scan store.Scan, log *slog.Logger) error {
	if scan.MaxPages <= 1 {
		return nil
	}
	if err := r.Store.ResetScanPages(ctx, scan.ID); err != nil {
		return err
	}
	org, err := r.Store.GetOrganization(ctx, scan.OrgID)
	if err != nil {
		return fmt.Errorf("organization of scan %s: %w", scan.ID, err)
	}
	prev, err := r.Store.PreviousSiteSummary(ctx, scan)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return fmt.Errorf("previous whole-site audit: %w", err)
	default:
		opts.PreviousSite = &audit.PreviousSite{
			ScanID: prev.ScanID, CompletedAt: prev.CompletedAt, PagesAudited: prev.PagesAudited,
			Score: prev.Score, Affected: prev.Affected,
		}
	}
	limits := store.Limits(org)
	opts.RenderPages = limits.RenderPages
	withPages(ctx, opts, politeCrawl(r.Crawl, limits.CrawlRate, limits.CrawlConcurrency), r.Store, scan, log)
	return nil
}

// politeCrawl is the runner's crawl options with the organization's
// request rate and requests in flight; Unthrottled (tests, benchmarks)
// still lifts the rate.
func politeCrawl(o crawl.Options, rate float64, concurrency int) crawl.Options {
	o.Rate, o.PerHost = rate, concurrency
	return o
}

// withPages makes opts a whole-site audit of the scan's page budget: each
// judged page is stored as it comes and the scan's progress follows the
// crawl.
func withPages(ctx context.Context, opts *audit.Options, crawlOpts crawl.Options, st PageStorer, scan store.Scan, log *slog.Logger) {
	opts.MaxPages, opts.Crawl = scan.MaxPages, crawlOpts
	opts.Pages = PageSink(st, scan.ID)
	opts.Progress = func(done, planned int) {
		// Progress is shown, not relied on: a failed update is logged and
		// the next page's update replaces it; one cut short by the run's
		// end says nothing worth logging.
		if err := st.SetScanProgress(ctx, scan.ID, done, planned); err != nil && ctx.Err() == nil {
			log.Warn("scan progress not recorded", slog.Any("error", err))
		}
	}
}

// PageSink stores each page of a whole-site audit of the scan.
func PageSink(st PageStorer, scanID uuid.UUID) audit.PageSink {
	return func(ctx context.Context, p audit.PageResult) error {
		checks := make([]store.PageCheck, len(p.Checks))
		for i, c := range p.Checks {
			checks[i] = store.PageCheck{ID: c.ID, Status: c.Status, Summary: c.Summary}
		}
		return st.AddScanPage(ctx, store.NewScanPage{
			ScanID: scanID, Position: p.Position, URL: p.URL, Group: p.Group, Type: p.Type,
			Status: pageStatus(p), HTTPStatus: p.HTTPStatus, Score: p.Score, Checks: checks, Error: p.Error,
		})
	}
}

// pageStatus names what became of a page: judged (no error), a redirect
// (a 3xx answer), an error (no answer or an HTTP error) or, for a 2xx
// answer not judged, not HTML.
func pageStatus(p audit.PageResult) store.PageStatus {
	switch {
	case p.Error == "":
		return store.PageAudited
	case p.HTTPStatus >= 300 && p.HTTPStatus < 400:
		return store.PageRedirect
	case p.HTTPStatus < 200 || p.HTTPStatus >= 400:
		return store.PageError
	}
	return store.PageNotHTML
}
