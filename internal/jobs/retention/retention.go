// Package retention deletes what has outlived its use, in one periodic job
// of the worker role (River inserts it on the elected leader only, so one
// process sweeps at a time): idempotency keys whose 24 hours have passed,
// rate-limit buckets whose allowance is whole again, and the pages scans
// fetched once they are older than GEOSCAN_SNAPSHOT_RETENTION, and share
// links 90 days after they expired. Each sweep
// deletes in bounded batches and stops after a bounded number of them, so a
// run never holds locks or the queue for long; what is left goes in the
// next run. Something else that expires joins as one more entry of sweeps.
package retention

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/store"
)

// Queue is the River queue of the sweeps, apart from scans and callbacks.
const Queue = "retention"

// Interval is how often the sweeps run; each also runs when a worker
// process starts. Every minute, because the rate-limit buckets are written
// on every API request: a sweep with nothing to delete is one indexed
// probe per table.
const Interval = time.Minute

// ShareLinkGrace is how long an expired share link is kept: its owner
// still sees it listed, and its page still says it expired rather than
// that it never existed.
const ShareLinkGrace = 90 * 24 * time.Hour

// sweep deletes one kind of expired data, batch rows at a time.
type sweep struct {
	name string
	// batch rows per statement; at most maxBatches statements per run.
	batch, maxBatches int
	delete            func(ctx context.Context, batch int) (int64, error)
}

// Args is the job that runs every sweep once.
type Args struct{}

// Kind names the job type in the queue.
func (Args) Kind() string { return "retention" }

// InsertOpts runs sweeps once each: the next period tries again.
func (Args) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue, MaxAttempts: 1} }

// PeriodicJob schedules the sweeps every Interval, and at start.
func PeriodicJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(Interval),
		func() (river.JobArgs, *river.InsertOpts) { return Args{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}

// Worker runs the sweeps.
type Worker struct {
	river.WorkerDefaults[Args]
	Store  *store.Store
	Logger *slog.Logger
	// SnapshotRetention is how long the pages a scan fetched are kept
	// (GEOSCAN_SNAPSHOT_RETENTION); zero keeps them.
	SnapshotRetention time.Duration
	NowFunc           func() time.Time
}

func (w *Worker) now() time.Time {
	if w.NowFunc != nil {
		return w.NowFunc()
	}
	return time.Now()
}

func (w *Worker) sweeps() []sweep {
	out := []sweep{
		{"expired idempotency keys", 1000, 100, w.Store.DeleteExpiredIdempotencyKeys},
		// Without them a bucket is a whole allowance, exactly as with them:
		// deleting never changes a decision (see the rate_limits migration).
		{"expired rate-limit buckets", 1000, 100, w.Store.DeleteExpiredRateLimits},
	}
	shareCutoff := w.now().Add(-ShareLinkGrace)
	out = append(out, sweep{"share links long expired", 1000, 100, func(ctx context.Context, batch int) (int64, error) {
		return w.Store.DeleteExpiredShareLinks(ctx, shareCutoff, batch)
	}})
	if w.SnapshotRetention > 0 {
		cutoff := w.now().Add(-w.SnapshotRetention)
		// Snapshots are compressed pages of up to a few megabytes each:
		// smaller batches keep each statement short.
		out = append(out, sweep{"page snapshots past their retention", 50, 20, func(ctx context.Context, batch int) (int64, error) {
			return w.Store.DeleteSnapshotsBefore(ctx, cutoff, batch)
		}})
	}
	return out
}

// Work runs every sweep; one failing does not stop the others.
func (w *Worker) Work(ctx context.Context, _ *river.Job[Args]) error {
	var errs []error
	for _, s := range w.sweeps() {
		var total int64
		for range s.maxBatches {
			n, err := s.delete(ctx, s.batch)
			total += n
			if err != nil {
				errs = append(errs, fmt.Errorf("delete %s: %w", s.name, err))
				break
			}
			if n < int64(s.batch) {
				break
			}
		}
		if total > 0 {
			w.Logger.InfoContext(ctx, "deleted "+s.name, slog.Int64("rows", total))
		}
	}
	return errors.Join(errs...)
}
