package store

import (
	"context"
	"encoding/json"
	"fmt"

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

// putReport stores (or replaces) the report of a scan.
func (s *Store) putReport(ctx context.Context, scanID uuid.UUID, scoringVersion string, report any) error {
	body, err := json.Marshal(report)
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := s.q.UpsertReport(ctx, s.conn, db.UpsertReportParams{ScanID: scanID, ScoringVersion: scoringVersion, Body: body}); err != nil {
		return fmt.Errorf("store report: %w", err)
	}
	return nil
}
