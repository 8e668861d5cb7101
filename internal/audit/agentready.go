package audit

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// agentReadiness is the agent-readiness stage: with a fetcher, it reads
// the homepage as Markdown and the site's /.well-known/ agent files within
// the fetch budget (at most agentready.DefaultBudget), then judges every
// signal. Given a site instead, it fetches nothing and the signals that
// need those files are not_checked. It never fails the audit and never
// touches the scores.
func agentReadiness(ctx context.Context, opts Options, site *fetch.Site, t *Timings) *agentready.Result {
	start := time.Now()
	defer func() { t.AgentReadiness = time.Since(start) }()
	var got *agentready.Fetched
	if opts.Site == nil && opts.Fetcher != nil {
		budget := agentready.DefaultBudget
		if opts.FetchBudget > 0 {
			budget = min(budget, opts.FetchBudget)
		}
		fctx, cancel := context.WithTimeoutCause(ctx, budget, fetch.ErrBudget)
		got = agentready.Fetch(fctx, opts.Fetcher, site)
		cancel()
	}
	r := agentready.Judge(site, got)
	return &r
}

// agentReadinessNotes is the dossier's note on the lens: a fact about the
// site, not a risk, so it joins the caveats and no lens or action.
func agentReadinessNotes(r *agentready.Result) []string {
	if note := r.Note(); note != "" {
		return []string{note}
	}
	return nil
}
