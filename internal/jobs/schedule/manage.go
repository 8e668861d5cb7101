package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/store"
)

// Create stores a schedule anchored at now whose first run is one period
// later, and returns (schedule, true); when the organization already has a
// schedule for the URL, active or not, it returns (existing, false)
// unchanged. The active-schedule limit is checked under a lock on the
// organization, so concurrent creates cannot overshoot it
// (store.ErrScheduleLimit). n's AnchorAt and DueAt are set here.
func Create(ctx context.Context, st *store.Store, n store.NewSchedule, now time.Time) (store.Schedule, bool, error) {
	f, err := ParseFrequency(n.Frequency)
	if err != nil {
		return store.Schedule{}, false, err
	}
	var (
		out     store.Schedule
		created bool
	)
	n.Frequency = f
	err = st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.LockOrganization(ctx, n.OrgID); err != nil {
			return err
		}
		existing, err := tx.GetScheduleByURL(ctx, n.OrgID, n.URL)
		if err == nil {
			out = existing
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("find schedule: %w", err)
		}
		if err := tx.CheckScheduleLimit(ctx, n.OrgID); err != nil {
			return err
		}
		n.AnchorAt = now.UTC()
		n.DueAt = Occurrence(n.AnchorAt, f, 1)
		if out, err = tx.InsertSchedule(ctx, n); err != nil {
			return err
		}
		created = true
		return nil
	})
	return out, created, err
}

// Change is a PATCH of a schedule; nil fields keep their value.
type Change struct {
	Frequency   *store.Frequency
	NotifyEmail *bool
	Active      *bool
	// SetNotifyTo says NotifyTo was sent; a nil NotifyTo then removes the
	// address, so emails go to the owner again.
	SetNotifyTo bool
	NotifyTo    *string
	// Language is the scans' language from now on.
	Language *string
	// Competitors replace the competitors' sites when not nil.
	Competitors *[]string
}

// Update applies c under locks on the organization and the schedule.
//
//   - Reactivating counts against the active-schedule limit
//     (store.ErrScheduleLimit) and re-anchors the schedule at now: the next
//     run is one period later.
//   - A new frequency keeps the anchor: the next run is the first date of
//     the new cadence after the last run (or after the anchor); when that
//     date has passed, the schedule is due at once.
//   - Deactivating stops the schedule; its dates are kept but never read
//     until it is reactivated.
func Update(ctx context.Context, st *store.Store, orgID, id uuid.UUID, c Change, now time.Time) (store.Schedule, error) {
	now = now.UTC()
	var out store.Schedule
	err := st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.LockOrganization(ctx, orgID); err != nil {
			return err
		}
		cur, err := tx.LockSchedule(ctx, orgID, id)
		if err != nil {
			return err
		}
		f, err := ParseFrequency(cur.Frequency)
		if err != nil {
			return err
		}
		v := store.ScheduleSettings{
			Frequency: cur.Frequency, NotifyEmail: cur.NotifyEmail, NotifyTo: cur.NotifyTo, Language: cur.Language, Competitors: cur.Competitors, Active: cur.Active,
			AnchorAt: cur.AnchorAt, DueAt: cur.DueAt, NextRunAt: cur.NextRunAt,
		}
		if c.NotifyEmail != nil {
			v.NotifyEmail = *c.NotifyEmail
		}
		if c.SetNotifyTo {
			v.NotifyTo = c.NotifyTo
		}
		if c.Language != nil {
			v.Language = c.Language
		}
		if c.Competitors != nil {
			v.Competitors = *c.Competitors
		}
		if c.Frequency != nil && *c.Frequency != f {
			f = *c.Frequency
			v.Frequency = f
			from := cur.AnchorAt
			if cur.LastRunAt != nil && cur.LastRunAt.After(from) {
				from = *cur.LastRunAt
			}
			v.DueAt = NextDue(cur.AnchorAt, f, from)
			v.NextRunAt = v.DueAt
			if v.NextRunAt.Before(now) {
				v.NextRunAt = now
			}
		}
		if c.Active != nil && *c.Active != cur.Active {
			v.Active = *c.Active
			if v.Active {
				if err := tx.CheckScheduleLimit(ctx, orgID); err != nil {
					return err
				}
				v.AnchorAt = now
				v.DueAt = Occurrence(now, f, 1)
				v.NextRunAt = v.DueAt
			}
		}
		out, err = tx.SaveSchedule(ctx, orgID, id, v)
		return err
	})
	return out, err
}

// Deactivate soft-deletes a schedule; an inactive one stays as it is.
func Deactivate(ctx context.Context, st *store.Store, orgID, id uuid.UUID, now time.Time) (store.Schedule, error) {
	inactive := false
	return Update(ctx, st, orgID, id, Change{Active: &inactive}, now)
}
