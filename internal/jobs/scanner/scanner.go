// Package scanner owns the scan job: the queue job that carries a scan, the
// lifecycle pending → running → completed|failed, and what a scan leaves
// behind: it claims the scan, calls audit.Run, and stores the result with
// the callback and email it queues in one transaction. Workers in any number of processes
// share the queue through PostgreSQL (River); a job whose worker died is
// rescued by River and runs again, a scan interrupted by its worker's
// shutdown goes back to the queue untouched, and a sweeper fails scans
// whose job can no longer run, so no scan stays unfinished forever. One
// organization cannot starve the others: while another organization's
// scans wait, a scan starts only if its organization runs fewer than its
// share of the workers, counted across every process (see Runner.OrgShare);
// a scan held back stays pending and its job is snoozed, without using up
// an attempt.
package scanner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/i18n"
	"github.com/geoscan/geoscan/internal/jobs/mail"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/storable"
)

// Queue is the River queue of scan jobs.
const Queue = "scans"

// MaxAttempts bounds how often a scan job runs: the first run plus
// retries after a crash or an internal error.
const MaxAttempts = 3

// Args is the job of one scan.
type Args struct {
	ScanID uuid.UUID `json:"scan_id"`
}

// Kind names the job type in the queue.
func (Args) Kind() string { return "scan" }

// InsertOpts puts scans on their own queue; one job per scan.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: MaxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Queuer inserts scan jobs inside the caller's transaction.
type Queuer struct {
	Client *river.Client[pgx.Tx]
}

// Enqueue inserts the job of a new scan in tx, the transaction that created
// the scan, so the job exists exactly when the scan does, and records the
// job on the scan.
func (q *Queuer) Enqueue(ctx context.Context, tx *store.Store, scanID uuid.UUID) error {
	res, err := q.Client.InsertTx(ctx, tx.Tx(), Args{ScanID: scanID}, nil)
	if err != nil {
		return fmt.Errorf("enqueue scan %s: %w", scanID, err)
	}
	return tx.SetScanJob(ctx, scanID, res.Job.ID)
}

// Runner runs scans.
type Runner struct {
	Store   *store.Store
	Fetcher *fetch.Fetcher
	Logger  *slog.Logger
	// Budget bounds one scan end to end.
	Budget time.Duration
	Now    func() time.Time
	// Callbacks queues the callback of a finished scan in the transaction
	// that finishes it; nil queues none.
	Callbacks *webhook.Queuer
	// AI is the AI layer (answer engines); nil or not enabled leaves the
	// ai_mentions checks na and the summaries templates.
	AI *llm.Layer
	// Memory is the worker process's memory budget for the scans it runs
	// at once (see MemoryBudget); nil leaves them unbounded.
	Memory *MemoryBudget
	// Emails queues the email of a finished scheduled scan in that same
	// transaction; nil queues none.
	Emails *mail.Notifier
	// OrgShare is how many scans one organization may run at once, in all
	// worker processes together, while another organization has scans
	// waiting and runs fewer; alone it may use every worker. Zero leaves
	// organizations unlimited.
	OrgShare int
	// Renderer loads the pages of a scan in the worker process's browser,
	// beside the raw fetch; nil leaves rendering off.
	Renderer render.Renderer
	// Crawl shapes the crawl of a whole-site audit (a scan's max_pages
	// above 1; its page budget is the scan's); its request rate and
	// requests in flight are the scan's organization's (planlimits).
	Crawl crawl.Options

	triageBuilder atomic.Pointer[TriageBuilder]
	lastPrune     atomic.Int64 // Unix seconds of the last cache prune
}

// Timings split a scan's wall time by phase.
type Timings struct {
	Fetch  time.Duration // network, parsing excluded
	Parse  time.Duration
	Checks time.Duration // checks, scoring and report building, AI included
	// AI is the part of Checks spent waiting for answer engines.
	AI    time.Duration
	Store time.Duration
}

