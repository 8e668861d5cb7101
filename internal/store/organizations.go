package store

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
	"github.com/geoscan/geoscan/internal/plan"
)

// Organization is a row of organizations.
type Organization = db.Organization

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
