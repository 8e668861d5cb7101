package httpserver

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// composedRouter registers operations with their middleware chain built
// once, at registration. Echo builds a route's chain again on every request
// (a closure per middleware, allocated and called before the handler runs);
// for the API's seven group middlewares on every read that was measurable.
// The routes are the same as a group's: the full path, the same method, the
// same Echo route path in c.Path().
type composedRouter struct {
	e      *echo.Echo
	prefix string
	chain  []echo.MiddlewareFunc
}

// add composes the chain around h, outermost first as Echo applies it, and
// registers the result with no middleware for Echo to apply.
func (r composedRouter) add(method, path string, h echo.HandlerFunc, m []echo.MiddlewareFunc) *echo.Route {
	all := append(append(make([]echo.MiddlewareFunc, 0, len(r.chain)+len(m)), r.chain...), m...)
	for i := len(all) - 1; i >= 0; i-- {
		h = all[i](h)
	}
	return r.e.Add(method, r.prefix+path, h)
}

func (r composedRouter) CONNECT(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodConnect, p, h, m)
}

func (r composedRouter) DELETE(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodDelete, p, h, m)
}

func (r composedRouter) GET(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodGet, p, h, m)
}

func (r composedRouter) HEAD(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodHead, p, h, m)
}

func (r composedRouter) OPTIONS(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodOptions, p, h, m)
}

func (r composedRouter) PATCH(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPatch, p, h, m)
}

func (r composedRouter) POST(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPost, p, h, m)
}

func (r composedRouter) PUT(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodPut, p, h, m)
}

func (r composedRouter) TRACE(p string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return r.add(http.MethodTrace, p, h, m)
}
