package httpserver

import (
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/labstack/echo/v4"
	oapimw "github.com/oapi-codegen/echo-middleware"
)

// requestValidator validates each request against openapi.yaml. Echo has
// already routed the request when this runs, so the operation is looked up
// by the route Echo matched instead of matching the path again against
// every route's regular expression (gorilla/mux, as the stock middleware
// does): on a GET of one scan that second match was about a sixth of the
// server's time. A request Echo did not route to an operation (the group's
// not-found routes, a method the path does not have) goes through
// gorilla/mux as before, so its 404 or 405 is the same.
func requestValidator(spec *openapi3.T, opts *oapimw.Options) (echo.MiddlewareFunc, error) {
	fallback, err := gorillamux.NewRouter(spec)
	if err != nil {
		return nil, err
	}
	routes := operationRoutes(spec)
	// An upload's body is a stream of up to a GiB: the validator would
	// read it into memory (to check it, and again for each security
	// scheme), so it sees no body there; the handler reads and checks it.
	uploadOpts := *opts
	uploadOpts.Options.ExcludeRequestBody = true
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			router := fallback
			if r, ok := routes[routeKey{c.Request().Method, c.Path()}]; ok {
				router = r.match(c.Request())
			}
			if isUpload(c) {
				r := c.Request()
				body := r.Body
				r.Body = http.NoBody
				err := oapimw.ValidateRequestFromContext(c, router, &uploadOpts)
				r.Body = body
				if err != nil {
					return err
				}
				return next(c)
			}
			if err := oapimw.ValidateRequestFromContext(c, router, opts); err != nil {
				return err
			}
			return next(c)
		}
	}, nil
}

// operationRoute is one operation of the spec under the path Echo
// registers for it.
// routeKey is an operation's method and Echo route path; a struct, so that
// looking one up builds no string.
type routeKey struct{ method, path string }

type operationRoute struct {
	route *routers.Route
	// segments is the template split at "/"; a parameter's segment is
	// its name in braces.
	segments []string
}

// operationRoutes indexes the spec's operations by method and Echo path:
// the server's base path and the template with {name} written :name, as
// the generated RegisterHandlers registers them.
func operationRoutes(spec *openapi3.T) map[routeKey]*operationRoute {
	base := ""
	if len(spec.Servers) > 0 {
		base = strings.TrimSuffix(spec.Servers[0].URL, "/")
	}
	out := map[routeKey]*operationRoute{}
	for template, item := range spec.Paths.Map() {
		full := base + template
		segments := strings.Split(full, "/")
		echoPath := make([]string, len(segments))
		for i, s := range segments {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				s = ":" + s[1:len(s)-1]
			}
			echoPath[i] = s
		}
		for method, op := range item.Operations() {
			out[routeKey{method, strings.Join(echoPath, "/")}] = &operationRoute{
				route:    &routers.Route{Spec: spec, Server: firstServer(spec), Path: template, PathItem: item, Method: method, Operation: op},
				segments: segments,
			}
		}
	}
	return out
}

func firstServer(spec *openapi3.T) *openapi3.Server {
	if len(spec.Servers) == 0 {
		return nil
	}
	return spec.Servers[0]
}

// match is the route with the request's path parameters, taken from the
// escaped path as gorilla/mux gives them (the middleware unescapes them).
func (o *operationRoute) match(req *http.Request) matchedRoute {
	var params map[string]string
	parts := strings.Split(req.URL.EscapedPath(), "/")
	for i, s := range o.segments {
		if len(s) > 2 && s[0] == '{' && i < len(parts) {
			if params == nil {
				params = map[string]string{}
			}
			params[s[1:len(s)-1]] = parts[i]
		}
	}
	return matchedRoute{route: o.route, params: params}
}

// matchedRoute answers FindRoute with the route already found.
type matchedRoute struct {
	route  *routers.Route
	params map[string]string
}

func (m matchedRoute) FindRoute(*http.Request) (*routers.Route, map[string]string, error) {
	return m.route, m.params, nil
}
