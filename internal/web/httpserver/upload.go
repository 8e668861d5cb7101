package httpserver

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// The access-log upload is the one operation whose body is a stream the
// handler reads itself, up to a limit far above the other bodies' 1 MiB:
// the body limit, the JSON guard and the validator's reading of the body
// pass it by (the validator still authenticates it and checks its query),
// and it gets its own time limits, since a 1 GiB upload outlasts the
// request timeout and the server's read timeout.

const uploadPath = "/api/v1/crawler-logs"

// DefaultUploadTimeout bounds an upload when Deps.UploadTimeout is zero.
const DefaultUploadTimeout = 30 * time.Minute

func isUpload(c echo.Context) bool {
	return c.Request().Method == http.MethodPost && c.Path() == uploadPath
}

// uploadDeadlines gives the upload its own deadline, for reading the body
// (extending the server's read timeout, which would cut it off) and for
// the handler's context; other requests pass through.
func uploadDeadlines(timeout time.Duration) echo.MiddlewareFunc {
	if timeout <= 0 {
		timeout = DefaultUploadTimeout
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !isUpload(c) {
				return next(c)
			}
			deadline := time.Now().Add(timeout)
			rc := http.NewResponseController(c.Response().Writer)
			// Servers without deadlines (tests' recorders) refuse; the
			// context's deadline still holds.
			_ = rc.SetReadDeadline(deadline)
			_ = rc.SetWriteDeadline(deadline.Add(10 * time.Second))
			ctx, cancel := context.WithDeadline(c.Request().Context(), deadline)
			defer cancel()
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}
