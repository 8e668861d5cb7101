package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
)

// TestCompareWholeSiteScans: two whole-site audits compare page by page,
// matched by URL, the largest change first; homepage audits have no pages
// to compare.
func TestCompareWholeSiteScans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := start(t, startOptions(nil))
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)

	scan := func(maxPages int) api.Scan {
		created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "max_pages": maxPages})
		require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
		var s api.Scan
		created.JSON(t, &s)
		return s
	}
	base, target := scan(10), scan(10)
	for _, p := range fixturePages(base.ID) {
		p.ScanID = base.ID
		require.NoError(t, h.Store.AddScanPage(ctx, p))
	}
	// The target: the blog post /b improved by 30, /a fell by 5.5, the
	// 404 page is gone and a new page came.
	for _, p := range fixturePages(target.ID) {
		p.ScanID = target.ID
		switch p.URL {
		case "https://example.com/blog/b":
			v := *p.Score + 30
			p.Score = &v
		case "https://example.com/blog/a":
			v := *p.Score - 5.5
			p.Score = &v
		case "https://example.com/gone":
			continue
		}
		require.NoError(t, h.Store.AddScanPage(ctx, p))
	}
	fresh := 77.0
	require.NoError(t, h.Store.AddScanPage(ctx, store.NewScanPage{
		ScanID: target.ID, Position: 9, URL: "https://example.com/new", Group: "/{slug}",
		Type: "other", Status: store.PageAudited, HTTPStatus: 200, Score: &fresh,
	}))
	completeScan(t, h, base.ID)
	completeScan(t, h, target.ID, 2)

	r := h.Do(t, http.MethodGet, "/api/v1/scans/compare?base="+base.ID.String()+"&target="+target.ID.String(), org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var c api.ScanComparison
	r.JSON(t, &c)
	require.NotNil(t, c.Pages)
	require.Equal(t, 6, c.Pages.InBoth)
	require.Equal(t, 1, c.Pages.OnlyBase, "the 404 page")
	require.Equal(t, 1, c.Pages.OnlyTarget, "the new page")
	require.Len(t, c.Pages.Changed, 6)
	first, second := c.Pages.Changed[0], c.Pages.Changed[1]
	require.Equal(t, "https://example.com/blog/b", first.URL)
	require.InDelta(t, 30, *first.Delta, 1e-9)
	require.Equal(t, "https://example.com/blog/a", second.URL)
	require.InDelta(t, -5.5, *second.Delta, 1e-9)
	last := c.Pages.Changed[len(c.Pages.Changed)-1]
	require.Nil(t, last.Delta, "pages judged in neither come last, without a delta")
	require.Nil(t, last.Base)

	// Homepage audits have no pages to compare.
	home1, home2 := scan(1), scan(1)
	completeScan(t, h, home1.ID)
	completeScan(t, h, home2.ID)
	r = h.Do(t, http.MethodGet, "/api/v1/scans/compare?base="+home1.ID.String()+"&target="+home2.ID.String(), org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var hc api.ScanComparison
	r.JSON(t, &hc)
	require.Nil(t, hc.Pages)
}
