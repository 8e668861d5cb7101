package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// GetScanByID reads a scan without an organization scope (the runner).
func (s *Store) GetScanByID(ctx context.Context, id uuid.UUID) (Scan, error) {
	scan, err := s.q.GetScan(ctx, s.conn, id)
	return scan, notFound(err)
}

// StartScan moves a pending (or rescued running) scan to running. It
// returns ErrNotFound when the scan is gone or already finished: the job
// then has nothing left to do.
func (s *Store) StartScan(ctx context.Context, id uuid.UUID) (Scan, error) {
	scan, err := s.q.StartScan(ctx, s.conn, id)
	return scan, notFound(err)
}

// RingScore is one ring's score and grade.
type RingScore struct {
	Score int
	Grade string
}

// CheckRow is one check result to store.
type CheckRow struct {
	CheckID, Ring, Pillar, Status string
	Score                         *float64
	Weight                        float64
	Impact, Effort, Summary       string
	Evidence                      map[string]any
}

// Completion is the result of a finished scan.
type Completion struct {
	ScanID         uuid.UUID
	ScoringVersion string
	Overall        float64
	OverallGrade   string
	Search         RingScore
	Visibility     RingScore
	Trust          RingScore
	Checks         []CheckRow
	Report         any // JSON document
	// Triage is nil when the dossier could not be computed; the scan
	// completes without it.
	Triage *TriageDoc
	// Snapshot is what the scan fetched (fetch.Snapshot), nil to keep none.
	Snapshot       []byte
	SnapshotFormat int
}

// CompleteScan stores the check results, report, triage and snapshot and marks the scan
// completed, in one transaction; then runs after inside that transaction
// (webhook jobs go in with the state change, so neither exists without the
// other). It returns ErrNotFound when the scan is no longer running.
func (s *Store) CompleteScan(ctx context.Context, c Completion, after func(ctx context.Context, tx *Store, scan Scan) error) (Scan, error) {
	body, err := json.Marshal(c.Report)
	if err != nil {
		return Scan{}, fmt.Errorf("encode report: %w", err)
	}
	rows := make([]db.InsertCheckResultsParams, 0, len(c.Checks))
	for i, r := range c.Checks {
		evidence, err := json.Marshal(r.Evidence)
		if err != nil {
			return Scan{}, fmt.Errorf("encode evidence of %s: %w", r.CheckID, err)
		}
		row := db.InsertCheckResultsParams{
			ScanID: c.ScanID, CheckID: r.CheckID, Ring: r.Ring, Pillar: r.Pillar, Status: r.Status,
			Weight: float32(r.Weight), Impact: r.Impact, Effort: r.Effort, Summary: r.Summary,
			Evidence: evidence, Position: int32(i),
		}
		if r.Score != nil {
			v := float32(*r.Score)
			row.Score = &v
		}
		rows = append(rows, row)
	}
	var done Scan
	err = s.InTx(ctx, func(tx *Store) error {
		if err := tx.q.DeleteCheckResults(ctx, tx.conn, c.ScanID); err != nil {
			return fmt.Errorf("clear check results: %w", err)
		}
		if _, err := tx.q.InsertCheckResults(ctx, tx.conn, rows); err != nil {
			return fmt.Errorf("insert check results: %w", err)
		}
		if err := tx.q.UpsertReport(ctx, tx.conn, db.UpsertReportParams{ScanID: c.ScanID, ScoringVersion: c.ScoringVersion, Body: body}); err != nil {
			return fmt.Errorf("store report: %w", err)
		}
		i32 := func(v int) *int32 { x := int32(v); return &x }
		var err error
		done, err = tx.q.CompleteScan(ctx, tx.conn, db.CompleteScanParams{
			ID: c.ScanID, OverallScore: &c.Overall, OverallGrade: &c.OverallGrade,
			SearchScore: i32(c.Search.Score), SearchGrade: &c.Search.Grade,
			VisibilityScore: i32(c.Visibility.Score), VisibilityGrade: &c.Visibility.Grade,
			TrustScore: i32(c.Trust.Score), TrustGrade: &c.Trust.Grade,
			ScoringVersion: &c.ScoringVersion,
		})
		if err != nil {
			return notFound(err)
		}
		if c.Triage != nil {
			if err := tx.PutTriage(ctx, c.ScanID, *c.Triage); err != nil {
				return err
			}
		}
		if c.Snapshot != nil {
			if err := tx.PutSnapshot(ctx, c.ScanID, c.SnapshotFormat, c.Snapshot); err != nil {
				return err
			}
		}
		if after != nil {
			return after(ctx, tx, done)
		}
		return nil
	})
	return done, err
}

// FailScan marks a scan failed with a code and a sentence for the client,
// running after in the same transaction. ErrNotFound means it had already
// finished.
func (s *Store) FailScan(ctx context.Context, id uuid.UUID, code, message string, after func(ctx context.Context, tx *Store, scan Scan) error) (Scan, error) {
	var failed Scan
	err := s.InTx(ctx, func(tx *Store) error {
		var err error
		failed, err = tx.q.FailScan(ctx, tx.conn, db.FailScanParams{ID: id, ErrorCode: &code, ErrorMessage: &message})
		if err != nil {
			return notFound(err)
		}
		if after != nil {
			return after(ctx, tx, failed)
		}
		return nil
	})
	return failed, err
}

// AbandonedScans lists unfinished scans whose queue job no longer exists
// or will never run again (discarded or cancelled after a crash on its last
// attempt), untouched for longer than grace. The runner fails them so no
// scan stays running forever.
func (s *Store) AbandonedScans(ctx context.Context, grace time.Duration, limit int) ([]uuid.UUID, error) {
	rows, err := s.conn.Query(ctx, `
		SELECT s.id FROM scans s
		WHERE s.status IN ('pending', 'running') AND s.updated_at < now() - make_interval(secs => $1)
		  AND NOT EXISTS (SELECT 1 FROM river_job j WHERE j.id = s.job_id
		                  AND j.state IN ('available', 'pending', 'running', 'retryable', 'scheduled'))
		ORDER BY s.updated_at LIMIT $2`, grace.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("find abandoned scans: %w", err)
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
