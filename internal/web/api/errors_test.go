package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
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

// TestMalformedIDsAreInvalidParameters: an id that is not a UUID, in the
// path or the query, is the request's mistake (422 invalid_parameter naming
// the parameter), never a 404 that would say the resource does not exist.
// The table must name every uuid parameter of the contract, so a new
// operation with an id is added here or fails the test.
func TestMalformedIDsAreInvalidParameters(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, org)

	const id = "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"
	tests := []struct {
		name   string
		method string
		// template is the contract's path; {id} is replaced by each
		// malformed value, the other parameters have valid values.
		template, path string
		param          string
		body           any
	}{
		{"get scan", "GET", "/scans/{scan_id}", "/scans/{id}", "scan_id", nil},
		{"update scan", "PATCH", "/scans/{scan_id}", "/scans/{id}", "scan_id", map[string]any{"project": "x"}},
		{"delete scan", "DELETE", "/scans/{scan_id}", "/scans/{id}", "scan_id", nil},
		{"report", "GET", "/scans/{scan_id}/report", "/scans/{id}/report", "scan_id", nil},
		{"triage", "GET", "/scans/{scan_id}/triage", "/scans/{id}/triage", "scan_id", nil},
		{"checks", "GET", "/scans/{scan_id}/checks", "/scans/{id}/checks", "scan_id", nil},
		{"one check", "GET", "/scans/{scan_id}/checks/{check_id}", "/scans/{id}/checks/robots_txt_present", "scan_id", nil},
		{"pdf", "GET", "/scans/{scan_id}/pdf", "/scans/{id}/pdf", "scan_id", nil},
		{"deliveries", "GET", "/scans/{scan_id}/deliveries", "/scans/{id}/deliveries", "scan_id", nil},
		{"pages", "GET", "/scans/{scan_id}/pages", "/scans/{id}/pages", "scan_id", nil},
		{"page of scan", "GET", "/scans/{scan_id}/pages/{page_id}", "/scans/{id}/pages/" + id, "scan_id", nil},
		{"page", "GET", "/scans/{scan_id}/pages/{page_id}", "/scans/" + id + "/pages/{id}", "page_id", nil},
		{"redeliver", "POST", "/scans/{scan_id}/deliveries/redeliver", "/scans/{id}/deliveries/redeliver", "scan_id", nil},
		{"create share", "POST", "/scans/{scan_id}/shares", "/scans/{id}/shares", "scan_id", nil},
		{"shares", "GET", "/scans/{scan_id}/shares", "/scans/{id}/shares", "scan_id", nil},
		{"revoke share of scan", "DELETE", "/scans/{scan_id}/shares/{share_id}", "/scans/{id}/shares/" + id, "scan_id", nil},
		{"revoke share", "DELETE", "/scans/{scan_id}/shares/{share_id}", "/scans/" + id + "/shares/{id}", "share_id", nil},
		{"compare base", "GET", "/scans/compare", "/scans/compare?base={id}&target=" + id, "base", nil},
		{"compare target", "GET", "/scans/compare", "/scans/compare?base=" + id + "&target={id}", "target", nil},
		{"get schedule", "GET", "/schedules/{schedule_id}", "/schedules/{id}", "schedule_id", nil},
		{"update schedule", "PATCH", "/schedules/{schedule_id}", "/schedules/{id}", "schedule_id", map[string]any{"active": false}},
		{"delete schedule", "DELETE", "/schedules/{schedule_id}", "/schedules/{id}", "schedule_id", nil},
		{"schedule runs", "GET", "/schedules/{schedule_id}/runs", "/schedules/{id}/runs", "schedule_id", nil},
		{"upload log for schedule", "POST", "/crawler-logs", "/crawler-logs?schedule_id={id}", "schedule_id", nil},
		{"get log", "GET", "/crawler-logs/{log_id}", "/crawler-logs/{id}", "log_id", nil},
		{"delete log", "DELETE", "/crawler-logs/{log_id}", "/crawler-logs/{id}", "log_id", nil},
	}

	t.Run("EveryUUIDParameterIsInTheTable", func(t *testing.T) {
		t.Parallel()
		spec, err := api.GetSpec()
		require.NoError(t, err)
		inTable := map[string]bool{}
		for _, tc := range tests {
			inTable[tc.method+" "+tc.template+" "+tc.param] = true
		}
		n := 0
		for template, item := range spec.Paths.Map() {
			for method, op := range item.Operations() {
				for _, p := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
					if s := p.Value.Schema; s != nil && s.Value.Format == "uuid" {
						require.True(t, inTable[method+" "+template+" "+p.Value.Name], "%s %s: uuid parameter %s is not in the table", method, template, p.Value.Name)
						n++
					}
				}
			}
		}
		require.Len(t, tests, n)
	})

	malformed := []string{
		"not-a-uuid",
		"12345",
		"5b0e7c1e8d4f4c7a9a510f3c2d9e6b11",       // no hyphens
		"{5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11}", // braces
		"5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b1",    // one digit short
		"5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11x",  // one character long
		"zb0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11",   // not hexadecimal
		"%00",
		"caf%C3%A9",
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			for _, v := range malformed {
				r := h.Do(t, tc.method, "/api/v1"+strings.Replace(tc.path, "{id}", v, 1), org.Key, tc.body)
				r.RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", tc.param)
				require.Contains(t, r.Error(t).Error.Message, tc.param+" must be a UUID", "%s", v)
			}
			// A well-formed id that names nothing is still a 404.
			if !strings.HasPrefix(tc.template, "/scans/compare") {
				r := h.Do(t, tc.method, "/api/v1"+strings.Replace(tc.path, "{id}", id, 1), org.Key, tc.body)
				require.Equal(t, http.StatusNotFound, r.Status, "body: %s", r.Body)
			}
		})
	}

	t.Run("CheckIDOutsideItsPattern", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "GET", "/api/v1/scans/"+id+"/checks/Not-A-Check", org.Key, nil)
		r.RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "check_id")
	})

	t.Run("KeyIsCheckedFirst", func(t *testing.T) {
		t.Parallel()
		h.Do(t, "GET", "/api/v1/scans/not-a-uuid", "", nil).RequireError(t, http.StatusUnauthorized, "api_key_required", "")
	})
}
