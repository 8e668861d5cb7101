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

// Frequency is how often a schedule runs.
type Frequency string

// The frequencies.
const (
	Monthly   Frequency = "monthly"
	Quarterly Frequency = "quarterly"
)

// Schedule re-runs a homepage scan monthly or quarterly; an inactive one is
// soft-deleted. Its runs are dated from AnchorAt (package schedule owns the
// calendar); DueAt is the run it owes next, NextRunAt when that run is
// tried, later than DueAt while a skipped run waits for its retry.
type Schedule struct {
	ID             uuid.UUID
	OrgID          uuid.UUID
	OwnerMemberID  *uuid.UUID
	URL            string
	Domain         string
	BrandName      string
	BrandAliases   []string
	Frequency      Frequency
	NotifyEmail    bool
	Active         bool
	AnchorAt       time.Time
	DueAt          time.Time
	NextRunAt      time.Time
	LastRunAt      *time.Time
	LastScanID     *uuid.UUID
	LastSkipReason *string
	LastSkippedAt  *time.Time
	// NotifyTo is where the emails go when set (else the owner).
	NotifyTo *string
	// Language is what the schedule's scans are written in; nil is each
	// site's declared language.
	Language *string
	// Competitors are the competitors' sites its scans benchmark against.
	Competitors   []string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DeactivatedAt *time.Time
}

func scheduleOf(r db.Schedule) Schedule {
	return Schedule{
		ID: r.ID, OrgID: r.OrgID, OwnerMemberID: r.OwnerMemberID, URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: r.BrandAliases,
		Frequency: Frequency(r.Frequency), NotifyEmail: r.NotifyEmail, Active: r.Active,
		AnchorAt: r.AnchorAt, DueAt: r.DueAt, NextRunAt: r.NextRunAt, LastRunAt: r.LastRunAt, LastScanID: r.LastScanID,
		LastSkipReason: r.LastSkipReason, LastSkippedAt: r.LastSkippedAt, NotifyTo: r.NotifyTo, Language: r.Language, Competitors: nonNil(r.Competitors),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeactivatedAt: r.DeactivatedAt,
	}
}

// Cursor is the schedule's place in a list.
func (s Schedule) Cursor() Cursor { return Cursor{CreatedAt: s.CreatedAt, ID: s.ID} }

// The calendar rules of schedules live in package schedule; the methods
// below only read and write rows. A caller that changes a schedule
// together with its limit check or its run opens the transaction (InTx)
// and calls them in sequence.

// NewSchedule is what creating a schedule stores.
type NewSchedule struct {
	OrgID        uuid.UUID
	URL          string
	Domain       string
	BrandName    string
	BrandAliases []string
	Frequency    Frequency
	NotifyEmail  bool
	// NotifyTo is the address emails go to; nil sends them to the owner.
	NotifyTo *string
	// Language is the scans' language; nil is each site's declared one.
	Language *string
	// Competitors are the competitors' sites the scans benchmark against.
	Competitors []string
	// OwnerMemberID is the member whose key created the schedule.
	OwnerMemberID *uuid.UUID
	// AnchorAt is where the calendar of runs starts; DueAt its first run.
	AnchorAt time.Time
	DueAt    time.Time
}

