package store

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/gen/db"
)

// RateLimitTake is the outcome of taking requests from a rate-limit bucket:
// how many were granted, the bucket's theoretical arrival time after the
// take, and the database's clock when it was decided.
type RateLimitTake struct {
	Granted int
	TAT     time.Time
	Now     time.Time
}

// TakeRateLimit takes up to n requests from bucket under a GCRA limit whose
// burst refills over period with one request every emission. It is one
// atomic statement, so every process sharing the database sees the same
// count; n = 1 is one request decided exactly.
func (s *Store) TakeRateLimit(ctx context.Context, bucket string, n int, emission, period time.Duration) (RateLimitTake, error) {
	row, err := s.q.TakeRateLimit(ctx, s.conn, db.TakeRateLimitParams{
		Bucket: bucket, N: int32(max(n, 1)), EmissionUs: max(emission.Microseconds(), 1), PeriodUs: period.Microseconds(),
	})
	if err != nil {
		return RateLimitTake{}, err
	}
	return RateLimitTake{Granted: int(row.Granted), TAT: row.Tat, Now: row.Now}, nil
}

// GiveRateLimit returns n requests taken from bucket and not spent.
func (s *Store) GiveRateLimit(ctx context.Context, bucket string, n int, emission time.Duration) error {
	return s.q.GiveRateLimit(ctx, s.conn, db.GiveRateLimitParams{
		Bucket: bucket, N: int32(n), EmissionUs: max(emission.Microseconds(), 1),
	})
}

// DeleteExpiredRateLimits removes up to batch buckets whose allowance is
// whole again; they carry no state, so this never changes a decision.
func (s *Store) DeleteExpiredRateLimits(ctx context.Context, batch int) (int64, error) {
	return s.q.DeleteExpiredRateLimits(ctx, s.conn, int32(batch))
}
