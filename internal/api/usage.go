package api

import (
	"context"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/netguard"
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
	return u, nil
}

// GetScanPrice validates a URL as creating a scan would and says what the
// scan would cost and whether it can be created now.
func (s *Server) GetScanPrice(ctx context.Context, req api.GetScanPriceRequestObject) (api.GetScanPriceResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	target, err := s.checkTarget(ctx, req.Params.URL, apierror.CodeInvalidURL, "url")
	if err != nil {
		return nil, err
	}
	u, err := s.usage(ctx, p.OrgID)
	if err != nil {
		return nil, err
	}
	out := api.ScanPrice{
		URL: target.String(), Domain: target.Host, BrandName: netguard.RegistrableName(target.Host),
		Cost: 1, Unit: api.ScanPriceUnitScan, Allowed: true, Usage: u,
	}
	switch {
	case u.SubscriptionStatus != api.Active:
		r := api.SubscriptionRequired
		out.Allowed, out.Reason = false, &r
	case u.Remaining <= 0:
		r := api.DailyQuotaExhausted
		out.Allowed, out.Reason = false, &r
	}
	return api.GetScanPrice200JSONResponse{Body: out}, nil
}
