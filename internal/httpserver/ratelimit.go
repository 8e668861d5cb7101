package httpserver

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/auth"
	"github.com/geoscan/geoscan/internal/plan"
	"github.com/geoscan/geoscan/internal/ratelimit"
	"github.com/geoscan/geoscan/internal/store"
)

// RateLimits configure both layers; a nil Limiter turns them off.
type RateLimits struct {
	Limiter ratelimit.Limiter
	// IPPerMinute is the per-client-address limit under /api/.
	IPPerMinute int
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
}

// ipExtractor names the client of a request: the TCP peer, unless the peer
// is a configured proxy, in which case X-Forwarded-For is read from the
// right, skipping trusted proxies. Echo trusts loopback and private
// networks by default; here nothing is trusted unless configured, so a
// client cannot choose its own address by sending the header.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// ipRateLimit is the layer before authentication: every request under
// /api/ counts against its client address, so guessing keys is slow and a
// flood of bad keys never reaches the key lookup.
func ipRateLimit(guard *ratelimit.Guard, perMinute int) echo.MiddlewareFunc {
	limit := ratelimit.PerMinute(perMinute)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			path := c.Request().URL.Path
			if path != "/api" && !strings.HasPrefix(path, "/api/") {
				return next(c)
			}
			res, ok := guard.Check(c.Request().Context(), ratelimit.IPBucket(c.RealIP()), limit)
			if ok {
				ratelimit.SetHeaders(c.Response().Header(), ratelimit.GroupIP, res, time.Now())
			}
			if !res.Allowed {
				retry := ratelimit.RetryAfterSeconds(res)
				e := apierror.New(apierror.CodeIPRateLimit, "", "Too many requests from this address: the limit is %d per minute; retry in %d seconds.", limit.Rate, retry)
				e.RetryAfter = retry
				return e
			}
			return next(c)
		}
	}
}

const rateLimitedKey = "geoscan.ratelimited"

// orgLimitsTTL is how long a process reuses an organization's limits: a
// changed plan or override applies within this time, and a busy
// organization costs one query less per request.
const orgLimitsTTL = 5 * time.Second

// orgLimitCache keeps organizations' limits for orgLimitsTTL.
type orgLimitCache struct {
	store *store.Store

	mu      sync.Mutex
	entries map[uuid.UUID]cachedLimits
}

type cachedLimits struct {
	limits  plan.Limits
	expires time.Time
}

func (c *orgLimitCache) get(ctx context.Context, org uuid.UUID) (plan.Limits, error) {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.entries[org]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.limits, nil
	}
	o, err := c.store.GetOrganization(ctx, org)
	if err != nil {
		return plan.Limits{}, err
	}
	l := store.Limits(o)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= 10000 {
		// Bounded: starting over costs one query per organization.
		c.entries = map[uuid.UUID]cachedLimits{}
	}
	c.entries[org] = cachedLimits{limits: l, expires: now.Add(orgLimitsTTL)}
	return l, nil
}

// orgRateLimit is the layer after authentication: the request counts
// against its organization's api_write or api_read limit, from the plan
// and the organization's overrides. It runs inside authentication, before
// parameter and body validation, so every authenticated request counts and
// a refused one has no effect. The headers it sets replace the IP layer's.
func orgRateLimit(ctx context.Context, ec echo.Context, guard *ratelimit.Guard, orgs *orgLimitCache, p auth.Principal) error {
	if ec.Get(rateLimitedKey) != nil {
		return nil // counted already (an operation may list several security requirements)
	}
	ec.Set(rateLimitedKey, true)
	limits, err := orgs.get(ctx, p.OrgID)
	if err != nil {
		return err
	}
	group := ratelimit.GroupFor(ec.Request().Method)
	limit := ratelimit.PerMinute(limits.ReadPerMinute)
	if group == ratelimit.GroupWrite {
		limit = ratelimit.PerMinute(limits.WritePerMinute)
	}
	res, ok := guard.Check(ctx, ratelimit.OrgBucket(p.OrgID, group), limit)
	if ok {
		ratelimit.SetHeaders(ec.Response().Header(), group, res, time.Now())
	}
	if res.Allowed {
		return nil
	}
	retry := ratelimit.RetryAfterSeconds(res)
	e := apierror.New(apierror.CodeOrgRateLimit, "", "The %s rate limit of %d requests per minute is reached; retry in %d seconds.", group, limit.Rate, retry)
	e.RetryAfter = retry
	return e
}
