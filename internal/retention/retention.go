// Package retention deletes what has outlived its use, in one periodic job
// of the worker role: today the idempotency keys whose 24 hours have
// passed. Whatever else expires (rate-limit buckets, old page snapshots)
// joins as one more entry of sweeps.
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
// process starts.
const Interval = time.Hour

// sweep deletes one kind of expired data and says how many rows went.
type sweep struct {
	name   string
	delete func(ctx context.Context, st *store.Store) (int64, error)
}

var sweeps = []sweep{
	{"expired idempotency keys", func(ctx context.Context, st *store.Store) (int64, error) {
		return st.DeleteExpiredIdempotencyKeys(ctx)
	}},
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
}

// Work runs every sweep; one failing does not stop the others.
func (w *Worker) Work(ctx context.Context, _ *river.Job[Args]) error {
	var errs []error
	for _, s := range sweeps {
		n, err := s.delete(ctx, w.Store)
		if err != nil {
			errs = append(errs, fmt.Errorf("delete %s: %w", s.name, err))
			continue
		}
		if n > 0 {
			w.Logger.InfoContext(ctx, "deleted "+s.name, slog.Int64("rows", n))
		}
	}
	return errors.Join(errs...)
}
