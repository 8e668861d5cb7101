package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/store"
)

// Why a run was skipped. The period stays owed and is tried again at
// RetryAt.
const (
	SkipSubscriptionInactive = "subscription_inactive"
	SkipQuotaExhausted       = "quota_exhausted"
)

// SubscriptionRetry is how long a run skipped for an inactive subscription
// waits before it is tried again: often enough that a renewed subscription
// gets its scan the same day, rarely enough to cost nothing.
const SubscriptionRetry = 6 * time.Hour

// RetryAt is when a run skipped at at for reason is tried again: an
// exhausted daily quota at the next 00:00 UTC, when it resets; an inactive
// subscription SubscriptionRetry later.
func RetryAt(reason string, at time.Time) time.Time {
	if reason == SkipQuotaExhausted {
		return store.UTCDay(at).Add(24 * time.Hour)
	}
	return at.UTC().Add(SubscriptionRetry)
}

// MaxRunsPerTick bounds one tick; schedules still due wait for the next.
const MaxRunsPerTick = 1000

// Scheduler creates the scans of due schedules.
type Scheduler struct {
	Store *store.Store
	// Scans queues the run of each new scan, as for a scan created through
	// the API.
	Scans   *scanner.Queuer
	Logger  *slog.Logger
	NowFunc func() time.Time
}

// Now is the scheduler's clock.
func (s *Scheduler) Now() time.Time {
	if s.NowFunc != nil {
		return s.NowFunc().UTC()
	}
	return time.Now().UTC()
}

// Run is what one tick did for one schedule.
type Run struct {
	ScheduleID uuid.UUID
	OrgID      uuid.UUID
	// DueAt is the period served.
	DueAt time.Time
	// ScanID is the scan created; nil when the run was skipped.
	ScanID *uuid.UUID
	// SkipReason and RetryAt say why a run was skipped and when it is
	// tried again.
	SkipReason string
	RetryAt    time.Time
	// NextRunAt is the schedule's next run after this one.
	NextRunAt time.Time
}

// Tick serves every active schedule due at at, each in its own
// transaction: the schedule is claimed (FOR UPDATE SKIP LOCKED), its scan
// created the way POST /scans creates one (the schedule's URL, brand and
// brand aliases; subscription and quota checked, quota taken, job queued) and its next run advanced, all committed
// together, so a schedule is served once however many ticks run at the
// same time, and a crash leaves it due rather than half-served. A skipped
// run is recorded with its reason and retried later for the same period.
// A schedule whose run fails for an internal reason is left due for the
// next tick; the errors are returned together after the others are served.
func (s *Scheduler) Tick(ctx context.Context, at time.Time) ([]Run, error) {
	return s.tick(ctx, at, nil)
}

// TickOrg is Tick limited to one organization's schedules: an operator
// serving one customer by hand (after raising its quota, say).
func (s *Scheduler) TickOrg(ctx context.Context, at time.Time, orgID uuid.UUID) ([]Run, error) {
	return s.tick(ctx, at, &orgID)
}

func (s *Scheduler) tick(ctx context.Context, at time.Time, orgID *uuid.UUID) ([]Run, error) {
	at = at.UTC()
	var (
		runs   []Run
		failed []uuid.UUID
		errs   []error
	)
	for len(runs)+len(failed) < MaxRunsPerTick {
		var (
			claimed *store.Schedule
			run     Run
		)
		err := s.Store.InTx(ctx, func(tx *store.Store) error {
			sc, err := tx.ClaimDueSchedule(ctx, at, orgID, failed)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("claim due schedule: %w", err)
			}
			claimed = &sc
			run, err = s.serve(ctx, tx, sc, at)
			return err
		})
		if claimed == nil {
			if err != nil {
				errs = append(errs, err)
			}
			break
		}
		if err != nil {
			failed = append(failed, claimed.ID)
			errs = append(errs, fmt.Errorf("schedule %s: %w", claimed.ID, err))
			s.Logger.Error("scheduled run failed; the schedule stays due", slog.String("schedule_id", claimed.ID.String()), slog.Any("error", err))
			if ctx.Err() != nil {
				break
			}
			continue
		}
		runs = append(runs, run)
		s.log(run)
	}
	return runs, errors.Join(errs...)
}

