package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
	"github.com/geoscan/geoscan/internal/auth"
	"github.com/geoscan/geoscan/internal/plan"
)

// CreateOrganization creates an organization on plan ("free" or "pro").
func (s *Store) CreateOrganization(ctx context.Context, name, planName string, active bool) (Organization, error) {
	status := "active"
	if !active {
		status = "inactive"
	}
	org, err := s.q.CreateOrganization(ctx, s.conn, db.CreateOrganizationParams{Name: name, Plan: planName, SubscriptionStatus: status})
	if err != nil {
		return Organization{}, fmt.Errorf("create organization: %w", err)
	}
	return org, nil
}

// GetOrganization returns one organization.
func (s *Store) GetOrganization(ctx context.Context, id uuid.UUID) (Organization, error) {
	org, err := s.q.GetOrganization(ctx, s.conn, id)
	return org, notFound(err)
}

// GetOrganizationByName returns the oldest organization with that name.
func (s *Store) GetOrganizationByName(ctx context.Context, name string) (Organization, error) {
	org, err := s.q.GetOrganizationByName(ctx, s.conn, name)
	return org, notFound(err)
}

// SetSubscription turns an organization's subscription on or off.
func (s *Store) SetSubscription(ctx context.Context, id uuid.UUID, active bool) (Organization, error) {
	status := "active"
	if !active {
		status = "inactive"
	}
	org, err := s.q.SetSubscriptionStatus(ctx, s.conn, db.SetSubscriptionStatusParams{ID: id, SubscriptionStatus: status})
	return org, notFound(err)
}

// SetPlan moves an organization to another plan.
func (s *Store) SetPlan(ctx context.Context, id uuid.UUID, planName string) (Organization, error) {
	org, err := s.q.SetOrganizationPlan(ctx, s.conn, db.SetOrganizationPlanParams{ID: id, Plan: planName})
	return org, notFound(err)
}

// SetOverrides replaces an organization's limit overrides (nil = plan value).
func (s *Store) SetOverrides(ctx context.Context, id uuid.UUID, o plan.Overrides) (Organization, error) {
	org, err := s.q.SetOrganizationOverrides(ctx, s.conn, db.SetOrganizationOverridesParams{
		ID:                     id,
		DailyScanQuotaOverride: o.DailyScans,
		ScheduleLimitOverride:  o.ActiveSchedules,
		RateLimitWriteOverride: o.WritePerMinute,
		RateLimitReadOverride:  o.ReadPerMinute,
	})
	return org, notFound(err)
}

// Limits returns the limits in force for org.
func Limits(org Organization) plan.Limits {
	return plan.For(org.Plan, plan.Overrides{
		DailyScans:      org.DailyScanQuotaOverride,
		ActiveSchedules: org.ScheduleLimitOverride,
		WritePerMinute:  org.RateLimitWriteOverride,
		ReadPerMinute:   org.RateLimitReadOverride,
	})
}

// CreateAPIKey makes a new key for org and returns it in full, the only time
// it exists outside the caller's hands; only its hash is stored.
func (s *Store) CreateAPIKey(ctx context.Context, orgID uuid.UUID, name string) (string, APIKey, error) {
	key, err := auth.NewKey()
	if err != nil {
		return "", APIKey{}, fmt.Errorf("generate key: %w", err)
	}
	row, err := s.q.CreateAPIKey(ctx, s.conn, db.CreateAPIKeyParams{
		OrgID: orgID, Name: name, KeyHash: auth.HashKey(key), DisplayPrefix: auth.DisplayPrefix(key),
	})
	if err != nil {
		return "", APIKey{}, fmt.Errorf("insert api key: %w", notFound(err))
	}
	return key, row, nil
}

// ListAPIKeys lists an organization's keys, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, orgID uuid.UUID) ([]APIKey, error) {
	return s.q.ListAPIKeys(ctx, s.conn, orgID)
}

// GetAPIKey returns one key row.
func (s *Store) GetAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.GetAPIKey(ctx, s.conn, id)
	return k, notFound(err)
}

// RevokeAPIKey revokes a key; revoking twice keeps the first time.
func (s *Store) RevokeAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.RevokeAPIKey(ctx, s.conn, id)
	return k, notFound(err)
}

// LookupKey finds the principal of a key hash.
func (s *Store) LookupKey(ctx context.Context, hash []byte) (Principal, error) {
	p, err := s.q.GetAPIKeyPrincipal(ctx, s.conn, hash)
	return p, notFound(err)
}

// TouchAPIKey records that a key was used (at most once a minute in SQL).
func (s *Store) TouchAPIKey(ctx context.Context, id uuid.UUID) error {
	return s.q.TouchAPIKey(ctx, s.conn, id)
}

// UTCDay is the quota day of t.
func UTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DailyUsage returns the scans an organization created on the UTC day of now.
func (s *Store) DailyUsage(ctx context.Context, orgID uuid.UUID, now time.Time) (int, error) {
	n, err := s.q.GetDailyUsage(ctx, s.conn, db.GetDailyUsageParams{OrgID: orgID, Day: UTCDay(now)})
	return int(n), err
}

// CountActiveSchedules counts an organization's active schedules.
func (s *Store) CountActiveSchedules(ctx context.Context, orgID uuid.UUID) (int, error) {
	n, err := s.q.CountActiveSchedules(ctx, s.conn, orgID)
	return int(n), err
}
