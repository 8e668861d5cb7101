package scanner

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestWholeSiteScanStoresEachPageOnce: a scan of the megasite with a page
// budget of 50 stores 50 pages and its progress; the same job run again,
// as after a restart, stores no page twice.
func TestWholeSiteScanStoresEachPageOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "whole-site", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	u := audittest.URL(t, testsite.Megasite)
	created, err := st.CreateScan(ctx, store.NewScan{
		OrgID: org.ID, Source: store.SourceAPI, URL: u.String(), Domain: u.Hostname(),
		BrandName: "Northwind Outfitters", MaxPages: 50,
	}, time.Now())
	require.NoError(t, err)
	require.Equal(t, 50, created.MaxPages)

	_, f := audittest.Sites(t)
	r := &Runner{
		Store: st, Fetcher: f, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Budget: 2 * time.Minute,
		Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
	}
	run := func() {
		t.Helper()
		scanCtx, cancel := context.WithTimeoutCause(ctx, r.Budget, fetch.ErrBudget)
		defer cancel()
		_, err := r.Run(scanCtx, created.ID, true)
		require.NoError(t, err)
		done, err := st.GetScan(ctx, org.ID, created.ID)
		require.NoError(t, err)
		require.Equal(t, store.ScanCompleted, done.Status, "error: %v", done.ErrorMessage)
	}
	run()
	n, err := st.CountScanPages(ctx, created.ID)
	require.NoError(t, err)
	require.Equal(t, 50, n)
	scan, err := st.GetScan(ctx, org.ID, created.ID)
	require.NoError(t, err)
	require.NotNil(t, scan.PagesPlanned)
	require.Equal(t, 50, *scan.PagesPlanned)
	require.Equal(t, 50, scan.PagesDone)
	first, err := st.ListScanPages(ctx, org.ID, created.ID, store.PageFilter{}, store.PageSortPosition, nil, 100)
	require.NoError(t, err)
	require.Len(t, first, 50)
	seen := map[string]bool{}
	for i, p := range first {
		require.Equal(t, i, p.Position)
		require.Contains(t, p.URL, u.Host, "a page of the megasite")
		require.False(t, seen[p.URL], "%s stored twice", p.URL)
		seen[p.URL] = true
	}
	require.Equal(t, u.String(), first[0].URL, "the homepage is page 0")

	// A worker that died mid-crawl leaves the scan running with the pages
	// it stored (here: a page no crawl of the site stores) and its
	// progress; the job runs again from the start and stores the pages of
	// its own crawl only.
	_, err = pool.Exec(ctx, `UPDATE scans SET status = 'running', pages_done = 7 WHERE id = $1`, created.ID)
	require.NoError(t, err)
	require.NoError(t, st.AddScanPage(ctx, store.NewScanPage{
		ScanID: created.ID, Position: 50, URL: u.String() + "left-by-the-dead-worker", Group: "/x", Type: "other", Status: store.PageError,
	}))
	run()
	again, err := st.ListScanPages(ctx, org.ID, created.ID, store.PageFilter{}, store.PageSortPosition, nil, 100)
	require.NoError(t, err)
	require.Len(t, again, 50, "one crawl's pages, nothing of the attempt before")
	seen = map[string]bool{}
	for i, p := range again {
		require.Equal(t, i, p.Position)
		require.NotContains(t, p.URL, "left-by-the-dead-worker")
		require.False(t, seen[p.URL], "%s stored twice", p.URL)
		seen[p.URL] = true
	}
	scan, err = st.GetScan(ctx, org.ID, created.ID)
	require.NoError(t, err)
	require.Equal(t, 50, scan.PagesDone)
	require.Equal(t, 50, storedReport(t, st, created.ID).Engineering.Site.PagesAudited+unjudged(again), "the roll-up counts the pages stored")
}

// storedReport is a completed whole-site scan's stored report.
func storedReport(t *testing.T, st *store.Store, scanID uuid.UUID) report.Stored {
	t.Helper()
	rep, err := st.GetReport(context.Background(), scanID)
	require.NoError(t, err)
	var doc report.Stored
	require.NoError(t, json.Unmarshal(rep.Body, &doc))
	require.NotNil(t, doc.Engineering.Site)
	require.NotNil(t, doc.Marketing.Site)
	require.NotNil(t, doc.Engineering.CrossCuttingIssues)
	require.Equal(t, doc.Engineering.Site.Trend, doc.Marketing.Site.Trend, "both editions tell the same trend")
	return doc
}

// unjudged counts the pages stored without being judged.
func unjudged(pages []store.ScanPage) int {
	n := 0
	for _, p := range pages {
		if p.Status != store.PageAudited {
			n++
		}
	}
	return n
}

