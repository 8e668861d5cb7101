package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/geoscan/geoscan/gen/api"
)

// TestServedContractsAgree: /api/v1/openapi.json is /api/v1/openapi.yaml
// converted, identical in every field, so Swagger UI, ReDoc and generators
// reading either see one contract.
func TestServedContractsAgree(t *testing.T) {
	t.Parallel()
	h := start(t)
	y := h.Do(t, "GET", "/api/v1/openapi.yaml", "", nil)
	require.Equal(t, http.StatusOK, y.Status)
	j := h.Do(t, "GET", "/api/v1/openapi.json", "", nil)
	require.Equal(t, http.StatusOK, j.Status)

	var fromYAML, fromJSON any
	require.NoError(t, yaml.Unmarshal(y.Body, &fromYAML))
	// Through JSON once, so YAML's ints compare with JSON's float64s.
	b, err := json.Marshal(fromYAML)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &fromYAML))
	require.NoError(t, json.Unmarshal(j.Body, &fromJSON))
	require.Equal(t, fromYAML, fromJSON)

	ops := 0
	for _, item := range fromJSON.(map[string]any)["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			if m, ok := op.(map[string]any); ok && m["operationId"] != nil {
				ops++
				require.Regexp(t, `^[a-z][A-Za-z]+$`, m["operationId"], "operationIds are lowerCamel as written")
			}
		}
	}
	require.GreaterOrEqual(t, ops, 23)
}

// TestSuccessHeadersAreDeclared: every success response declares the
// headers it always carries, and a typed client reads them.
func TestSuccessHeadersAreDeclared(t *testing.T) {
	t.Parallel()
	spec, err := api.GetSpec()
	require.NoError(t, err)
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				if code[0] != '2' {
					continue
				}
				for _, h := range []string{"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Group"} {
					require.Contains(t, resp.Value.Headers, h, "%s %s %s", method, path, code)
				}
			}
		}
	}

	h := start(t)
	org := h.NewOrg(t, "free", true)
	resp, err := org.Client.GetUsageWithResponse(context.Background())
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode())
	hd := resp.Headers200
	require.NotNil(t, hd)
	require.NotNil(t, hd.XRequestID)
	require.NotEmpty(t, *hd.XRequestID)
	require.Equal(t, "api_read", *hd.XRateLimitGroup)
	require.Equal(t, 120, *hd.XRateLimitLimit)
	require.NotNil(t, hd.XRateLimitRemaining)
	require.NotNil(t, hd.XRateLimitReset)
}