// InsertSchedule stores a new schedule. ErrConflict means the organization
// already has one for the URL (a concurrent create won).
func (s *Store) InsertSchedule(ctx context.Context, n NewSchedule) (Schedule, error) {
	row, err := s.q.CreateSchedule(ctx, s.conn, db.CreateScheduleParams{
		OrgID: n.OrgID, URL: n.URL, Domain: n.Domain, BrandName: n.BrandName, BrandAliases: orEmpty(n.BrandAliases),
		Frequency: string(n.Frequency), NotifyEmail: n.NotifyEmail, NotifyTo: n.NotifyTo, Language: n.Language, Competitors: orEmpty(n.Competitors), OwnerMemberID: n.OwnerMemberID,
		AnchorAt: n.AnchorAt, DueAt: n.DueAt, NextRunAt: n.DueAt,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Schedule{}, ErrConflict
	}
	if err != nil {
		return Schedule{}, fmt.Errorf("insert schedule: %w", err)
	}
	return scheduleOf(row), nil
}

// LockOrganization serialises limit checks of one organization until the
// caller's transaction ends.
func (s *Store) LockOrganization(ctx context.Context, orgID uuid.UUID) error {
	if err := s.requireTx("LockOrganization"); err != nil {
		return err
	}
	return s.lockOrganization(ctx, orgID)
}

// GetScheduleByURL returns the organization's schedule of a normalized URL.
func (s *Store) GetScheduleByURL(ctx context.Context, orgID uuid.UUID, url string) (Schedule, error) {
	row, err := s.q.GetScheduleByURL(ctx, s.conn, db.GetScheduleByURLParams{OrgID: orgID, URL: url})
	return one(row, err, scheduleOf)
}

// CheckScheduleLimit returns ErrScheduleLimit when the organization has as
// many active schedules as its limits allow. Call it under
// LockOrganization so concurrent creates cannot overshoot.
func (s *Store) CheckScheduleLimit(ctx context.Context, orgID uuid.UUID) error {
	org, err := s.GetOrganization(ctx, orgID)
	if err != nil {
		return fmt.Errorf("read organization: %w", err)
	}
	active, err := s.q.CountActiveSchedules(ctx, s.conn, orgID)
	if err != nil {
		return fmt.Errorf("count schedules: %w", err)
	}
	if int(active) >= Limits(org).ActiveSchedules {
		return ErrScheduleLimit
	}
	return nil
}

// GetSchedule returns a schedule of the organization.
func (s *Store) GetSchedule(ctx context.Context, orgID, id uuid.UUID) (Schedule, error) {
	sc, err := s.q.GetScheduleForOrg(ctx, s.conn, db.GetScheduleForOrgParams{ID: id, OrgID: orgID})
	return one(sc, err, scheduleOf)
}

// LockSchedule reads a schedule of the organization and locks it until the
// caller's transaction ends.
func (s *Store) LockSchedule(ctx context.Context, orgID, id uuid.UUID) (Schedule, error) {
	if err := s.requireTx("LockSchedule"); err != nil {
		return Schedule{}, err
	}
	sc, err := s.q.GetScheduleForOrgForUpdate(ctx, s.conn, db.GetScheduleForOrgForUpdateParams{ID: id, OrgID: orgID})
	return one(sc, err, scheduleOf)
}

// ListSchedules returns up to limit schedules after cursor, newest first.
func (s *Store) ListSchedules(ctx context.Context, orgID uuid.UUID, active *bool, after *Cursor, limit int) ([]Schedule, error) {
	p := db.ListSchedulesForOrgParams{OrgID: orgID, Active: active, RowLimit: int32(limit)}
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	rows, err := s.q.ListSchedulesForOrg(ctx, s.conn, p)
	return all(rows, err, scheduleOf)
}

// CountActiveSchedules counts an organization's active schedules.
func (s *Store) CountActiveSchedules(ctx context.Context, orgID uuid.UUID) (int, error) {
	n, err := s.q.CountActiveSchedules(ctx, s.conn, orgID)
	return int(n), err
}

// ScheduleSettings are the fields a PATCH may change, with the calendar
// that follows from them.
type ScheduleSettings struct {
	Frequency   Frequency
	NotifyEmail bool
	NotifyTo    *string
	Language    *string
	Competitors []string
	Active      bool
	AnchorAt    time.Time
	DueAt       time.Time
	NextRunAt   time.Time
}

// SaveSchedule writes a schedule's settings; deactivated_at follows active.
func (s *Store) SaveSchedule(ctx context.Context, orgID, id uuid.UUID, v ScheduleSettings) (Schedule, error) {
	row, err := s.q.UpdateSchedule(ctx, s.conn, db.UpdateScheduleParams{
		ID: id, OrgID: orgID, Frequency: string(v.Frequency), NotifyEmail: v.NotifyEmail, NotifyTo: v.NotifyTo, Language: v.Language, Competitors: orEmpty(v.Competitors), Active: v.Active,
		AnchorAt: v.AnchorAt, DueAt: v.DueAt, NextRunAt: v.NextRunAt,
	})
	return one(row, err, scheduleOf)
}

// ClaimDueSchedule locks one active schedule whose next run is at or
// before now, of orgID when it is not nil, skipping rows other
// transactions hold and the ids in exclude. ErrNotFound means nothing
// (else) is due.
func (s *Store) ClaimDueSchedule(ctx context.Context, now time.Time, orgID *uuid.UUID, exclude []uuid.UUID) (Schedule, error) {
	if err := s.requireTx("ClaimDueSchedule"); err != nil {
		return Schedule{}, err
	}
	if exclude == nil {
		exclude = []uuid.UUID{}
	}
	row, err := s.q.ClaimDueSchedule(ctx, s.conn, db.ClaimDueScheduleParams{Now: now, OrgID: orgID, Exclude: exclude})
	return one(row, err, scheduleOf)
}

// MarkScheduleRun records that a run created scanID at ranAt and makes
// nextDue the next run.
func (s *Store) MarkScheduleRun(ctx context.Context, id uuid.UUID, ranAt time.Time, scanID uuid.UUID, nextDue time.Time) error {
	return s.q.MarkScheduleRun(ctx, s.conn, db.MarkScheduleRunParams{ID: id, RanAt: ranAt, ScanID: scanID, NextDueAt: nextDue})
}

// MarkScheduleSkipped records a skipped run and when it is tried again;
// the period it owes stays due.
func (s *Store) MarkScheduleSkipped(ctx context.Context, id uuid.UUID, reason string, skippedAt, retryAt time.Time) error {
	return s.q.MarkScheduleSkipped(ctx, s.conn, db.MarkScheduleSkippedParams{ID: id, Reason: reason, SkippedAt: skippedAt, RetryAt: retryAt})
}
