package api_test

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// TestScanMaxPages: the page budget is the plan's to cap, on creation and
// on the price, and a scan shows the budget it was given.
func TestScanMaxPages(t *testing.T) {
	t.Parallel()
	h := start(t, startOptions(nil))
	free, pro := h.NewOrg(t, "free", true), h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, free)
	roomyRateLimits(t, h, pro)

	cases := []struct {
		name     string
		org      apitest.Org
		maxPages any // nil: not sent
		status   int
		want     int // max_pages of the created scan
	}{
		{name: "free default", org: free, maxPages: nil, status: http.StatusCreated, want: 1},
		{name: "free homepage", org: free, maxPages: 1, status: http.StatusCreated, want: 1},
		{name: "free above plan", org: free, maxPages: 2, status: http.StatusUnprocessableEntity},
		{name: "pro whole site", org: pro, maxPages: 100, status: http.StatusCreated, want: 100},
		{name: "pro at plan maximum", org: pro, maxPages: 500, status: http.StatusCreated, want: 500},
		{name: "pro above plan", org: pro, maxPages: 501, status: http.StatusUnprocessableEntity},
		{name: "zero", org: pro, maxPages: 0, status: http.StatusUnprocessableEntity},
		{name: "negative", org: pro, maxPages: -3, status: http.StatusUnprocessableEntity},
		{name: "not a number", org: pro, maxPages: "ten", status: http.StatusUnprocessableEntity},
	}
	for _, c := range cases {
		body := map[string]any{"url": "https://example.com/"}
		if c.maxPages != nil {
			body["max_pages"] = c.maxPages
		}
		r := h.Do(t, http.MethodPost, "/api/v1/scans", c.org.Key, body)
		if c.status != http.StatusCreated {
			r.RequireError(t, c.status, "invalid_parameter", "max_pages")
			continue
		}
		require.Equal(t, c.status, r.Status, "%s: %s", c.name, r.Body)
		var scan api.Scan
		r.JSON(t, &scan)
		require.Equal(t, c.want, scan.MaxPages, c.name)
		require.Nil(t, scan.Progress, "%s: no progress before the crawl plans its pages", c.name)

		got := h.Do(t, http.MethodGet, "/api/v1/scans/"+scan.ID.String(), c.org.Key, nil)
		require.Equal(t, http.StatusOK, got.Status, "%s: %s", c.name, got.Body)
		var read api.Scan
		got.JSON(t, &read)
		require.Equal(t, c.want, read.MaxPages, c.name)
	}
	e := h.Do(t, http.MethodPost, "/api/v1/scans", free.Key, map[string]any{"url": "https://example.com/", "max_pages": 2}).Error(t)
	require.Contains(t, e.Error.Message, "maximum of 1 ")

	price := func(org apitest.Org, maxPages string) apitest.Response {
		q := url.Values{"url": {"https://example.com/"}}
		if maxPages != "" {
			q.Set("max_pages", maxPages)
		}
		return h.Do(t, http.MethodGet, "/api/v1/scans/price?"+q.Encode(), org.Key, nil)
	}
	r := price(pro, "100")
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var p api.ScanPrice
	r.JSON(t, &p)
	require.Equal(t, 100, p.MaxPages)
	require.Equal(t, 500, p.MaxPagesLimit)
	require.Equal(t, 1, p.Cost, "the page budget does not change the price")
	r = price(free, "")
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	r.JSON(t, &p)
	require.Equal(t, 1, p.MaxPages)
	require.Equal(t, 1, p.MaxPagesLimit)
	price(free, "2").RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "max_pages")
	price(pro, "501").RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "max_pages")
	price(pro, "0").RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "max_pages")
}