// ErrInterrupted marks a scan stopped from outside (its worker is shutting
// down) before it finished: nothing about it was written, and the job goes
// back to the queue.
var ErrInterrupted = errors.New("scan interrupted")

// interrupted returns an ErrInterrupted error when ctx was cancelled from
// outside rather than by the scan's own budget (a deadline), nil otherwise.
// River's stop cancels the job's context with its own cause; a worker that
// returns such an error has its job made available again at once, with
// the attempt not counted (River's soft-stop handling, riverqueue/river#1290,
// in v0.44 and later).
func interrupted(ctx context.Context) error {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return nil
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, context.Canceled) {
		return fmt.Errorf("%w: %w", ErrInterrupted, cause)
	}
	return fmt.Errorf("%w: %w: %w", ErrInterrupted, cause, context.Canceled)
}

// Failure codes a scan can end with, besides the fetch failure codes.
const (
	CodeTimeout   = "timeout"
	CodeInternal  = "internal_error"
	CodeAbandoned = "scan_abandoned"
)

// Run performs the scan; lastAttempt says whether an internal error should
// fail the scan now rather than leave it for a retry. Errors returned are
// internal (database) errors worth retrying, ErrInterrupted when ctx was
// cancelled from outside, or ErrOverShare when the scan may not start yet
// (the scan is then left as it was, for the next run); everything about
// the site ends in a completed or failed scan and a nil error. A ctx whose
// deadline has fetch.ErrBudget as its cause is the scan's budget.
func (r *Runner) Run(ctx context.Context, scanID uuid.UUID, lastAttempt bool) (Timings, error) {
	var t Timings
	scan, err := r.start(ctx, scanID)
	if errors.Is(err, store.ErrNotFound) {
		return t, nil // deleted, or already finished by an earlier attempt
	}
	if errors.Is(err, ErrOverShare) {
		return t, err
	}
	if err != nil {
		return t, r.internal(ctx, scanID, lastAttempt, fmt.Errorf("start scan: %w", err))
	}
	log := r.Logger.With(slog.String("scan_id", scan.ID.String()), slog.String("domain", scan.Domain))
	target, err := url.Parse(scan.URL)
	if err != nil {
		return t, r.fail(ctx, scan.ID, CodeInternal, "The stored URL could not be parsed.")
	}

	if r.AI.Enabled() {
		r.pruneAnswers(ctx)
	}
	opts := r.auditOptions(log)
	opts.Language = requestedLanguage(scan.Language)
	opts.Competitors = competitorTargets(scan.Competitors)
	opts.CrawlerLog = r.crawlerLog(ctx, scan, log)
	if err := r.wholeSite(ctx, &opts, scan, log); err != nil {
		return t, r.internal(ctx, scan.ID, lastAttempt, fmt.Errorf("start whole-site audit: %w", err))
	}
	res, err := audit.Run(ctx, audit.Target{
		URL: target, ScanID: scan.ID, BrandName: scan.BrandName, BrandAliases: scan.BrandAliases,
	}, opts)
	t.Fetch, t.Parse, t.AI = res.Timings.Fetch, res.Timings.Parse, res.Timings.AI
	t.Checks = res.Timings.Total - res.Timings.Fetch - res.Timings.Parse
	if err := interrupted(ctx); err != nil {
		log.Info("scan interrupted; it goes back to the queue", slog.String("reason", err.Error()))
		return t, err
	}
	var homeErr *fetch.HomeError
	switch {
	case errors.As(err, &homeErr):
		// The homepage's own limits name themselves in the message; only
		// the scan's budget is worded here.
		code, msg := homeErr.Code, homeErr.Message
		if errors.Is(homeErr.Response.Err, fetch.ErrBudget) {
			code, msg = CodeTimeout, fmt.Sprintf("The homepage did not answer within the scan budget of %s.", r.Budget)
		}
		log.Info("scan failed", slog.String("error_code", code), slog.String("reason", msg))
		return t, r.fail(ctx, scan.ID, code, msg)
	case errors.Is(err, audit.ErrMemoryWait):
		return t, r.fail(ctx, scan.ID, CodeTimeout, fmt.Sprintf("The scan did not finish within its budget of %s: it read the site, then waited for memory while other large pages were judged.", r.Budget))
	case errors.Is(err, audit.ErrOutOfTime):
		return t, r.fail(ctx, scan.ID, CodeTimeout, fmt.Sprintf("The scan did not finish within its budget of %s.", r.Budget))
	case err != nil:
		return t, r.internal(ctx, scan.ID, lastAttempt, err)
	}

	start := time.Now()
	scores := res.Scores
	completion := store.Completion{
		ScanID: scan.ID, ScoringVersion: scores.Version, Overall: scores.Overall, OverallGrade: scores.OverallGrade.Grade,
		Search:     ringScore(scores, scoring.RingSearch),
		Visibility: ringScore(scores, scoring.RingVisibility),
		Trust:      ringScore(scores, scoring.RingTrust),
		Report:     res.Report,
		Language:   new(reportLanguage(scan.Language, res.Site)),
	}
	for _, c := range res.Report.Engineering.Checks {
		completion.Checks = append(completion.Checks, store.CheckRow{
			CheckID: c.ID, Ring: string(c.Ring), Pillar: c.Pillar, Status: string(c.Status), Score: c.Score,
			Weight: c.Weight, Impact: string(c.Impact), Effort: string(c.Effort), Summary: c.Summary, Evidence: c.Evidence,
		})
	}
	if res.TriageErr != nil {
		log.Error("triage failed; the scan completes without it", slog.Any("error", res.TriageErr))
	} else {
		completion.Triage = &store.TriageDoc{SchemaVersion: triage.SchemaVersion, Body: res.Triage}
	}
	if res.SnapshotErr != nil {
		log.Warn("snapshot not kept", slog.Any("error", res.SnapshotErr))
	} else {
		completion.Snapshot, completion.SnapshotFormat = res.Snapshot, fetch.SnapshotFormat
	}
	if err := makeStorable(&completion); err != nil {
		return t, r.internal(ctx, scan.ID, lastAttempt, err)
	}
	t.Checks += time.Since(start)

	// One transaction completes the scan, queues the recomputation of a
	// dossier that could not be built, and queues the callback.
	start = time.Now()
	err = r.Store.InTx(ctx, func(tx *store.Store) error {
		done, err := tx.CompleteScan(ctx, completion)
		if err != nil {
			return err
		}
		if completion.Triage == nil {
			if err := queueTriage(ctx, tx, done.ID); err != nil {
				return err
			}
		}
		return r.finished(ctx, tx, done)
	})
	t.Store = time.Since(start)
	if errors.Is(err, store.ErrNotFound) {
		return t, nil // deleted while running
	}
	if err != nil {
		return t, r.internal(ctx, scan.ID, lastAttempt, fmt.Errorf("store results: %w", err))
	}
	log.Info("scan completed", slog.Float64("overall_score", scores.Overall),
		slog.Int64("fetch_ms", t.Fetch.Milliseconds()), slog.Int64("parse_ms", t.Parse.Milliseconds()),
		slog.Int64("checks_ms", t.Checks.Milliseconds()), slog.Int64("ai_ms", t.AI.Milliseconds()), slog.Int64("store_ms", t.Store.Milliseconds()))
	return t, nil
}