// serve runs one claimed schedule inside the claiming transaction.
func (s *Scheduler) serve(ctx context.Context, tx *store.Store, sc store.Schedule, at time.Time) (Run, error) {
	f, err := ParseFrequency(sc.Frequency)
	if err != nil {
		return Run{}, err
	}
	run := Run{ScheduleID: sc.ID, OrgID: sc.OrgID, DueAt: sc.DueAt.UTC()}
	rec := store.ScheduleRunRecord{ScheduleID: sc.ID, OrgID: sc.OrgID, DueAt: sc.DueAt, RanAt: at}

	scheduleID := sc.ID
	n := store.NewScan{
		OrgID: sc.OrgID, ScheduleID: &scheduleID, Source: store.SourceSchedule,
		URL: sc.URL, Domain: sc.Domain, BrandName: sc.BrandName, BrandAliases: sc.BrandAliases,
		Language: sc.Language, Competitors: sc.Competitors,
	}
	scan, err := tx.CreateScan(ctx, n, at)
	var ce *store.CompetitorsError
	if errors.As(err, &ce) {
		// The plan allows fewer competitors than when the schedule was
		// set: benchmark against the first ones rather than skip the run.
		n.Competitors = n.Competitors[:ce.Limit]
		scan, err = tx.CreateScan(ctx, n, at)
	}
	switch {
	case errors.Is(err, store.ErrNoSubscription):
		run.SkipReason = SkipSubscriptionInactive
	case errors.Is(err, store.ErrQuotaExhausted):
		run.SkipReason = SkipQuotaExhausted
	case err != nil:
		return Run{}, fmt.Errorf("create scan: %w", err)
	}

	if run.SkipReason != "" {
		run.RetryAt = RetryAt(run.SkipReason, at)
		run.NextRunAt = run.RetryAt
		rec.SkipReason = run.SkipReason
		if err := tx.RecordScheduleRun(ctx, rec); err != nil {
			return Run{}, err
		}
		if err := tx.MarkScheduleSkipped(ctx, sc.ID, run.SkipReason, at, run.RetryAt); err != nil {
			return Run{}, fmt.Errorf("mark schedule skipped: %w", err)
		}
		return run, nil
	}

	if err := s.Scans.Enqueue(ctx, tx, scan.ID); err != nil {
		return Run{}, err
	}
	run.ScanID, rec.ScanID = &scan.ID, &scan.ID
	run.NextRunAt = NextDue(sc.AnchorAt, f, at)
	if err := tx.RecordScheduleRun(ctx, rec); err != nil {
		return Run{}, err
	}
	if err := tx.MarkScheduleRun(ctx, sc.ID, at, scan.ID, run.NextRunAt); err != nil {
		return Run{}, fmt.Errorf("mark schedule run: %w", err)
	}
	return run, nil
}

func (s *Scheduler) log(r Run) {
	attrs := []any{
		slog.String("schedule_id", r.ScheduleID.String()), slog.String("org_id", r.OrgID.String()),
		slog.Time("due_at", r.DueAt), slog.Time("next_run_at", r.NextRunAt),
	}
	if r.ScanID != nil {
		s.Logger.Info("scheduled scan created", append(attrs, slog.String("scan_id", r.ScanID.String()))...)
		return
	}
	s.Logger.Info("scheduled run skipped", append(attrs, slog.String("reason", r.SkipReason), slog.Time("retry_at", r.RetryAt))...)
}

// Queue is the River queue of the scheduler's ticks, apart from scans so a
// backlog of scans never delays creating the next ones.
const Queue = "schedules"

// TickArgs is the periodic job of the scheduler. River inserts it only on
// the elected leader, so one tick runs per interval across all processes;
// the row locks in Tick make a second one (a leader change, a manual
// `geoscan schedule tick`) harmless.
type TickArgs struct{}

// Kind names the job type in the queue.
func (TickArgs) Kind() string { return "schedule_tick" }

// InsertOpts keeps at most one tick waiting or running; a failed tick is
// not retried, the next one comes an interval later.
func (TickArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{
		ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
			rivertype.JobStateRunning, rivertype.JobStateScheduled,
		},
	}}
}

// TickWorker is the River worker of TickArgs.
type TickWorker struct {
	river.WorkerDefaults[TickArgs]
	Scheduler *Scheduler
}

// Work serves the schedules due now.
func (w *TickWorker) Work(ctx context.Context, _ *river.Job[TickArgs]) error {
	_, err := w.Scheduler.Tick(ctx, w.Scheduler.Now())
	return err
}
