// Package httpserver owns the HTTP surface around the generated handlers:
// Echo setup, middleware order, body limits, request ids, panic recovery,
// the two rate-limit layers (client address before authentication,
// organization after it), request validation against openapi.yaml, API-key
// authentication, the one error handler that renders every failure as the
// error envelope (a share link's refused request as a page), health
// endpoints and the documentation routes.
package httpserver

import (
	"context"
	"encoding/binary"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	oapimw "github.com/oapi-codegen/echo-middleware"

	"github.com/geoscan/geoscan"
	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apidocs"
	"github.com/geoscan/geoscan/internal/web/auth"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

const maxBodyBytes = 1 << 20

// Deps are what the HTTP server needs.
type Deps struct {
	Logger         *slog.Logger
	Store          *store.Store
	Handler        api.StrictServerInterface
	RequestTimeout time.Duration
	// UploadTimeout bounds an access-log upload instead; 0 is
	// DefaultUploadTimeout.
	UploadTimeout time.Duration
	RateLimits    RateLimits
	// AuthCache caches verified keys and organizations' limits; nil looks
	// every request up in the database.
	AuthCache *AuthCache
	// SharedReport serves the public share links under /r/, outside the
	// API and its keys; nil serves none.
	SharedReport http.HandlerFunc
}

var registerFormats sync.Once

// New builds the Echo instance serving the API, docs and health endpoints.
func New(d Deps) (*echo.Echo, error) {
	// kin-openapi checks only a few formats unless told; the registry is
	// process-global, so register once.
	registerFormats.Do(func() {
		openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562))
	})

	spec, err := api.GetSpec()
	if err != nil {
		return nil, err
	}
	// The JSON is the YAML file converted, not the parsed model marshalled
	// again, so both documents say the same in every field.
	specJSON, err := apidocs.JSONFromYAML(geoscan.OpenAPIYAML)
	if err != nil {
		return nil, err
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(d.Logger)
	e.IPExtractor = ipExtractor(d.RateLimits.TrustedProxies)

	e.Use(middleware.RequestIDWithConfig(middleware.RequestIDConfig{Generator: newRequestID}))
	e.Use(requestLogger(d.Logger))
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableStackAll: true, LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
		d.Logger.ErrorContext(c.Request().Context(), "panic", slog.String("error", redact(err.Error())), slog.String("stack", string(stack)))
		return err
	}}))
	e.Use(headerLimit)
	var guard *ratelimit.Guard
	if d.RateLimits.Limiter != nil {
		guard = ratelimit.NewGuard(d.RateLimits.Limiter, d.Logger)
		// After request ids and logging, so a refusal is logged and carries
		// its id; before anything that reads the body or the database.
		e.Use(ipRateLimit(guard, d.RateLimits.IPPerMinute))
		e.Use(costCharge(guard, d.RateLimits.RenderPerMinute))
	}

	e.GET("/healthz", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"status": "ok"}) })
	e.GET("/readyz", func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := d.Store.Ping(ctx); err != nil {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok", "database": "ok"})
	})

	specYAML, err := specYAMLBytes()
	if err != nil {
		return nil, err
	}
	apidocs.Register(e, apidocs.Spec{YAML: specYAML, JSON: specJSON, Title: spec.Info.Title})

	cache := d.AuthCache
	if cache == nil {
		// Never Run, so never used: every lookup goes to the database.
		cache = NewAuthCache(d.Store, d.Logger)
	}
	authn := &authenticator{store: d.Store, logger: d.Logger, limits: guard, cache: cache}
	validator, err := requestValidator(spec, &oapimw.Options{
		SilenceServersWarning: true,
		Options: openapi3filter.Options{
			AuthenticationFunc: authn.authenticate,
		},
	})
	if err != nil {
		return nil, err
	}
	// The group's middleware also runs for the paths under it that no
	// operation matches (its not-found routes), so that their 404 or 405
	// comes from the validator as an operation's errors do.
	g := e.Group("/api/v1",
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "1M", Skipper: isUpload}),
		newBodyGuard().strictJSON,
		middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{Timeout: d.RequestTimeout, Skipper: isUpload}),
		uploadDeadlines(d.UploadTimeout),
		keepRawQuery,
		validator,
		storableText,
		principalToContext,
	)
	api.RegisterHandlers(g, api.NewStrictHandler(d.Handler, nil))
	if d.SharedReport != nil {
		// A share link is a page, not an operation of the contract: it
		// needs no key and answers HTML, so it is served beside the API.
		share := echo.WrapHandler(d.SharedReport)
		timeout := middleware.ContextTimeout(d.RequestTimeout)
		e.GET("/r/:token", share, timeout)
		e.HEAD("/r/:token", share, timeout)
	}
	mountMCP(e, authn, d.RequestTimeout, d.Logger)
	// Anything under /api that no route matched still gets the envelope.
	e.Any("/api/*", func(echo.Context) error { return echo.ErrNotFound })
	return e, nil
}

// principalToContext moves the principal the authentication function found
// into the request context, where strict handlers read it with
// auth.PrincipalFrom; the validator's own context is not the request's.
func principalToContext(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if p, ok := c.Get(principalKey).(auth.Principal); ok {
			c.SetRequest(c.Request().WithContext(auth.WithPrincipal(c.Request().Context(), p)))
		}
		return next(c)
	}
}

func requestLogger(logger *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			c.Set(clientContextKey, c.Request().Context())
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			ctx := c.Request().Context()
			if !logger.Enabled(ctx, slog.LevelInfo) {
				return nil
			}
			// The path only: a query string may carry a key pasted by mistake.
			// The record is handed to the handler directly: Logger.LogAttrs
			// would also walk the stack for the caller's address, which the
			// line does not print (the handlers add no source).
			r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
			r.AddAttrs(
				slog.String("request_id", responseRequestID(c)),
				slog.String("method", c.Request().Method),
				slog.String("path", redact(c.Request().URL.Path)),
				slog.Int("status", c.Response().Status),
				slog.Duration("duration", r.Time.Sub(start)))
			_ = logger.Handler().Handle(ctx, r)
			return nil
		}
	}
}

// newRequestID is a random (version 4) UUID for a request that brings no
// id. It names a request in logs and answers and guards nothing, so its
// bytes come from the runtime's fast generator instead of the system's
// cryptographic one.
func newRequestID() string {
	return uuid.Must(uuid.NewRandomFromReader(runtimeRandom{})).String()
}

// runtimeRandom reads from math/rand/v2's generator, which is safe for
// concurrent use.
type runtimeRandom struct{}

func (runtimeRandom) Read(p []byte) (int, error) {
	for i := 0; i < len(p); i += 8 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], rand.Uint64()) //nolint:gosec // an id, not a secret (see newRequestID)
		copy(p[i:], b[:])
	}
	return len(p), nil
}

// canonicalRequestIDHeader is X-Request-ID as net/http keys it, so that
// reading it back takes no canonicalization.
var canonicalRequestIDHeader = http.CanonicalHeaderKey(echo.HeaderXRequestID)

// responseRequestID is the request id the response carries.
func responseRequestID(c echo.Context) string {
	if v := c.Response().Header()[canonicalRequestIDHeader]; len(v) > 0 {
		return v[0]
	}
	return ""
}
