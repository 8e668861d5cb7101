package scanner

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/report"
)

// storeReserve is the part of a scan's budget the AI layer leaves for
// scoring and storing: engine calls that would run into it are cut short
// (their checks end as error) rather than failing the scan.
const storeReserve = 5 * time.Second

// aiContext bounds the AI layer by the scan's budget less storeReserve.
func aiContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, d.Add(-storeReserve))
	}
	return context.WithCancel(ctx)
}

// askEngines measures what the answer engines say about the brand into
// in.Mentions, and returns the session the summaries use; nil without an
// engine.
func (r *Runner) askEngines(ctx context.Context, in *checks.Input, t *Timings) *llm.Session {
	if !r.AI.Enabled() {
		return nil
	}
	start := time.Now()
	r.pruneAnswers(ctx)
	sess := r.AI.Session(r.now())
	actx, cancel := aiContext(ctx)
	defer cancel()
	in.Mentions = mentions.Measure(actx, sess, checks.AISubject(in))
	t.AI += time.Since(start)
	return sess
}

// writeSummaries lets the default engine write the summaries and logs what
// the AI layer spent on the scan.
func (r *Runner) writeSummaries(ctx context.Context, sess *llm.Session, doc *report.Stored, t *Timings, log *slog.Logger) {
	if sess == nil {
		return
	}
	start := time.Now()
	actx, cancel := aiContext(ctx)
	report.WriteSummaries(actx, sess, doc)
	cancel()
	t.AI += time.Since(start)
	u := sess.Usage()
	attrs := []any{slog.Int("calls", u.Calls), slog.Int("cache_hits", u.CacheHits), slog.Int("tokens", u.Tokens)}
	for purpose, p := range u.ByPurpose {
		attrs = append(attrs, slog.Group(purpose, slog.Int("calls", p.Calls), slog.Int("cache_hits", p.CacheHits),
			slog.Int("errors", p.Errors), slog.Int("input_tokens", p.InputTokens), slog.Int("output_tokens", p.OutputTokens)))
	}
	log.Info("answer engines used", attrs...)
}

// aiCaveats are the report's sentences about the AI layer: not configured,
// the scripted demo engine, or checks an engine failure left unmeasured.
func (r *Runner) aiCaveats(outcomes []checks.Outcome) []string {
	if !r.AI.Enabled() {
		return []string{"No answer engine is configured (GEOSCAN_LLM_BASE_URL), so the four AI mention checks were not measured and the trust ring is scored without them; the summaries are written from templates."}
	}
	var out []string
	for _, e := range r.AI.Engines {
		if e.Info().Scripted {
			out = append(out, "The answer engine is GeoScan's scripted demo engine: its answers are canned and say nothing about any real AI assistant.")
			break
		}
	}
	errored := 0
	for _, o := range outcomes {
		if o.Check.Pillar == "ai_mentions" && o.Result.Status == checks.Error {
			errored++
		}
	}
	if errored > 0 {
		out = append(out, fmt.Sprintf("%d of the 4 AI mention checks could not be measured (an answer engine failed, timed out or the scan's call budget ran out); they are left out of the scores.", errored))
	}
	return out
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
