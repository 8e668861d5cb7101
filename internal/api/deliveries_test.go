package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
)

// No scan engine runs in this package, so scans stay pending: these tests
// cover scoping and refusals. Delivery, retries and redelivery of finished
// scans are tested with real workers in internal/webhook.
func TestDeliveriesEndpoints(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	other := h.NewOrg(t, "pro", true)

	cb := "https://hooks.example.com/geoscan"
	withCallback, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://www.example.com/", CallbackURL: &cb})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, withCallback.StatusCode(), "body: %s", withCallback.Body)
	scanID := withCallback.JSON201.ID
	without, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://www.example.com/"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, without.StatusCode())

	t.Run("EmptyUntilTheScanFinishes", func(t *testing.T) {
		list, err := org.Client.ListScanDeliveriesWithResponse(ctx, scanID, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, list.StatusCode(), "body: %s", list.Body)
		require.Empty(t, list.JSON200.Data)
		require.False(t, list.JSON200.HasMore)
		require.Nil(t, list.JSON200.NextCursor)
	})

	t.Run("Refusals", func(t *testing.T) {
		base := "/api/v1/scans/" + scanID.String() + "/deliveries"
		for _, tc := range []struct {
			name, method, path, key string
			status                  int
			code, param             string
		}{
			{"other organization lists", "GET", base, other.Key, 404, "scan_not_found", "scan_id"},
			{"other organization redelivers", "POST", base + "/redeliver", other.Key, 404, "scan_not_found", "scan_id"},
			{"unknown scan", "GET", "/api/v1/scans/" + uuid.NewString() + "/deliveries", org.Key, 404, "scan_not_found", "scan_id"},
			{"unknown scan redelivers", "POST", "/api/v1/scans/" + uuid.NewString() + "/deliveries/redeliver", org.Key, 404, "scan_not_found", "scan_id"},
			{"malformed id", "GET", "/api/v1/scans/not-a-uuid/deliveries", org.Key, 404, "scan_not_found", "scan_id"},
			{"no key", "GET", base, "", 401, "api_key_required", ""},
			{"limit too small", "GET", base + "?limit=0", org.Key, 422, "invalid_parameter", "limit"},
			{"limit too large", "GET", base + "?limit=101", org.Key, 422, "invalid_parameter", "limit"},
			{"foreign cursor", "GET", base + "?cursor=bm90LWEtY3Vyc29y", org.Key, 422, "invalid_parameter", "cursor"},
			{"scan not finished", "POST", base + "/redeliver", org.Key, 409, "scan_not_finished", "scan_id"},
			{"no callback_url", "POST", "/api/v1/scans/" + without.JSON201.ID.String() + "/deliveries/redeliver", org.Key, 409, "callback_not_configured", "scan_id"},
			{"wrong method", "DELETE", base, org.Key, 405, "method_not_allowed", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.Do(t, tc.method, tc.path, tc.key, nil).RequireError(t, tc.status, tc.code, tc.param)
			})
		}
	})
}
