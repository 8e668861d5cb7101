package httpserver

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
)

// TestValidatorRoutesEveryOperationAsGorillaMux holds the validator's
// Echo-matched routes to what the stock gorilla/mux router finds: every
// route the API registers has its operation, and for every operation the
// same route and the same path parameters come out, escaped values
// included.
func TestValidatorRoutesEveryOperationAsGorillaMux(t *testing.T) {
	t.Parallel()
	spec, err := api.GetSpec()
	require.NoError(t, err)
	routes := operationRoutes(spec)
	mux, err := gorillamux.NewRouter(spec)
	require.NoError(t, err)

	// Every operation route Echo registers is indexed; otherwise it would
	// silently take the slow path.
	e := echo.New()
	api.RegisterHandlers(e.Group("/api/v1"), api.NewStrictHandler(nil, nil))
	registered := 0
	for _, r := range e.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") || strings.HasSuffix(r.Path, "*") {
			continue
		}
		registered++
		require.Contains(t, routes, routeKey{r.Method, r.Path}, "route %s %s has no operation", r.Method, r.Path)
	}
	require.Equal(t, len(routes), registered, "operations and registered routes")

	for _, value := range []string{"0b9e2f4c-7a1d-4e5f-9c3b-2d8a6f1e0c47", "not-a-uuid", "a%20b", "%00", "caf%C3%A9", "%2F"} {
		for key, o := range routes {
			method, echoPath := key.method, key.path
			var path strings.Builder
			for i, s := range strings.Split(echoPath, "/") {
				if i > 0 {
					path.WriteByte('/')
				}
				if strings.HasPrefix(s, ":") {
					s = value
				}
				path.WriteString(s)
			}
			req := httptest.NewRequest(method, path.String(), nil)
			want, wantParams, err := mux.FindRoute(req)
			if err != nil {
				continue // a path gorilla/mux does not route is not Echo's either
			}
			got, gotParams, err := o.match(req).FindRoute(req)
			require.NoError(t, err)
			require.Same(t, want.Operation, got.Operation, "%s %s", method, path.String())
			require.Equal(t, want.Path, got.Path)
			require.Equal(t, want.Method, got.Method)
			if len(wantParams) == 0 {
				require.Empty(t, gotParams)
			} else {
				require.Equal(t, wantParams, gotParams, "%s %s", method, path.String())
			}
		}
	}
}
