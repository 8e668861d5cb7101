package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFrameworkErrorsUseTheEnvelope(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)

	h.Do(t, "GET", "/api/v1/nope", org.Key, nil).RequireError(t, http.StatusNotFound, "route_not_found", "")
	h.Do(t, "GET", "/api/v2/scans", org.Key, nil).RequireError(t, http.StatusNotFound, "route_not_found", "")
	h.Do(t, "GET", "/api/whatever", "", nil).RequireError(t, http.StatusNotFound, "route_not_found", "")
	h.Do(t, "DELETE", "/api/v1/usage", org.Key, nil).RequireError(t, http.StatusMethodNotAllowed, "method_not_allowed", "")
	h.Do(t, "PUT", "/api/v1/scans", org.Key, `{}`).RequireError(t, http.StatusMethodNotAllowed, "method_not_allowed", "")

	r := h.Do(t, "GET", "/api/v1/usage", org.Key, nil)
	require.NotEmpty(t, r.Header.Get("X-Request-Id"))
}

func TestHealthAndDocs(t *testing.T) {
	t.Parallel()
	h := start(t)
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/healthz", "application/json", `"ok"`},
		{"/readyz", "application/json", `"database":"ok"`},
		{"/api/v1/openapi.yaml", "application/yaml", "openapi: 3.0.3"},
		{"/api/v1/openapi.json", "application/json", `"openapi":"3.0.3"`},
		{"/api/docs/", "text/html", "swagger"},
		{"/api/redoc", "text/html", "redoc"},
	} {
		r := h.Do(t, "GET", tc.path, "", nil)
		require.Equal(t, http.StatusOK, r.Status, tc.path)
		require.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), tc.ctype), "%s: %s", tc.path, r.Header.Get("Content-Type"))
		require.Contains(t, strings.ToLower(string(r.Body)), strings.ToLower(tc.contains), tc.path)
	}
}
