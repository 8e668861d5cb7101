package ratelimit

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/internal/store"
)

// Postgres keeps the buckets in the rate_limits table of the application
// database: one atomic upsert per take, timed by the database clock.
// Buckets whose allowance is whole again are deleted by the retention job
// (internal/jobs/retention), not on the request path. Grants of leased limits
// are announced on the geoscan_ratelimit channel by the same statement.
type Postgres struct {
	store  *store.Store
	origin string
}

// NewPostgres returns a limiter over the store's database.
func NewPostgres(st *store.Store) *Postgres {
	return &Postgres{store: st, origin: newOrigin()}
}

// Allow implements Limiter: one request, decided exactly by the database.
// It announces nothing: a limiter used this way holds no lease.
func (p *Postgres) Allow(ctx context.Context, bucket string, limit Limit) (Result, error) {
	g, err := p.take(ctx, bucket, limit, 1, "")
	if err != nil {
		return Result{}, err
	}
	return g.result(limit), nil
}

// Take implements Backend: one atomic upsert, which announces a grant of a
// leased limit.
func (p *Postgres) Take(ctx context.Context, bucket string, limit Limit, n int) (Grant, error) {
	origin := ""
	if announced(limit) {
		origin = p.origin
	}
	return p.take(ctx, bucket, limit, n, origin)
}

func (p *Postgres) take(ctx context.Context, bucket string, limit Limit, n int, origin string) (Grant, error) {
	hit, err := p.store.TakeRateLimit(ctx, bucket, n, limit.emission(), limit.Period, origin)
	if err != nil {
		return Grant{}, err
	}
	return grant(limit, hit.Granted, hit.TAT.Sub(hit.Now)), nil
}

// Give implements Backend. Giving back is not announced: other processes'
// views then understate what is left, by no more than was given back.
func (p *Postgres) Give(ctx context.Context, bucket string, limit Limit, n int) error {
	if n <= 0 {
		return nil
	}
	return p.store.GiveRateLimit(ctx, bucket, n, limit.emission())
}

// Listen implements Announcer with LISTEN on a connection of its own.
func (p *Postgres) Listen(ctx context.Context, ready func(), heard func(bucket string, busy time.Duration)) error {
	l, err := p.store.ListenRateLimits(ctx)
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = l.Close(cctx)
	}()
	ready()
	for {
		payload, err := l.Wait(ctx)
		if err != nil {
			return err
		}
		hear(p.origin, payload, heard)
	}
}
