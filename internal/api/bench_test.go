package api_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/apitest"
	"github.com/geoscan/geoscan/internal/pgtest"
)

// benchGet measures authenticated GETs through real HTTP and PostgreSQL,
// without response validation (that is test-only overhead).
func benchGet(b *testing.B, path func(h *apitest.Harness, org apitest.Org) string) {
	h := apitest.Start(b, pgtest.URL(), apitest.Options{Getenv: map[string]string{"GEOSCAN_LOG_LEVEL": "error"}})
	org := h.NewOrg(b, "pro", true)
	_, err := h.Store.Pool().Exec(context.Background(), "UPDATE organizations SET daily_scan_quota_override = 100000 WHERE id = $1", org.ID)
	require.NoError(b, err)
	for range 50 {
		resp, err := org.Client.CreateScanWithResponse(context.Background(), nil, client.ScanCreateRequest{URL: "https://example.com/"})
		require.NoError(b, err)
		require.Equal(b, http.StatusCreated, resp.StatusCode())
	}
	url := h.BaseURL + path(h, org)
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	c := &http.Client{Transport: tr}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, url, nil)
			req.Header.Set("X-API-Key", org.Key)
			resp, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

func BenchmarkGetScan(b *testing.B) {
	benchGet(b, func(h *apitest.Harness, org apitest.Org) string {
		list, err := org.Client.ListScansWithResponse(context.Background(), &client.ListScansParams{Limit: ptr(1)})
		require.NoError(b, err)
		return "/api/v1/scans/" + list.JSON200.Data[0].ID.String()
	})
}

func BenchmarkListScans(b *testing.B) {
	benchGet(b, func(*apitest.Harness, apitest.Org) string { return "/api/v1/scans?limit=20" })
}
