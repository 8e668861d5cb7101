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
// soft-deleted.
type Schedule struct {
	ID            uuid.UUID
	OrgID         uuid.UUID
	OwnerMemberID *uuid.UUID
	URL           string
	Domain        string
	BrandName     string
	BrandAliases  []string
	Frequency     Frequency
	NotifyEmail   bool
	Active        bool
	NextRunAt     time.Time
	LastRunAt     *time.Time
	LastScanID    *uuid.UUID
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DeactivatedAt *time.Time
}

func scheduleOf(r db.Schedule) Schedule {
	return Schedule{
		ID: r.ID, OrgID: r.OrgID, OwnerMemberID: r.OwnerMemberID, URL: r.URL, Domain: r.Domain, BrandName: r.BrandName, BrandAliases: r.BrandAliases,
		Frequency: Frequency(r.Frequency), NotifyEmail: r.NotifyEmail, Active: r.Active,
		NextRunAt: r.NextRunAt, LastRunAt: r.LastRunAt, LastScanID: r.LastScanID,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeactivatedAt: r.DeactivatedAt,
	}
}

// Cursor is the schedule's place in a list.
func (s Schedule) Cursor() Cursor { return Cursor{CreatedAt: s.CreatedAt, ID: s.ID} }

// NextRun is when a schedule of frequency runs next after from: one or three
// calendar months later, as Go's AddDate counts them (31 January + 1 month
// is 3 March).
func NextRun(frequency Frequency, from time.Time) time.Time {
	months := 3
	if frequency == Monthly {
		months = 1
	}
	return from.UTC().AddDate(0, months, 0)
}

// NewSchedule is what creating a schedule stores.
type NewSchedule struct {
	OrgID        uuid.UUID
	URL          string
	Domain       string
	BrandName    string
	BrandAliases []string
	Frequency    Frequency
	NotifyEmail  bool
}

// CreateSchedule returns (schedule, true) when it created one and
// (existing, false) when the organization already had one for the URL. The
// active-schedule limit is checked under a lock on the organization so
// concurrent creates cannot overshoot it.
func (s *Store) CreateSchedule(ctx context.Context, n NewSchedule, now time.Time) (Schedule, bool, error) {
	var (
		out     Schedule
		created bool
	)
	err := s.atomically(ctx, func(tx *Store) error {
		if err := tx.lockOrganization(ctx, n.OrgID); err != nil {
			return err
		}
		existing, err := tx.q.GetScheduleByURL(ctx, tx.conn, db.GetScheduleByURLParams{OrgID: n.OrgID, URL: n.URL})
		if err == nil {
			out = scheduleOf(existing)
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("find schedule: %w", err)
		}
		if err := tx.checkScheduleLimit(ctx, n.OrgID); err != nil {
			return err
		}
		row, err := tx.q.CreateSchedule(ctx, tx.conn, db.CreateScheduleParams{
			OrgID: n.OrgID, URL: n.URL, Domain: n.Domain, BrandName: n.BrandName, BrandAliases: orEmpty(n.BrandAliases),
			Frequency: string(n.Frequency), NotifyEmail: n.NotifyEmail, NextRunAt: NextRun(n.Frequency, now),
		})
		if err != nil {
			return fmt.Errorf("insert schedule: %w", err)
		}
		out, created = scheduleOf(row), true
		return nil
	})
	return out, created, err
}

func (s *Store) checkScheduleLimit(ctx context.Context, orgID uuid.UUID) error {
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

// ScheduleChange is a PATCH of a schedule; nil fields keep their value.
type ScheduleChange struct {
	Frequency   *Frequency
	NotifyEmail *bool
	Active      *bool
}

// UpdateSchedule applies c. Reactivating counts against the limit and sets
// the next run one period from now; a new frequency re-times the next run
// from the last run (or creation).
func (s *Store) UpdateSchedule(ctx context.Context, orgID, id uuid.UUID, c ScheduleChange, now time.Time) (Schedule, error) {
	var out Schedule
	err := s.atomically(ctx, func(tx *Store) error {
		if err := tx.lockOrganization(ctx, orgID); err != nil {
			return err
		}
		cur, err := tx.q.GetScheduleForOrgForUpdate(ctx, tx.conn, db.GetScheduleForOrgForUpdateParams{ID: id, OrgID: orgID})
		if err != nil {
			return notFound(err)
		}
		p := db.UpdateScheduleParams{
			ID: id, OrgID: orgID, Frequency: cur.Frequency, NotifyEmail: cur.NotifyEmail,
			Active: cur.Active, NextRunAt: cur.NextRunAt,
		}
		if c.NotifyEmail != nil {
			p.NotifyEmail = *c.NotifyEmail
		}
		if c.Frequency != nil && string(*c.Frequency) != cur.Frequency {
			p.Frequency = string(*c.Frequency)
			from := cur.CreatedAt
			if cur.LastRunAt != nil {
				from = *cur.LastRunAt
			}
			p.NextRunAt = NextRun(*c.Frequency, from)
			if p.NextRunAt.Before(now) {
				p.NextRunAt = now
			}
		}
		if c.Active != nil && *c.Active != cur.Active {
			p.Active = *c.Active
			if p.Active {
				if err := tx.checkScheduleLimit(ctx, orgID); err != nil {
					return err
				}
				p.NextRunAt = NextRun(Frequency(p.Frequency), now)
			}
		}
		row, err := tx.q.UpdateSchedule(ctx, tx.conn, p)
		out, err = one(row, err, scheduleOf)
		return err
	})
	return out, err
}

// DeactivateSchedule soft-deletes a schedule; an inactive one stays as it is.
func (s *Store) DeactivateSchedule(ctx context.Context, orgID, id uuid.UUID, now time.Time) (Schedule, error) {
	inactive := false
	return s.UpdateSchedule(ctx, orgID, id, ScheduleChange{Active: &inactive}, now)
}
