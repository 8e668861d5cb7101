package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// CheckResult is one check's verdict in a scan, in the words of the
// catalog (ring, pillar and status as the checks name them).
type CheckResult struct {
	ScanID   uuid.UUID
	CheckID  string
	Ring     string
	Pillar   string
	Status   string
	Score    *float32
	Weight   float32
	Impact   string
	Effort   string
	Summary  string
	Evidence json.RawMessage
	Position int32
}

func checkResultOf(r db.CheckResult) CheckResult { return CheckResult(r) }

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
	rows, err := s.q.ListCheckResults(ctx, s.conn, scanID)
	return all(rows, err, checkResultOf)
}

// GetCheckResult returns one check result of a scan.
func (s *Store) GetCheckResult(ctx context.Context, scanID uuid.UUID, checkID string) (CheckResult, error) {
	r, err := s.q.GetCheckResult(ctx, s.conn, db.GetCheckResultParams{ScanID: scanID, CheckID: checkID})
	return one(r, err, checkResultOf)
}

// putCheckResults replaces the check results of a scan, in catalog order.
func (s *Store) putCheckResults(ctx context.Context, scanID uuid.UUID, checks []CheckRow) error {
	rows := make([]db.InsertCheckResultsParams, 0, len(checks))
	for i, r := range checks {
		evidence, err := json.Marshal(r.Evidence)
		if err != nil {
			return fmt.Errorf("encode evidence of %s: %w", r.CheckID, err)
		}
		row := db.InsertCheckResultsParams{
			ScanID: scanID, CheckID: r.CheckID, Ring: r.Ring, Pillar: r.Pillar, Status: r.Status,
			Weight: float32(r.Weight), Impact: r.Impact, Effort: r.Effort, Summary: r.Summary,
			Evidence: evidence, Position: int32(i),
		}
		if r.Score != nil {
			v := float32(*r.Score)
			row.Score = &v
		}
		rows = append(rows, row)
	}
	if err := s.q.DeleteCheckResults(ctx, s.conn, scanID); err != nil {
		return fmt.Errorf("clear check results: %w", err)
	}
	if _, err := s.q.InsertCheckResults(ctx, s.conn, rows); err != nil {
		return fmt.Errorf("insert check results: %w", err)
	}
	return nil
}
