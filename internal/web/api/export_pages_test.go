package api_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
)

// TestScanExportPages: include=pages exports one row per page of the
// whole-site audits among the matching scans, in crawl order, with the
// site's text defused like every other export cell.
func TestScanExportPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := start(t, startOptions(nil))
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)

	created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "max_pages": 10})
	require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
	var site api.Scan
	created.JSON(t, &site)
	pages := fixturePages(site.ID)
	for i := range pages {
		pages[i].ScanID = site.ID
		require.NoError(t, h.Store.AddScanPage(ctx, pages[i]))
	}
	hostile := 12.5
	require.NoError(t, h.Store.AddScanPage(ctx, store.NewScanPage{
		ScanID: site.ID, Position: 7, URL: "https://example.com/=cmd", Group: "=HYPERLINK(\"x\")",
		Type: "other", Status: store.PageAudited, HTTPStatus: 200, Score: &hostile,
	}))
	// A homepage-only scan adds no rows.
	home := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
	require.Equal(t, http.StatusCreated, home.Status, "body: %s", home.Body)

	r := h.Do(t, http.MethodGet, "/api/v1/scans/export?include=pages", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	require.Equal(t, "8", r.Trailer.Get("X-Export-Rows"))
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"scan_id", "position", "url", "group", "type", "status", "http_status", "score"}, rows[0])
	require.Len(t, rows, 9)
	for i, row := range rows[1:] {
		require.Equal(t, site.ID.String(), row[0])
		require.Equal(t, strconv.Itoa(i), row[1], "crawl order")
	}
	require.Equal(t, "https://example.com/", rows[1][2])
	require.Equal(t, "90", rows[1][7])
	require.Empty(t, rows[4][7], "a redirect has no score")
	require.Equal(t, "'=HYPERLINK(\"x\")", rows[8][3], "a formula from the site is defused")

	h.Do(t, http.MethodGet, "/api/v1/scans/export?include=sites", org.Key, nil).RequireError(t, 422, "invalid_parameter", "include")
}
