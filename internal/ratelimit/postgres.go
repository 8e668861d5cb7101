package ratelimit

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/geoscan/geoscan/internal/store"
)

// Postgres keeps the buckets in the rate_limits table of the application
// database: one atomic upsert per take, timed by the database clock.
// Buckets whose allowance is whole again are deleted opportunistically, at
// most once per SweepInterval per process, off the request path.
type Postgres struct {
	store  *store.Store
	logger *slog.Logger
	// SweepInterval is how often this process deletes expired buckets.
	SweepInterval time.Duration

	lastSweep atomic.Int64
	sweeping  atomic.Bool
}

// NewPostgres returns a limiter over the store's database.
func NewPostgres(st *store.Store, logger *slog.Logger) *Postgres {
	p := &Postgres{store: st, logger: logger, SweepInterval: time.Minute}
	p.lastSweep.Store(time.Now().UnixNano())
	return p
}

// Allow implements Limiter: one request, decided exactly by the database.
func (p *Postgres) Allow(ctx context.Context, bucket string, limit Limit) (Result, error) {
	g, err := p.Take(ctx, bucket, limit, 1)
	if err != nil {
		return Result{}, err
	}
	return g.result(limit), nil
}

// Take implements Backend: one atomic upsert.
func (p *Postgres) Take(ctx context.Context, bucket string, limit Limit, n int) (Grant, error) {
	p.maybeSweep(ctx)
	e := limit.emission()
	hit, err := p.store.TakeRateLimit(ctx, bucket, n, e, limit.Period)
	if err != nil {
		return Grant{}, err
	}
	return grant(limit, hit.Granted, hit.TAT.Sub(hit.Now)), nil
}

// Give implements Backend.
func (p *Postgres) Give(ctx context.Context, bucket string, limit Limit, n int) error {
	if n <= 0 {
		return nil
	}
	return p.store.GiveRateLimit(ctx, bucket, n, limit.emission())
}

const sweepBatch = 1000

// Sweep deletes buckets whose allowance is whole again, in batches.
func (p *Postgres) Sweep(ctx context.Context) (int64, error) {
	var total int64
	for range 100 {
		n, err := p.store.DeleteExpiredRateLimits(ctx, sweepBatch)
		total += n
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
	return total, nil
}

func (p *Postgres) maybeSweep(ctx context.Context) {
	now := time.Now().UnixNano()
	last := p.lastSweep.Load()
	if now-last < int64(p.SweepInterval) || !p.lastSweep.CompareAndSwap(last, now) || !p.sweeping.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer p.sweeping.Store(false)
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if n, err := p.Sweep(ctx); err != nil {
			p.logger.WarnContext(ctx, "delete expired rate limit buckets", slog.String("error", err.Error()))
		} else if n > 0 {
			p.logger.DebugContext(ctx, "deleted expired rate limit buckets", slog.Int64("buckets", n))
		}
	}()
}