// TestWholeSiteScanTrend: a second whole-site scan of a site reports how
// it changed since the first, read back from the first's stored pages;
// a homepage scan between them, another URL and another organization's
// scans are not the previous audit.
func TestWholeSiteScanTrend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	var orgs []store.Organization
	for _, name := range []string{"trend", "trend-other"} {
		org, err := st.CreateOrganization(ctx, name, "pro", true)
		require.NoError(t, err)
		orgs = append(orgs, org)
		t.Cleanup(func() {
			_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
			require.NoError(t, err)
		})
	}
	org := orgs[0]
	u := audittest.URL(t, testsite.Megasite)
	_, f := audittest.Sites(t)
	r := &Runner{
		Store: st, Fetcher: f, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Budget: 2 * time.Minute,
		Crawl: crawl.Options{Unthrottled: true},
	}
	scan := func(o store.Organization, target string, maxPages int) uuid.UUID {
		t.Helper()
		created, err := st.CreateScan(ctx, store.NewScan{
			OrgID: o.ID, Source: store.SourceAPI, URL: target, Domain: u.Hostname(),
			BrandName: "Northwind Outfitters", MaxPages: maxPages,
		}, time.Now())
		require.NoError(t, err)
		scanCtx, cancel := context.WithTimeoutCause(ctx, r.Budget, fetch.ErrBudget)
		defer cancel()
		_, err = r.Run(scanCtx, created.ID, true)
		require.NoError(t, err)
		done, err := st.GetScan(ctx, o.ID, created.ID)
		require.NoError(t, err)
		require.Equal(t, store.ScanCompleted, done.Status, "error: %v", done.ErrorMessage)
		return created.ID
	}

	first := scan(org, u.String(), 20)
	require.Nil(t, storedReport(t, st, first).Engineering.Site.Trend, "no previous whole-site audit, no trend")
	firstIssues := *storedReport(t, st, first).Engineering.CrossCuttingIssues
	require.NotEmpty(t, firstIssues, "the megasite has faults on many pages")

	// What the first audit stored is what the trend reads: one of its
	// issues is taken out of its pages (so it is new in the second), and
	// a check the second audit does not know is put on all of them (so it
	// is resolved).
	gone := firstIssues[0].CheckID
	_, err := pool.Exec(ctx, `UPDATE scan_pages SET checks = coalesce((SELECT jsonb_agg(c) FROM jsonb_array_elements(checks) c WHERE c ->> 'id' <> $2), '[]')
		|| CASE WHEN status = 'audited' THEN '[{"id": "retired_check", "status": "fail", "summary": ""}]'::jsonb ELSE '[]'::jsonb END
		WHERE scan_id = $1`, first, gone)
	require.NoError(t, err)
	firstPages, err := st.ListScanPages(ctx, org.ID, first, store.PageFilter{}, store.PageSortPosition, nil, 100)
	require.NoError(t, err)
	audited, sum, scored := 0, 0.0, 0
	for _, p := range firstPages {
		if p.Status == store.PageAudited {
			audited++
		}
		if p.Score != nil {
			sum += *p.Score
			scored++
		}
	}
	require.Positive(t, scored)

	scan(org, u.String(), 1)           // a homepage audit: not a whole-site one
	scan(orgs[1], u.String(), 20)      // another organization's
	scan(org, u.String()+"?other", 20) // another URL
	second := scan(org, u.String(), 30)

	doc := storedReport(t, st, second)
	trend := doc.Engineering.Site.Trend
	require.NotNil(t, trend)
	require.Equal(t, first, trend.PreviousScanID)
	require.Equal(t, audited, trend.PagesAuditedThen)
	require.Equal(t, doc.Engineering.Site.PagesAudited, trend.PagesAuditedNow)
	require.NotNil(t, trend.ScoreThen)
	require.InDelta(t, sum/float64(scored), *trend.ScoreThen, 0.05, "the mean score of the pages stored")
	require.NotNil(t, trend.ScoreNow)
	require.NotNil(t, trend.ScoreDelta)
	require.InDelta(t, *trend.ScoreNow-*trend.ScoreThen, *trend.ScoreDelta, 0.051)

	type change struct {
		change    string
		then, now int
	}
	byID := map[string]change{}
	for _, is := range trend.Issues {
		byID[is.CheckID] = change{string(is.Change), is.PagesAffectedThen, is.PagesAffectedNow}
	}
	require.Equal(t, change{"resolved", audited, 0}, byID["retired_check"])
	require.Equal(t, "new", byID[gone].change)
	require.Zero(t, byID[gone].then)
	for _, is := range *doc.Engineering.CrossCuttingIssues {
		require.Contains(t, byID, is.CheckID, "every issue of now is in the trend")
		require.Equal(t, is.PagesAffected, byID[is.CheckID].now)
	}
	require.Equal(t, "new", string(trend.Issues[0].Change), "new issues first")
	require.Equal(t, "resolved", string(trend.Issues[len(trend.Issues)-1].Change), "resolved ones last")
}

