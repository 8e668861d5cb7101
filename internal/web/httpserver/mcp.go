package httpserver

import (
	"errors"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/mcpserver"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// mountMCP serves the MCP endpoint (mcpserver.Path) beside the contract's
// operations, as the share pages are. Being under /api/, every request
// counts against its client address first; then it needs a valid key
// (Authorization: Bearer or X-API-Key) before any MCP message is read:
// without one it is the API's 401 in the envelope. The tools call the API
// itself in-process with that key, so each call passes the organization's
// rate limit and scope like any API request.
func mountMCP(e *echo.Echo, authn *authenticator, requestTimeout time.Duration, logger *slog.Logger) {
	h := mcpserver.NewHTTPHandler(e, mcpserver.HTTPOptions{MaxWait: requestTimeout, Logger: logger})
	e.Any(mcpserver.Path, func(c echo.Context) error {
		r := c.Request()
		key, given := mcpserver.RequestKey(r)
		if !given {
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="geoscan"`)
			return apierror.New(apierror.CodeAPIKeyRequired, "", "An API key is required: send it as Authorization: Bearer geo_… (or in the X-API-Key header).")
		}
		if err := authn.verifyKey(c, key); err != nil {
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="geoscan", error="invalid_token"`)
			return err
		}
		h.ServeHTTP(c.Response(), r)
		return nil
	})
}

// verifyKey refuses a key that is malformed, unknown or revoked, with the
// same 401 as the API.
func (a *authenticator) verifyKey(c echo.Context, key string) error {
	if auth.ParseKey(key) != nil {
		return errInvalidKey()
	}
	p, err := a.cache.lookupKey(c.Request().Context(), auth.HashKey(key))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errInvalidKey()
		}
		return err
	}
	if p.RevokedAt != nil {
		return errInvalidKey()
	}
	return nil
}
