package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Report is the stored report of a completed scan: one JSON document
// (report.Stored) read whole.
type Report struct {
	ScanID         uuid.UUID
	ScoringVersion string
	Body           json.RawMessage
	CreatedAt      time.Time
}

func reportOf(r db.Report) Report { return Report(r) }

// GetReport returns the report of a scan.
func (s *Store) GetReport(ctx context.Context, scanID uuid.UUID) (Report, error) {
	r, err := s.q.GetReport(ctx, s.conn, scanID)
	return one(r, err, reportOf)
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
