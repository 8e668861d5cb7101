package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// RunOutcome is what one period of a schedule came to.
type RunOutcome string

// The outcomes.
const (
	RunScanned RunOutcome = "scanned"
	RunSkipped RunOutcome = "skipped"
)

// ScheduleRunRecord is the outcome of one try at a period of a schedule.
type ScheduleRunRecord struct {
	ScheduleID uuid.UUID
	OrgID      uuid.UUID
	// DueAt names the period.
	DueAt time.Time
	RanAt time.Time
	// ScanID is set when the run created a scan; SkipReason otherwise.
	ScanID     *uuid.UUID
	SkipReason string
}

// RecordScheduleRun stores the outcome of a run; a retry of a skipped
// period updates that period's row.
func (s *Store) RecordScheduleRun(ctx context.Context, r ScheduleRunRecord) error {
	p := db.RecordScheduleRunParams{
		ScheduleID: r.ScheduleID, OrgID: r.OrgID, DueAt: r.DueAt, RanAt: r.RanAt,
		Outcome: string(RunScanned), ScanID: r.ScanID,
	}
	if r.ScanID == nil {
		p.Outcome, p.SkipReason = string(RunSkipped), &r.SkipReason
	}
	if _, err := s.q.RecordScheduleRun(ctx, s.conn, p); err != nil {
		return fmt.Errorf("record schedule run: %w", err)
	}
	return nil
}

// ScheduleRun is one period of a schedule with the state of its scan.
type ScheduleRun struct {
	ID         uuid.UUID
	ScheduleID uuid.UUID
	DueAt      time.Time
	Outcome    RunOutcome
	SkipReason *string
	Attempts   int
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// ScanID is nil for a skipped period or a scan deleted since; the
	// scan's fields are nil with it.
	ScanID       *uuid.UUID
	ScanStatus   *ScanStatus
	OverallScore *float64
	OverallGrade *string
	ErrorCode    *string
	// EmailStatus is what became of the scan's email (an Email* state),
	// nil until the scan finished; EmailDetail says why it was skipped or
	// failed.
	EmailStatus *string
	EmailDetail *string
}

func scheduleRunOf(r db.ListScheduleRunsRow) ScheduleRun {
	out := ScheduleRun{
		ID: r.ID, ScheduleID: r.ScheduleID, DueAt: r.DueAt, Outcome: RunOutcome(r.Outcome), SkipReason: r.SkipReason,
		Attempts: int(r.Attempts), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		ScanID: r.ScanID, OverallScore: r.OverallScore, OverallGrade: r.OverallGrade, ErrorCode: r.ErrorCode,
		EmailStatus: r.EmailStatus, EmailDetail: r.EmailDetail,
	}
	if r.ScanStatus != nil {
		st := ScanStatus(*r.ScanStatus)
		out.ScanStatus = &st
	}
	return out
}

// Cursor is the run's place in a list.
func (r ScheduleRun) Cursor() Cursor { return Cursor{CreatedAt: r.CreatedAt, ID: r.ID} }

// ListScheduleRuns returns up to limit runs of a schedule after cursor,
// newest first. The caller has checked that the schedule belongs to the
// organization.
func (s *Store) ListScheduleRuns(ctx context.Context, scheduleID uuid.UUID, after *Cursor, limit int) ([]ScheduleRun, error) {
	p := db.ListScheduleRunsParams{ScheduleID: scheduleID, RowLimit: int32(limit)}
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	rows, err := s.q.ListScheduleRuns(ctx, s.conn, p)
	return all(rows, err, scheduleRunOf)
}

// SetScheduleRunEmail records what became of the email of a scheduled
// scan on its run; detail says why for skipped and failed.
func (s *Store) SetScheduleRunEmail(ctx context.Context, scanID uuid.UUID, status string, detail *string) error {
	return s.q.SetScheduleRunEmail(ctx, s.conn, db.SetScheduleRunEmailParams{ScanID: &scanID, EmailStatus: &status, EmailDetail: detail})
}
