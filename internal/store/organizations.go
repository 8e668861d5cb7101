package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
	"github.com/geoscan/geoscan/internal/planlimits"
)

// SubscriptionStatus says whether an organization may create scans.
type SubscriptionStatus string

// The subscription states.
const (
	SubscriptionActive   SubscriptionStatus = "active"
	SubscriptionInactive SubscriptionStatus = "inactive"
)

func subscription(active bool) SubscriptionStatus {
	if active {
		return SubscriptionActive
	}
	return SubscriptionInactive
}

// Organization owns keys, members, scans and schedules.
type Organization struct {
	ID                 uuid.UUID
	Name               string
	Plan               string // "free" or "pro"
	SubscriptionStatus SubscriptionStatus
	// Overrides replace the plan's limits where set.
	Overrides planlimits.Overrides
	CreatedAt time.Time
	UpdatedAt time.Time
}

func organizationOf(r db.Organization) Organization {
	return Organization{
		ID: r.ID, Name: r.Name, Plan: r.Plan, SubscriptionStatus: SubscriptionStatus(r.SubscriptionStatus),
		Overrides: planlimits.Overrides{
			DailyScans:       r.DailyScanQuotaOverride,
			ActiveSchedules:  r.ScheduleLimitOverride,
			WritePerMinute:   r.RateLimitWriteOverride,
			ReadPerMinute:    r.RateLimitReadOverride,
			CrawlRate:        r.CrawlRateOverride,
			CrawlConcurrency: r.CrawlConcurrencyOverride,
		},
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// CreateOrganization creates an organization on plan ("free" or "pro").
func (s *Store) CreateOrganization(ctx context.Context, name, planName string, active bool) (Organization, error) {
	org, err := s.q.CreateOrganization(ctx, s.conn, db.CreateOrganizationParams{
		Name: name, Plan: planName, SubscriptionStatus: string(subscription(active)),
	})
	if err != nil {
		return Organization{}, fmt.Errorf("create organization: %w", err)
	}
	return organizationOf(org), nil
}

// GetOrganization returns one organization.
func (s *Store) GetOrganization(ctx context.Context, id uuid.UUID) (Organization, error) {
	org, err := s.q.GetOrganization(ctx, s.conn, id)
	return one(org, err, organizationOf)
}

// GetOrganizationByName returns the oldest organization with that name.
func (s *Store) GetOrganizationByName(ctx context.Context, name string) (Organization, error) {
	org, err := s.q.GetOrganizationByName(ctx, s.conn, name)
	return one(org, err, organizationOf)
}

// SetSubscription turns an organization's subscription on or off.
func (s *Store) SetSubscription(ctx context.Context, id uuid.UUID, active bool) (Organization, error) {
	org, err := s.q.SetSubscriptionStatus(ctx, s.conn, db.SetSubscriptionStatusParams{ID: id, SubscriptionStatus: string(subscription(active))})
	return one(org, err, organizationOf)
}

// SetPlan moves an organization to another plan.
func (s *Store) SetPlan(ctx context.Context, id uuid.UUID, planName string) (Organization, error) {
	org, err := s.q.SetOrganizationPlan(ctx, s.conn, db.SetOrganizationPlanParams{ID: id, Plan: planName})
	return one(org, err, organizationOf)
}

// SetOverrides replaces an organization's limit overrides (nil = plan value).
func (s *Store) SetOverrides(ctx context.Context, id uuid.UUID, o planlimits.Overrides) (Organization, error) {
	org, err := s.q.SetOrganizationOverrides(ctx, s.conn, db.SetOrganizationOverridesParams{
		ID:                       id,
		DailyScanQuotaOverride:   o.DailyScans,
		ScheduleLimitOverride:    o.ActiveSchedules,
		RateLimitWriteOverride:   o.WritePerMinute,
		RateLimitReadOverride:    o.ReadPerMinute,
		CrawlRateOverride:        o.CrawlRate,
		CrawlConcurrencyOverride: o.CrawlConcurrency,
	})
	return one(org, err, organizationOf)
}

// Limits returns the limits in force for org.
func Limits(org Organization) planlimits.Limits {
	return planlimits.For(org.Plan, org.Overrides)
}

// lockOrganization locks an organization until the end of the caller's
// transaction: limit checks of one organization run one after the other.
func (s *Store) lockOrganization(ctx context.Context, id uuid.UUID) error {
	if _, err := s.q.LockOrganization(ctx, s.conn, id); err != nil {
		return fmt.Errorf("lock organization: %w", notFound(err))
	}
	return nil
}
