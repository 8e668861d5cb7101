package api

import (
	"context"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
)

// GetUsage reports today's quota, the schedule allowance and rate limits.
func (s *Server) GetUsage(ctx context.Context, _ api.GetUsageRequestObject) (api.GetUsageResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	u, err := s.usage(ctx, p.OrgID)
	if err != nil {
		return nil, err
	}
	return api.GetUsage200JSONResponse{Body: u}, nil
}

func (s *Server) usage(ctx context.Context, orgID uuid.UUID) (api.Usage, error) {
	now := s.now()
	org, err := s.d.Store.GetOrganization(ctx, orgID)
	if err != nil {
		return api.Usage{}, err
	}
	used, err := s.d.Store.DailyUsage(ctx, orgID, now)
	if err != nil {
		return api.Usage{}, err
	}
	active, err := s.d.Store.CountActiveSchedules(ctx, orgID)
	if err != nil {
		return api.Usage{}, err
	}
	limits := store.Limits(org)
	day := store.UTCDay(now)
	u := api.Usage{
		Date:               openapi_types.Date{Time: day},
		Plan:               api.UsagePlan(org.Plan),
		SubscriptionStatus: api.UsageSubscriptionStatus(org.SubscriptionStatus),
		DailyLimit:         limits.DailyScans,
		Used:               used,
		Remaining:          max(limits.DailyScans-used, 0),
		ResetsAt:           day.Add(24 * time.Hour),
	}
	u.Schedules.Active, u.Schedules.Limit = active, limits.ActiveSchedules
	u.RateLimits.APIWrite, u.RateLimits.APIRead = limits.WritePerMinute, limits.ReadPerMinute
	u.RateLimits.APIRender = s.d.RenderPerMinute
	return u, nil
}
