package scanner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/storable"
)

// TriageArgs is the job that computes the triage dossier of a completed
// scan again: queued when computing it at completion failed, or by
// `geoscan triage recompute --queue`.
type TriageArgs struct {
	ScanID uuid.UUID `json:"scan_id"`
}

// Kind names the job type in the queue.
func (TriageArgs) Kind() string { return "triage" }

// InsertOpts runs recomputations on the scans queue, at most one waiting or
// running per scan; a finished one does not block asking again.
func (TriageArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{
		ByArgs: true,
		ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
			rivertype.JobStateRunning, rivertype.JobStateScheduled,
		},
	}}
}

// TriageWorker is the River worker of TriageArgs.
type TriageWorker struct {
	river.WorkerDefaults[TriageArgs]
	Runner *Runner
}

// Timeout allows for fetching the site again when no snapshot exists.
func (w *TriageWorker) Timeout(*river.Job[TriageArgs]) time.Duration {
	return w.Runner.Budget + 5*time.Second
}

// Work recomputes one dossier; a scan that is gone or not completed ends
// the job without error.
func (w *TriageWorker) Work(ctx context.Context, job *river.Job[TriageArgs]) error {
	_, err := w.Runner.RecomputeTriage(ctx, job.Args.ScanID)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, ErrNotCompleted) {
		w.Runner.Logger.Info("triage recompute skipped", slog.String("scan_id", job.Args.ScanID.String()), slog.Any("reason", err))
		return nil
	}
	return err
}

// ErrNotCompleted is returned for a triage recompute of a scan that has
// not completed; the error returned says where the scan stands.
var ErrNotCompleted = errors.New("the scan has not completed")

// notCompletedError is ErrNotCompleted worded for the scan at hand:
// "scan … failed" or "scan … has not completed yet; it is running".
type notCompletedError struct {
	id     uuid.UUID
	status store.ScanStatus
}

func (e notCompletedError) Error() string {
	if e.status == store.ScanFailed {
		return fmt.Sprintf("scan %s failed, so it has no results to build a dossier from", e.id)
	}
	return fmt.Sprintf("scan %s has not completed yet; it %s", e.id, e.status.Phrase())
}

func (notCompletedError) Is(target error) bool { return target == ErrNotCompleted }

// Source says what a recomputed dossier was built from.
type Source string

// The sources.
const (
	FromSnapshot Source = "snapshot" // the pages the scan fetched
	FromRefetch  Source = "refetch"  // a fresh fetch: the scan kept no snapshot
)

// TriageBuilder computes a dossier at scan completion.
type TriageBuilder func(triage.Input) (triage.Stored, error)

// SetTriageBuilder replaces triage.Build at scan completion (nil restores
// it). Tests use it to make the computation fail; recomputations always
// use triage.Build.
func (r *Runner) SetTriageBuilder(b TriageBuilder) {
	if b == nil {
		r.triageBuilder.Store(nil)
		return
	}
	r.triageBuilder.Store(&b)
}

// queueTriage queues a recomputation inside the completing transaction when
// the dossier is missing, so it is filled in without anyone asking.
func queueTriage(ctx context.Context, tx *store.Store, scanID uuid.UUID) error {
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return nil //nolint:nilerr // not running under a queue worker (direct calls): nothing to queue with
	}
	if _, err := client.InsertTx(ctx, tx.Tx(), TriageArgs{ScanID: scanID}, nil); err != nil {
		return fmt.Errorf("queue triage recompute: %w", err)
	}
	return nil
}

// RecomputeTriage builds the dossier of a completed scan again from its
// stored check results and the snapshot of what it fetched, or from a
// fresh fetch of the site when the scan kept no snapshot (the dossier then
// says so in its caveats), and stores it.
func (r *Runner) RecomputeTriage(ctx context.Context, scanID uuid.UUID) (Source, error) {
	scan, err := r.Store.GetScanByID(ctx, scanID)
	if err != nil {
		return "", err
	}
	if scan.Status != store.ScanCompleted {
		return "", notCompletedError{id: scan.ID, status: scan.Status}
	}
	rows, err := r.Store.ListCheckResults(ctx, scan.ID)
	if err != nil {
		return "", fmt.Errorf("load check results: %w", err)
	}
	outcomes, err := outcomesOf(rows)
	if err != nil {
		return "", err
	}

	prior := &audit.Prior{Outcomes: outcomes}
	switch snap, err := r.Store.GetSnapshot(ctx, scan.ID); {
	case err == nil:
		prior.Snapshot = snap.Body
	case !errors.Is(err, store.ErrNotFound):
		return "", fmt.Errorf("load snapshot: %w", err)
	}
	switch rep, err := r.Store.GetReport(ctx, scan.ID); {
	case err == nil:
		// Only the lens is read: a body that does not parse leaves the
		// dossier without its agent-readiness note, nothing worse.
		var stored report.Stored
		if json.Unmarshal(rep.Body, &stored) == nil {
			prior.AgentReadiness = stored.AgentReadiness.Judged()
		}
	case !errors.Is(err, store.ErrNotFound):
		return "", fmt.Errorf("load report: %w", err)
	}
	target, err := url.Parse(scan.URL)
	if err != nil {
		return "", fmt.Errorf("stored URL: %w", err)
	}
	res, err := audit.Run(ctx, audit.Target{URL: target, ScanID: scan.ID, BrandName: scan.BrandName}, audit.Options{
		Fetcher: r.Fetcher, FetchBudget: r.Budget, Now: r.Now, Prior: prior,
	})
	if err != nil {
		return "", fmt.Errorf("recompute triage of %s: %w", scan.ID, err)
	}
	source := FromSnapshot
	if res.Refetched {
		source = FromRefetch
	}
	doc := res.Triage
	// The dossier quotes the site (see makeStorable).
	body, err := storable.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("encode triage: %w", err)
	}
	if err := r.Store.PutTriage(ctx, scan.ID, store.TriageDoc{SchemaVersion: triage.SchemaVersion, Body: body}); err != nil {
		return "", err
	}
	return source, nil
}

// outcomesOf turns stored check results back into outcomes; the engine
// recomputes the scores from their statuses, which is what produced them.
func outcomesOf(rows []store.CheckResult) ([]checks.Outcome, error) {
	outcomes := make([]checks.Outcome, 0, len(rows))
	for _, row := range rows {
		c := checks.Lookup(row.CheckID)
		if c == nil {
			continue // a check retired from the catalog since the scan
		}
		res := checks.Result{Status: checks.Status(row.Status), Summary: row.Summary}
		if len(row.Evidence) > 0 {
			if err := json.Unmarshal(row.Evidence, &res.Evidence); err != nil {
				return nil, fmt.Errorf("decode evidence of %s: %w", row.CheckID, err)
			}
		}
		outcomes = append(outcomes, checks.Outcome{Check: c, Result: res})
	}
	return outcomes, nil
}
