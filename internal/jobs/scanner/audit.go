package scanner

import (
	"context"
	"log/slog"
	"time"

	"github.com/geoscan/geoscan/internal/audit"
)

// storeReserve is the part of a scan's budget the AI layer leaves for
// scoring and storing: engine calls that would run into it are cut short
// (their checks end as error) rather than failing the scan.
const storeReserve = 5 * time.Second

// auditOptions are the engine's options for one scan: fetching gets most
// of the budget, checks and storing need the rest.
func (r *Runner) auditOptions(log *slog.Logger) audit.Options {
	opts := audit.Options{
		Fetcher: r.Fetcher, FetchBudget: r.Budget * 85 / 100, AI: r.AI, AIReserve: storeReserve,
		Now: r.Now, Logger: log, Renderer: r.Renderer,
	}
	if b := r.triageBuilder.Load(); b != nil {
		opts.BuildTriage = *b
	}
	if r.Memory != nil {
		opts.Reserve = r.Memory.Reserve
	}
	return opts
}

// requestedLanguage is the language a scan asked for, "" for none: the
// engine resolves it with the site's declared one, as reportLanguage does
// for the stored scan, and asks the answer engines and writes the
// summaries in the result.
func requestedLanguage(requested *string) string {
	if requested == nil {
		return ""
	}
	return *requested
}

// pruneAnswers deletes cached answers of past days, at most once an hour
// per worker process: they can never be hit again.
func (r *Runner) pruneAnswers(ctx context.Context) {
	now := r.now()
	last := r.lastPrune.Load()
	if now.Unix()-last < 3600 || !r.lastPrune.CompareAndSwap(last, now.Unix()) {
		return
	}
	if n, err := r.Store.PruneAnswers(ctx, now.UTC()); err != nil {
		r.Logger.Warn("pruning cached answers failed", slog.Any("error", err))
	} else if n > 0 {
		r.Logger.Info("pruned cached answers of past days", slog.Int64("rows", n))
	}
}
