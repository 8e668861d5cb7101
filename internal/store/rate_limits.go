package store

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/gen/db"
)

// RateLimitHit is the outcome of one request against a rate-limit bucket:
// whether it was allowed, the bucket's theoretical arrival time after it,
// and the database's clock when it was decided.
type RateLimitHit struct {
	Allowed bool
	TAT     time.Time
	Now     time.Time
}

// HitRateLimit records one request against bucket under a GCRA limit whose
// burst refills over period with one request every emission, and says
// whether it is allowed. It is one atomic statement, so every process
// sharing the database sees the same count.
func (s *Store) HitRateLimit(ctx context.Context, bucket string, emission, period time.Duration) (RateLimitHit, error) {
	row, err := s.q.HitRateLimit(ctx, s.conn, db.HitRateLimitParams{
		Bucket: bucket, EmissionUs: emission.Microseconds(), PeriodUs: period.Microseconds(),
	})
	if err != nil {
		return RateLimitHit{}, err
	}
	return RateLimitHit{Allowed: row.Allowed, TAT: row.Tat, Now: row.Now}, nil
}

// DeleteExpiredRateLimits removes up to batch buckets whose allowance is
// whole again; they carry no state, so this never changes a decision.
func (s *Store) DeleteExpiredRateLimits(ctx context.Context, batch int) (int64, error) {
	return s.q.DeleteExpiredRateLimits(ctx, s.conn, int32(batch))
}
