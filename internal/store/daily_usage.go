package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

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

// consumeDailyScan takes one scan of the organization's quota for the UTC
// day of now, or returns ErrQuotaExhausted.
func (s *Store) consumeDailyScan(ctx context.Context, orgID uuid.UUID, now time.Time, limit int) error {
	_, err := s.q.ConsumeDailyScan(ctx, s.conn, db.ConsumeDailyScanParams{OrgID: orgID, Day: UTCDay(now), DailyLimit: int32(limit)})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ErrQuotaExhausted
	case err != nil:
		return fmt.Errorf("consume quota: %w", err)
	}
	return nil
}
