package ratelimit

import (
	"context"

	"github.com/geoscan/geoscan/internal/store"
)

// Postgres keeps the buckets in the rate_limits table of the application
// database: one atomic upsert per take, timed by the database clock.
// Buckets whose allowance is whole again are deleted by the retention job
// (internal/retention), not on the request path.
type Postgres struct {
	store *store.Store
}

// NewPostgres returns a limiter over the store's database.
func NewPostgres(st *store.Store) *Postgres {
	return &Postgres{store: st}
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
