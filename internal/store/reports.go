package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Report is a row of reports.
type Report = db.Report

// GetReport returns the report of a scan.
func (s *Store) GetReport(ctx context.Context, scanID uuid.UUID) (Report, error) {
	r, err := s.q.GetReport(ctx, s.conn, scanID)
	return r, notFound(err)
}
