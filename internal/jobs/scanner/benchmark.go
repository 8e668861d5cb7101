package scanner

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/store"
)

// competitorTargets are the scan's competitors as the engine audits them.
// Their URLs were checked when the scan was created; one that no longer
// parses is left out rather than failing the scan.
func competitorTargets(urls []string) []audit.Target {
	var out []audit.Target
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil {
			out = append(out, audit.Target{URL: u})
		}
	}
	return out
}

// crawlerLog is the latest analysed access log of the scan's site, for
// the report to show beside the audit; nil when there is none, or when
// it cannot be read (the scan goes on without it).
func (r *Runner) crawlerLog(ctx context.Context, scan store.Scan, log *slog.Logger) *audit.CrawlerLog {
	lg, err := r.Store.LatestCrawlerLogOfSite(ctx, scan.OrgID, scan.Domain)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		log.Warn("read the site's access log", slog.String("error", err.Error()))
		return nil
	}
	out := &audit.CrawlerLog{ID: lg.ID}
	if err := json.Unmarshal(lg.Result, &out.Result); err != nil {
		log.Warn("decode the site's access log", slog.String("log_id", lg.ID.String()), slog.String("error", err.Error()))
		return nil
	}
	return out
}
