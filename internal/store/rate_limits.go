package store

import (
	"context"
	"time"

	"github.com/geoscan/geoscan/gen/db"
)

// RateLimitTake is the outcome of taking requests from a rate-limit bucket:
// how many were granted, the bucket's theoretical arrival time after the
// take, the database's clock when it was decided, and whether the grant
// was announced to the other processes.
type RateLimitTake struct {
	Granted   int
	TAT       time.Time
	Now       time.Time
	Announced bool
}

// TakeRateLimit takes up to n requests from bucket under a GCRA limit whose
// burst refills over period with one request every emission. It is one
// atomic statement, so every process sharing the database sees the same
// count; n = 1 is one request decided exactly. A grant is announced on
// the geoscan_ratelimit channel (ListenRateLimits) as origin's when origin
// is not empty.
func (s *Store) TakeRateLimit(ctx context.Context, bucket string, n int, emission, period time.Duration, origin string) (RateLimitTake, error) {
	row, err := s.q.TakeRateLimit(ctx, s.conn, db.TakeRateLimitParams{
		Bucket: bucket, N: int32(max(n, 1)), EmissionUs: max(emission.Microseconds(), 1), PeriodUs: period.Microseconds(),
		Origin: origin,
	})
	if err != nil {
		return RateLimitTake{}, err
	}
	return RateLimitTake{Granted: int(row.Granted), TAT: row.Tat, Now: row.Now, Announced: row.Announced}, nil
}

// ListenRateLimits opens the connection that receives the grants
// TakeRateLimit announces, as '<origin> <busy_us> <bucket>'.
func (s *Store) ListenRateLimits(ctx context.Context) (*Listener, error) {
	return s.listen(ctx, RateLimitListenerName, s.q.ListenRateLimits)
}

// RateLimitListenerName is the rate-limit listening connection's
// application_name.
const RateLimitListenerName = "geoscan rate limit listener"

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
