package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

func TestUsageAndPrice(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)

	u, err := org.Client.GetUsageWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, u.StatusCode())
	require.Equal(t, client.Free, u.JSON200.Plan)
	require.Equal(t, 5, u.JSON200.DailyLimit)
	require.Equal(t, 0, u.JSON200.Used)
	require.Equal(t, 5, u.JSON200.Remaining)
	require.Equal(t, 5, u.JSON200.Schedules.Limit)
	require.Equal(t, 10, u.JSON200.RateLimits.APIWrite)
	require.Equal(t, 120, u.JSON200.RateLimits.APIRead)
	require.Equal(t, 30, u.JSON200.RateLimits.APIRender, "the default GEOSCAN_RENDER_RATE_LIMIT")
	require.Equal(t, time.Now().UTC().Format("2006-01-02"), u.JSON200.Date.Format("2006-01-02"))
	require.True(t, u.JSON200.ResetsAt.After(time.Now()))

	price, err := org.Client.GetScanPriceWithResponse(ctx, &client.GetScanPriceParams{URL: "https://WWW.example.com"})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, price.StatusCode(), "body: %s", price.Body)
	require.True(t, price.JSON200.Allowed)
	require.Nil(t, price.JSON200.Reason)
	require.Equal(t, 1, price.JSON200.Cost)
	require.Equal(t, "https://www.example.com/", price.JSON200.URL)

	for range 5 {
		resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode())
	}
	price, err = org.Client.GetScanPriceWithResponse(ctx, &client.GetScanPriceParams{URL: "https://example.com"})
	require.NoError(t, err)
	require.False(t, price.JSON200.Allowed)
	require.Equal(t, client.DailyQuotaExhausted, *price.JSON200.Reason)
	require.Equal(t, 5, price.JSON200.Usage.Used)

	inactive := h.NewOrg(t, "pro", false)
	price, err = inactive.Client.GetScanPriceWithResponse(ctx, &client.GetScanPriceParams{URL: "https://example.com"})
	require.NoError(t, err)
	require.Equal(t, client.SubscriptionRequired, *price.JSON200.Reason)

	h.Do(t, "GET", "/api/v1/scans/price?url=https://127.0.0.1/", org.Key, nil).RequireError(t, 422, "invalid_url", "url")
	h.Do(t, "GET", "/api/v1/scans/price", org.Key, nil).RequireError(t, 422, "missing_parameter", "url")
}

// TestUsageReportsTheRenderLimitInForce: the api_render limit /usage
// reports is the operator's GEOSCAN_RENDER_RATE_LIMIT, the one a rendered
// PDF's headers show, on every plan and beside the plan's own limits.
func TestUsageReportsTheRenderLimitInForce(t *testing.T) {
	t.Parallel()
	h := start(t, apitest.Options{Getenv: map[string]string{"GEOSCAN_RENDER_RATE_LIMIT": "7"}})
	ctx := context.Background()
	for _, plan := range []string{"free", "pro"} {
		org := h.NewOrg(t, plan, true)
		u, err := org.Client.GetUsageWithResponse(ctx)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, u.StatusCode(), "body: %s", u.Body)
		require.Equal(t, 7, u.JSON200.RateLimits.APIRender, plan)

		id := pdfScan(t, h, org, "https://example.com/", "Café Zürich", time.Date(2026, 2, 3, 9, 0, 0, 0, time.UTC))
		rendered := getPDF(t, h, org, id, "")
		requireRendered(t, rendered, u.JSON200.RateLimits.APIRender, u.JSON200.RateLimits.APIRender-1)
	}
}