// fixturePage is a page stored for a scan, as the scan job stores them.
func fixturePages(scanID uuid.UUID) []store.NewScanPage {
	score := func(f float64) *float64 { return &f }
	fail := func(id string) store.PageCheck {
		return store.PageCheck{ID: id, Status: "fail", Summary: id + " failed"}
	}
	warn := func(id string) store.PageCheck {
		return store.PageCheck{ID: id, Status: "warn", Summary: id + " warned"}
	}
	pass := func(id string) store.PageCheck {
		return store.PageCheck{ID: id, Status: "pass", Summary: id + " passed"}
	}
	return []store.NewScanPage{
		{Position: 0, URL: "https://example.com/", Group: "/", Type: "home", Status: store.PageAudited, HTTPStatus: 200, Score: score(90), Checks: []store.PageCheck{pass("title"), pass("meta_description")}},
		{Position: 1, URL: "https://example.com/blog/b", Group: "/blog/{slug}", Type: "article", Status: store.PageAudited, HTTPStatus: 200, Score: score(40), Checks: []store.PageCheck{fail("title"), warn("meta_description")}},
		{Position: 2, URL: "https://example.com/blog/a", Group: "/blog/{slug}", Type: "article", Status: store.PageAudited, HTTPStatus: 200, Score: score(55.5), Checks: []store.PageCheck{pass("title"), fail("meta_description")}},
		{Position: 3, URL: "https://example.com/old", Group: "/{slug}", Type: "other", Status: store.PageRedirect, HTTPStatus: 301, Error: "redirects to /new"},
		{Position: 4, URL: "https://example.com/gone", Group: "/{slug}", Type: "other", Status: store.PageError, HTTPStatus: 404, Error: "the server answered HTTP 404"},
		{Position: 5, URL: "https://example.com/blog/c", Group: "/blog/{slug}", Type: "article", Status: store.PageAudited, HTTPStatus: 200, Score: score(40), Checks: []store.PageCheck{pass("title"), pass("meta_description")}},
		{Position: 6, URL: "https://example.com/doc.pdf", Group: "/{slug}", Type: "other", Status: store.PageNotHTML, HTTPStatus: 200, Error: "not HTML"},
	}
}

func TestScanPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := start(t, startOptions(nil))
	org, other := h.NewOrg(t, "pro", true), h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)

	created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "max_pages": 10})
	require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
	var scan api.Scan
	created.JSON(t, &scan)
	_, err := h.Store.StartScan(ctx, scan.ID)
	require.NoError(t, err)
	pages := fixturePages(scan.ID)
	for i := range pages {
		pages[i].ScanID = scan.ID
		require.NoError(t, h.Store.AddScanPage(ctx, pages[i]))
		require.NoError(t, h.Store.SetScanProgress(ctx, scan.ID, i+1, 10))
	}
	// A restarted job hands the same pages again: nothing is added.
	for _, p := range pages {
		require.NoError(t, h.Store.AddScanPage(ctx, p))
	}
	n, err := h.Store.CountScanPages(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, len(pages), n)

	base := "/api/v1/scans/" + scan.ID.String()
	t.Run("ProgressShown", func(t *testing.T) {
		r := h.Do(t, http.MethodGet, base, org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
		var got api.Scan
		r.JSON(t, &got)
		require.NotNil(t, got.Progress)
		require.Equal(t, api.ScanProgress{PagesDone: len(pages), PagesPlanned: 10}, *got.Progress)
		require.Equal(t, 10, got.MaxPages)
	})

	// all reads every page of the list through its cursors, limit at a time.
	all := func(t *testing.T, query url.Values, limit int) []api.ScanPage {
		t.Helper()
		var out []api.ScanPage
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Set("limit", strconv.Itoa(limit))
		for range len(pages) + 1 {
			r := h.Do(t, http.MethodGet, base+"/pages?"+q.Encode(), org.Key, nil)
			require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
			var l api.ScanPageList
			r.JSON(t, &l)
			require.LessOrEqual(t, len(l.Data), limit)
			for _, p := range l.Data {
				require.Nil(t, p.Checks, "a list leaves checks out")
			}
			out = append(out, l.Data...)
			if !l.HasMore {
				require.Nil(t, l.NextCursor)
				return out
			}
			require.NotNil(t, l.NextCursor)
			q.Set("cursor", *l.NextCursor)
		}
		t.Fatal("the list did not end")
		return nil
	}
	urls := func(ps []api.ScanPage) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.URL
		}
		return out
	}
	// expect selects and orders the fixture pages as the list should.
	expect := func(keep func(store.NewScanPage) bool, less func(a, b store.NewScanPage) int) []string {
		var sel []store.NewScanPage
		for _, p := range pages {
			if keep == nil || keep(p) {
				sel = append(sel, p)
			}
		}
		slices.SortStableFunc(sel, func(a, b store.NewScanPage) int {
			if less != nil {
				if c := less(a, b); c != 0 {
					return c
				}
			}
			return cmp.Compare(a.Position, b.Position)
		})
		out := make([]string, len(sel))
		for i, p := range sel {
			out[i] = p.URL
		}
		return out
	}
	scoreKey := func(p store.NewScanPage, unjudged float64) float64 {
		if p.Score == nil {
			return unjudged
		}
		return *p.Score
	}
	hasCheck := func(id string, statuses ...string) func(store.NewScanPage) bool {
		return func(p store.NewScanPage) bool {
			for _, c := range p.Checks {
				if c.ID == id && slices.Contains(statuses, c.Status) {
					return true
				}
			}
			return false
		}
	}

	t.Run("Sorts", func(t *testing.T) {
		for _, limit := range []int{1, 2, 3, 100} {
			require.Equal(t, expect(nil, nil), urls(all(t, nil, limit)), "position, limit %d", limit)
			require.Equal(t, expect(nil, func(a, b store.NewScanPage) int { return cmp.Compare(a.URL, b.URL) }),
				urls(all(t, url.Values{"sort": {"url"}}, limit)), "url, limit %d", limit)
			require.Equal(t, expect(nil, func(a, b store.NewScanPage) int { return cmp.Compare(scoreKey(a, 1000), scoreKey(b, 1000)) }),
				urls(all(t, url.Values{"sort": {"score"}}, limit)), "score, limit %d", limit)
			require.Equal(t, expect(nil, func(a, b store.NewScanPage) int { return cmp.Compare(scoreKey(b, -1), scoreKey(a, -1)) }),
				urls(all(t, url.Values{"sort": {"-score"}}, limit)), "-score, limit %d", limit)
		}
	})

	t.Run("Filters", func(t *testing.T) {
		cases := []struct {
			query url.Values
			keep  func(store.NewScanPage) bool
		}{
			{url.Values{"status": {"audited"}}, func(p store.NewScanPage) bool { return p.Status == store.PageAudited }},
			{url.Values{"status": {"redirect"}}, func(p store.NewScanPage) bool { return p.Status == store.PageRedirect }},
			{url.Values{"status": {"error"}}, func(p store.NewScanPage) bool { return p.Status == store.PageError }},
			{url.Values{"check": {"title"}}, hasCheck("title", "fail", "warn")},
			{url.Values{"check": {"meta_description"}}, hasCheck("meta_description", "fail", "warn")},
			{url.Values{"check": {"no_such_check"}}, hasCheck("no_such_check", "fail", "warn")},
			{url.Values{"group": {"/blog/{slug}"}}, func(p store.NewScanPage) bool { return p.Group == "/blog/{slug}" }},
			{url.Values{"score_lt": {"50"}}, func(p store.NewScanPage) bool { return p.Score != nil && *p.Score < 50 }},
			{url.Values{"score_gte": {"55.5"}}, func(p store.NewScanPage) bool { return p.Score != nil && *p.Score >= 55.5 }},
			{url.Values{"score_gte": {"40"}, "score_lt": {"90"}, "group": {"/blog/{slug}"}}, func(p store.NewScanPage) bool {
				return p.Score != nil && *p.Score >= 40 && *p.Score < 90 && p.Group == "/blog/{slug}"
			}},
		}
		for _, c := range cases {
			want := expect(c.keep, nil)
			require.Equal(t, want, urls(all(t, c.query, 2)), "%v", c.query)
		}
		require.NotEmpty(t, expect(hasCheck("meta_description", "fail", "warn"), nil))
	})

	t.Run("GetOne", func(t *testing.T) {
		list := all(t, url.Values{"sort": {"position"}}, 100)
		second := list[1]
		r := h.Do(t, http.MethodGet, base+"/pages/"+second.ID.String(), org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
		var got api.ScanPage
		r.JSON(t, &got)
		require.Equal(t, pages[1].URL, got.URL)
		require.Equal(t, pages[1].Group, got.Group)
		require.Equal(t, api.PageStatus(pages[1].Status), got.Status)
		require.Equal(t, pages[1].HTTPStatus, got.HTTPStatus)
		require.Equal(t, pages[1].Score, got.Score)
		require.NotNil(t, got.Checks)
		require.Len(t, *got.Checks, len(pages[1].Checks))
		for i, c := range pages[1].Checks {
			require.Equal(t, api.PageCheck{ID: c.ID, Status: api.CheckStatus(c.Status), Summary: c.Summary}, (*got.Checks)[i])
		}
		h.Do(t, http.MethodGet, base+"/pages/"+uuid.NewString(), org.Key, nil).RequireError(t, http.StatusNotFound, "page_not_found", "page_id")
	})

	t.Run("OtherOrganization", func(t *testing.T) {
		list := all(t, nil, 100)
		h.Do(t, http.MethodGet, base+"/pages", other.Key, nil).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
		h.Do(t, http.MethodGet, base+"/pages/"+list[0].ID.String(), other.Key, nil).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
	})

	t.Run("BadParameters", func(t *testing.T) {
		for _, c := range []struct{ path, param string }{
			{"/api/v1/scans/not-a-uuid/pages", "scan_id"},
			{base + "/pages/not-a-uuid", "page_id"},
			{base + "/pages?sort=size", "sort"},
			{base + "/pages?status=ok", "status"},
			{base + "/pages?score_lt=abc", "score_lt"},
			{base + "/pages?score_gte=101", "score_gte"},
			{base + "/pages?limit=0", "limit"},
			{base + "/pages?cursor=nonsense", "cursor"},
		} {
			h.Do(t, http.MethodGet, c.path, org.Key, nil).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", c.param)
		}
		// A cursor is valid only with the sort it was made for.
		r := h.Do(t, http.MethodGet, base+"/pages?limit=1&sort=url", org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
		var l api.ScanPageList
		r.JSON(t, &l)
		require.NotNil(t, l.NextCursor)
		h.Do(t, http.MethodGet, base+"/pages?sort=score&cursor="+*l.NextCursor, org.Key, nil).
			RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "cursor")
	})
}

