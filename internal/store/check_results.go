package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// CheckResult is a row of check_results.
type CheckResult = db.CheckResult

// CheckRow is one check result to store.
type CheckRow struct {
	CheckID, Ring, Pillar, Status string
	Score                         *float64
	Weight                        float64
	Impact, Effort, Summary       string
	Evidence                      map[string]any
}

// ListCheckResults returns a scan's check results in catalog order.
func (s *Store) ListCheckResults(ctx context.Context, scanID uuid.UUID) ([]CheckResult, error) {
	return s.q.ListCheckResults(ctx, s.conn, scanID)
}

// GetCheckResult returns one check result of a scan.
func (s *Store) GetCheckResult(ctx context.Context, scanID uuid.UUID, checkID string) (CheckResult, error) {
	r, err := s.q.GetCheckResult(ctx, s.conn, db.GetCheckResultParams{ScanID: scanID, CheckID: checkID})
	return r, notFound(err)
}