func ringScore(s scoring.Result, ring scoring.Ring) store.RingScore {
	rr := s.Ring(ring)
	return store.RingScore{Score: rr.Score, Grade: rr.Grade.Grade}
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// finished queues, in the transaction that gives a scan its final state,
// what follows it: the callback, and a scheduled scan's email.
func (r *Runner) finished(ctx context.Context, tx *store.Store, scan store.Scan) error {
	if r.Callbacks != nil {
		if err := r.Callbacks.QueueCallback(ctx, tx, scan); err != nil {
			return err
		}
	}
	if r.Emails != nil {
		return r.Emails.QueueEmail(ctx, tx, scan)
	}
	return nil
}

// fail ends a scan as failed and queues its callback, in one transaction.
// The write uses a fresh context: a scan that ran out of budget must still
// be recorded as failed. The message may quote what a site sent (a
// certificate name, an error text), so it is made storable.
func (r *Runner) fail(ctx context.Context, id uuid.UUID, code, message string) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := r.Store.InTx(wctx, func(tx *store.Store) error {
		failed, err := tx.FailScan(wctx, id, code, storable.Text(message))
		if err != nil {
			return err
		}
		return r.finished(wctx, tx, failed)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// internal handles an error of our own: retried while attempts remain,
// otherwise the scan fails with a sentence that blames us, not the site.
// An error caused by an interruption is not ours: the scan is left alone.
func (r *Runner) internal(ctx context.Context, id uuid.UUID, lastAttempt bool, err error) error {
	if ierr := interrupted(ctx); ierr != nil {
		r.Logger.Info("scan interrupted; it goes back to the queue", slog.String("scan_id", id.String()), slog.String("reason", err.Error()))
		return ierr
	}
	r.Logger.Error("scan error", slog.String("scan_id", id.String()), slog.Any("error", err))
	if !lastAttempt {
		return err
	}
	if ferr := r.fail(ctx, id, CodeInternal, "GeoScan could not finish this scan because of an internal error; it has been logged. Please try again."); ferr != nil {
		return errors.Join(err, ferr)
	}
	return nil
}

// Worker is the River worker of scan jobs.
type Worker struct {
	river.WorkerDefaults[Args]
	Runner *Runner
}

// Timeout gives each job the scan budget plus time to record the outcome.
func (w *Worker) Timeout(*river.Job[Args]) time.Duration { return w.Runner.Budget + recordTime }

// Work runs one scan job. A scan interrupted by the worker's shutdown
// returns an error River recognises as such (see interrupted): the job is
// available again at once, its attempt not counted, and the scan stays
// pending or running for the next worker to complete. A scan whose
// organization is over its share snoozes its job for HoldDelay; River does
// not count a snooze as an attempt, so a scan may wait any number of times.
func (w *Worker) Work(ctx context.Context, job *river.Job[Args]) error {
	budgetCtx, cancel := context.WithTimeoutCause(ctx, w.Runner.Budget, fetch.ErrBudget)
	defer cancel()
	_, err := w.Runner.Run(budgetCtx, job.Args.ScanID, job.Attempt >= job.MaxAttempts)
	if errors.Is(err, ErrOverShare) {
		return river.JobSnooze(HoldDelay)
	}
	return err
}

// SweepArgs is the periodic job that fails abandoned scans.
type SweepArgs struct{}

// Kind names the job type in the queue.
func (SweepArgs) Kind() string { return "scan_sweep" }

// InsertOpts runs sweeps on the scans queue, once each.
func (SweepArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: 1}
}

// Sweeper fails scans whose job can no longer run.
type Sweeper struct {
	river.WorkerDefaults[SweepArgs]
	Runner *Runner
	// Grace is how long an unfinished scan without a live job is left
	// alone (a job being inserted or rescued right now).
	Grace time.Duration
}

// Work fails every abandoned scan found.
func (w *Sweeper) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	ids, err := w.Runner.Store.AbandonedScans(ctx, w.Grace, 100)
	if err != nil {
		return err
	}
	for _, id := range ids {
		w.Runner.Logger.Warn("failing abandoned scan", slog.String("scan_id", id.String()))
		if err := w.Runner.fail(ctx, id, CodeAbandoned, "The scan was interrupted repeatedly and could not be finished. Please try again."); err != nil {
			return err
		}
	}
	return nil
}

// reportLanguage is the language the scan's report is written in for
// people: the one requested, else the homepage's declared one when there is
// a catalogue for it, else English.
func reportLanguage(requested *string, site *fetch.Site) string {
	var req, declared string
	if requested != nil {
		req = *requested
	}
	if site != nil && site.HomePage != nil {
		declared = site.HomePage.Lang
	}
	return i18n.Resolve(req, declared)
}
