package audit

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// agentReadiness is the agent-readiness stage: with a fetcher, it reads
// the homepage as Markdown and the site's /.well-known/ agent files within
// what reading the site left of the fetch budget (and at most
// agentready.DefaultBudget), then judges every signal. Files the budget
// leaves unread, and, given a site instead of a fetcher, all of them, make
// their signals not_checked. It never fails the audit and never touches
// the scores.
func agentReadiness(ctx context.Context, opts Options, site *fetch.Site, t *Timings) *agentready.Result {
	start := time.Now()
	defer func() { t.AgentReadiness = time.Since(start) }()
	var got *agentready.Fetched
	if opts.Site == nil && opts.Fetcher != nil {
		budget := agentready.DefaultBudget
		if opts.FetchBudget > 0 {
			budget = max(min(budget, opts.FetchBudget-t.Fetch-t.Parse-t.Memory), 0)
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