// TestWholeSiteScanPoliteness: a whole-site scan crawls as politely as its
// organization's limits say: the plan's by default, the organization's
// own values when set; Unthrottled still lifts the rate.
func TestWholeSiteScanPoliteness(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "politeness", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	u := audittest.URL(t, testsite.Megasite)
	created, err := st.CreateScan(ctx, store.NewScan{
		OrgID: org.ID, Source: store.SourceAPI, URL: u.String(), Domain: u.Hostname(), BrandName: "Northwind", MaxPages: 10,
	}, time.Now())
	require.NoError(t, err)
	r := &Runner{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Crawl: crawl.Options{Unthrottled: true, MaxBytes: 1 << 20}}
	crawlOf := func() crawl.Options {
		t.Helper()
		var opts audit.Options
		require.NoError(t, r.wholeSite(ctx, &opts, created, r.Logger))
		require.Equal(t, 10, opts.MaxPages)
		require.NotNil(t, opts.Pages)
		require.Equal(t, planlimits.Defaults("pro").RenderPages, opts.RenderPages, "the plan bounds the pages a browser renders")
		return opts.Crawl
	}
	got := crawlOf()
	require.Equal(t, crawl.Options{Unthrottled: true, MaxBytes: 1 << 20, Rate: 2, PerHost: 2}, got, "the plan's politeness, the runner's other options")

	rate, inFlight := 5.5, int32(6)
	_, err = st.SetOverrides(ctx, org.ID, planlimits.Overrides{CrawlRate: &rate, CrawlConcurrency: &inFlight})
	require.NoError(t, err)
	got = crawlOf()
	require.InDelta(t, 5.5, got.Rate, 1e-9)
	require.Equal(t, 6, got.PerHost)
	require.True(t, got.Unthrottled)

	// The database keeps an override within the bounds of a polite crawl.
	for _, q := range []string{
		`UPDATE organizations SET crawl_rate_override = 0 WHERE id = $1`,
		`UPDATE organizations SET crawl_rate_override = 21 WHERE id = $1`,
		`UPDATE organizations SET crawl_concurrency_override = 17 WHERE id = $1`,
		`UPDATE organizations SET crawl_concurrency_override = 0 WHERE id = $1`,
	} {
		_, err := pool.Exec(ctx, q, org.ID)
		require.Error(t, err, q)
	}
}

// TestHomepageScanStoresNoPages: a scan with the default page budget is
// the homepage audit alone: no pages, no progress.
func TestHomepageScanStoresNoPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "homepage-only", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	u := audittest.URL(t, testsite.Megasite)
	created, err := st.CreateScan(ctx, store.NewScan{
		OrgID: org.ID, Source: store.SourceAPI, URL: u.String(), Domain: u.Hostname(), BrandName: "Northwind Outfitters",
	}, time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, created.MaxPages)
	_, f := audittest.Sites(t)
	r := &Runner{Store: st, Fetcher: f, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Budget: time.Minute}
	scanCtx, cancel := context.WithTimeoutCause(ctx, r.Budget, fetch.ErrBudget)
	defer cancel()
	_, err = r.Run(scanCtx, created.ID, true)
	require.NoError(t, err)
	scan, err := st.GetScan(ctx, org.ID, created.ID)
	require.NoError(t, err)
	require.Equal(t, store.ScanCompleted, scan.Status)
	require.Nil(t, scan.PagesPlanned)
	n, err := st.CountScanPages(ctx, created.ID)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestPageStatus(t *testing.T) {
	t.Parallel()
	score := 80.0
	for _, c := range []struct {
		page audit.PageResult
		want store.PageStatus
	}{
		{audit.PageResult{HTTPStatus: 200, Score: &score}, store.PageAudited},
		{audit.PageResult{HTTPStatus: 200}, store.PageAudited}, // judged, no scored check
		{audit.PageResult{HTTPStatus: 301, Error: "the page redirects to /b"}, store.PageRedirect},
		{audit.PageResult{HTTPStatus: 404, Error: "the page answered HTTP 404"}, store.PageError},
		{audit.PageResult{HTTPStatus: 503, Error: "the page answered HTTP 503"}, store.PageError},
		{audit.PageResult{HTTPStatus: 0, Error: "the request failed: timeout"}, store.PageError},
		{audit.PageResult{HTTPStatus: 200, Error: "the page is not HTML (application/pdf)"}, store.PageNotHTML},
	} {
		require.Equal(t, c.want, pageStatus(c.page), "%+v", c.page)
	}
}