// TestScanPagesHomepageOnly: a homepage-only scan has no progress and no
// pages.
func TestScanPagesHomepageOnly(t *testing.T) {
	t.Parallel()
	h := start(t, startOptions(nil))
	org := h.NewOrg(t, "pro", true)
	created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
	require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
	var scan api.Scan
	created.JSON(t, &scan)
	require.Nil(t, scan.Progress)
	r := h.Do(t, http.MethodGet, "/api/v1/scans/"+scan.ID.String()+"/pages", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var l api.ScanPageList
	r.JSON(t, &l)
	require.Empty(t, l.Data)
	require.False(t, l.HasMore)
}

// TestScanPagesDeletedWithScan: deleting a scan deletes its pages.
func TestScanPagesDeletedWithScan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := start(t, startOptions(nil))
	org := h.NewOrg(t, "pro", true)
	created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/", "max_pages": 50})
	require.Equal(t, http.StatusCreated, created.Status, "body: %s", created.Body)
	var scan api.Scan
	created.JSON(t, &scan)
	for _, p := range fixturePages(scan.ID) {
		p.ScanID = scan.ID
		require.NoError(t, h.Store.AddScanPage(ctx, p))
	}
	n, err := h.Store.CountScanPages(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, len(fixturePages(scan.ID)), n)

	require.Equal(t, http.StatusNoContent, h.Do(t, http.MethodDelete, "/api/v1/scans/"+scan.ID.String(), org.Key, nil).Status)
	n, err = h.Store.CountScanPages(ctx, scan.ID)
	require.NoError(t, err)
	require.Zero(t, n)
}
