package httpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// RateLimits configure both layers; a nil Limiter turns them off.
type RateLimits struct {
	Limiter ratelimit.Limiter
	// IPPerMinute is the per-client-address limit under /api/.
	IPPerMinute int
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// RenderPerMinute is an organization's api_render limit: the PDF
	// reports its requests may have rendered per minute.
	RenderPerMinute int
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
			if path != "/api" && !strings.HasPrefix(path, "/api/") && !strings.HasPrefix(path, "/r/") {
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

// orgRateLimit is the layer after authentication: the request counts
// against its organization's api_write or api_read limit, from the plan
// and the organization's overrides. It runs inside authentication, before
// parameter and body validation, so every authenticated request counts and
// a refused one has no effect. The headers it sets replace the IP layer's.
func orgRateLimit(ctx context.Context, ec echo.Context, guard *ratelimit.Guard, orgs *AuthCache, p auth.Principal) error {
	if ec.Get(rateLimitedKey) != nil {
		return nil // counted already (an operation may list several security requirements)
	}
	ec.Set(rateLimitedKey, true)
	limits, err := orgs.limits(ctx, p.OrgID)
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

// chargedSuffix ends the paths of the operations whose handlers may charge
// a cost class: GET /scans/{id}/pdf renders a report unless it is cached.
// Other requests get no charge function, which costs them nothing.
const chargedSuffix = "/pdf"

// costCharge gives the handlers of chargedSuffix the function that counts
// their request against a cost class of its organization (ratelimit.Charge)
// on top of the group of its method. The X-RateLimit-* headers then
// describe the cost class, not the method's group: a client sees what
// limited, or would have limited, the request.
func costCharge(guard *ratelimit.Guard, renderPerMinute int) echo.MiddlewareFunc {
	render := ratelimit.PerMinute(renderPerMinute)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Method != http.MethodGet || !strings.HasSuffix(req.URL.Path, chargedSuffix) {
				return next(c)
			}
			charge := func(ctx context.Context, g ratelimit.Group) error {
				if g != ratelimit.GroupRender {
					return fmt.Errorf("charge: %s is not a cost class", g)
				}
				p, ok := auth.PrincipalFrom(ctx)
				if !ok {
					return errors.New("charge: no principal in request context")
				}
				res, ok := guard.Check(ctx, ratelimit.OrgBucket(p.OrgID, g), render)
				if ok {
					ratelimit.SetHeaders(c.Response().Header(), g, res, time.Now())
				}
				if res.Allowed {
					return nil
				}
				retry := ratelimit.RetryAfterSeconds(res)
				e := apierror.New(apierror.CodeOrgRateLimit, "", "The %s rate limit of %d PDF renders per minute is reached; retry in %d seconds.", g, render.Rate, retry)
				e.RetryAfter = retry
				return e
			}
			c.SetRequest(req.WithContext(ratelimit.WithCharge(req.Context(), charge)))
			return next(c)
		}
	}
}
