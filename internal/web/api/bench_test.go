package api_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// benchGet measures authenticated GETs through real HTTP and PostgreSQL,
// without response validation (that is test-only overhead). Both rate-limit
// layers run, with limits no benchmark reaches, unless env turns them off.
func benchGet(b *testing.B, env map[string]string, path func(h *apitest.Harness, org apitest.Org) string) {
	vars := map[string]string{"GEOSCAN_LOG_LEVEL": "error"}
	for k, v := range env {
		vars[k] = v
	}
	h := apitest.Start(b, pgtest.URL(), apitest.Options{Getenv: vars})
	org := h.NewOrg(b, "pro", true)
	_, err := h.Store.Pool().Exec(context.Background(), `UPDATE organizations SET daily_scan_quota_override = 100000,
		rate_limit_write_override = 1000000000, rate_limit_read_override = 1000000000 WHERE id = $1`, org.ID)
	require.NoError(b, err)
	for range 50 {
		resp, err := org.Client.CreateScanWithResponse(context.Background(), nil, client.ScanCreateRequest{URL: "https://example.com/"})
		require.NoError(b, err)
		require.Equal(b, http.StatusCreated, resp.StatusCode())
	}
	// 2 000 scans in all, as in bench/http.sh: lists read one page of many.
	_, err = h.Store.Pool().Exec(context.Background(), `INSERT INTO scans (org_id, url, domain, brand_name, created_at)
		SELECT $1, 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'site' || g, now() - g * interval '1 minute'
		FROM generate_series(1, 1950) g`, org.ID)
	require.NoError(b, err)
	// With statistics, as autovacuum would have them: without, the plans
	// are chosen from defaults.
	_, err = h.Store.Pool().Exec(context.Background(), `ANALYZE scans`)
	require.NoError(b, err)
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

func getScanPath(b *testing.B) func(h *apitest.Harness, org apitest.Org) string {
	return func(_ *apitest.Harness, org apitest.Org) string {
		list, err := org.Client.ListScansWithResponse(context.Background(), &client.ListScansParams{Limit: ptr(1)})
		require.NoError(b, err)
		return "/api/v1/scans/" + list.JSON200.Data[0].ID.String()
	}
}

func BenchmarkGetScan(b *testing.B) {
	benchGet(b, nil, getScanPath(b))
}

// BenchmarkGetScanNoRateLimits is BenchmarkGetScan without the two
// rate-limit checks: the difference is their cost per request.
func BenchmarkGetScanNoRateLimits(b *testing.B) {
	benchGet(b, map[string]string{"GEOSCAN_DISABLE_RATE_LIMITS": "true"}, getScanPath(b))
}

// BenchmarkGetScanRedisRateLimits is BenchmarkGetScan with the counters in
// the Redis at 127.0.0.1:6379 (skipped when there is none).
func BenchmarkGetScanRedisRateLimits(b *testing.B) {
	conn, err := (&net.Dialer{Timeout: 500 * time.Millisecond}).DialContext(context.Background(), "tcp", "127.0.0.1:6379")
	if err != nil {
		b.Skipf("no Redis at 127.0.0.1:6379 (%v)", err)
	}
	_ = conn.Close()
	benchGet(b, map[string]string{"GEOSCAN_REDIS_URL": "redis://127.0.0.1:6379/0"}, getScanPath(b))
}

func BenchmarkListScans(b *testing.B) {
	benchGet(b, nil, func(*apitest.Harness, apitest.Org) string { return "/api/v1/scans?limit=20" })
}
