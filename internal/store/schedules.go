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

// Schedule is a row of schedules.
type Schedule = db.Schedule

// NextRun is when a schedule of frequency runs next after from: one or three
// calendar months later, as Go's AddDate counts them (31 January + 1 month
// is 3 March).
func NextRun(frequency string, from time.Time) time.Time {
	months := 3
	if frequency == "monthly" {
		months = 1
	}
	return from.UTC().AddDate(0, months, 0)
}

// NewSchedule is what creating a schedule stores.
type NewSchedule struct {
	OrgID       uuid.UUID
	URL         string
	Domain      string
	BrandName   string
	Frequency   string
	NotifyEmail bool
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
		if _, err := tx.q.LockOrganization(ctx, tx.conn, n.OrgID); err != nil {
			return fmt.Errorf("lock organization: %w", notFound(err))
		}
		existing, err := tx.q.GetScheduleByURL(ctx, tx.conn, db.GetScheduleByURLParams{OrgID: n.OrgID, URL: n.URL})
		if err == nil {
			out = existing
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("find schedule: %w", err)
		}
		if err := tx.checkScheduleLimit(ctx, n.OrgID); err != nil {
			return err
		}
		out, err = tx.q.CreateSchedule(ctx, tx.conn, db.CreateScheduleParams{
			OrgID: n.OrgID, URL: n.URL, Domain: n.Domain, BrandName: n.BrandName,
			Frequency: n.Frequency, NotifyEmail: n.NotifyEmail, NextRunAt: NextRun(n.Frequency, now),
		})
		if err != nil {
			return fmt.Errorf("insert schedule: %w", err)
		}
		created = true
		return nil
	})
	return out, created, err
}

func (s *Store) checkScheduleLimit(ctx context.Context, orgID uuid.UUID) error {
	org, err := s.q.GetOrganization(ctx, s.conn, orgID)
	if err != nil {
		return fmt.Errorf("read organization: %w", notFound(err))
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
	return sc, notFound(err)
}

// ListSchedules returns up to limit schedules after cursor, newest first.
func (s *Store) ListSchedules(ctx context.Context, orgID uuid.UUID, active *bool, after *Cursor, limit int) ([]Schedule, error) {
	p := db.ListSchedulesForOrgParams{OrgID: orgID, Active: active, RowLimit: int32(limit)}
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	return s.q.ListSchedulesForOrg(ctx, s.conn, p)
}

// CountActiveSchedules counts an organization's active schedules.
func (s *Store) CountActiveSchedules(ctx context.Context, orgID uuid.UUID) (int, error) {
	n, err := s.q.CountActiveSchedules(ctx, s.conn, orgID)
	return int(n), err
}

// ScheduleChange is a PATCH of a schedule; nil fields keep their value.
type ScheduleChange struct {
	Frequency   *string
	NotifyEmail *bool
	Active      *bool
}

// UpdateSchedule applies c. Reactivating counts against the limit and sets
// the next run one period from now; a new frequency re-times the next run
// from the last run (or creation).
func (s *Store) UpdateSchedule(ctx context.Context, orgID, id uuid.UUID, c ScheduleChange, now time.Time) (Schedule, error) {
	var out Schedule
	err := s.atomically(ctx, func(tx *Store) error {
		if _, err := tx.q.LockOrganization(ctx, tx.conn, orgID); err != nil {
			return fmt.Errorf("lock organization: %w", notFound(err))
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
		if c.Frequency != nil && *c.Frequency != cur.Frequency {
			p.Frequency = *c.Frequency
			from := cur.CreatedAt
			if cur.LastRunAt != nil {
				from = *cur.LastRunAt
			}
			p.NextRunAt = NextRun(p.Frequency, from)
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
				p.NextRunAt = NextRun(p.Frequency, now)
			}
		}
		out, err = tx.q.UpdateSchedule(ctx, tx.conn, p)
		return notFound(err)
	})
	return out, err
}

// DeactivateSchedule soft-deletes a schedule; an inactive one stays as it is.
func (s *Store) DeactivateSchedule(ctx context.Context, orgID, id uuid.UUID, now time.Time) (Schedule, error) {
	inactive := false
	return s.UpdateSchedule(ctx, orgID, id, ScheduleChange{Active: &inactive}, now)
}
