package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// UTCDay is the quota day of t.
func UTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DailyUsage returns the scans an organization created on the UTC day of now.
func (s *Store) DailyUsage(ctx context.Context, orgID uuid.UUID, now time.Time) (int, error) {
	n, err := s.q.GetDailyUsage(ctx, s.conn, db.GetDailyUsageParams{OrgID: orgID, Day: UTCDay(now)})
	return int(n), err
}
