package scancrash

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/webhook"
)

// TestWorkerKilledMidCrawl kills a worker process with SIGKILL in the
// middle of a whole-site audit, after it stored some of the pages, and
// checks that the scan a second worker completes holds the pages of one
// crawl: as many as its progress says, each position and URL once, and
// as many judged as the report's roll-up counts.
func TestWorkerKilledMidCrawl(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s, caFile := fixtures(t)
	bin := binarytest.Build(t)
	host := s.Host(testsite.Megasite)
	h := apitest.Start(t, pgtest.URL(), apitest.Options{
		AllowPrivateTargets: true, Hosts: map[string][]string{host: {"127.0.0.1"}}, Getenv: map[string]string{"GEOSCAN_ROLE": "api"},
	})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	const budget = 16
	maxPages := budget
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: s.URL(testsite.Megasite), MaxPages: &maxPages})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	id := created.JSON201.ID

	// The crawl is as polite as the pro plan says (2 requests a second),
	// so the worker is caught with a few pages stored and most to go.
	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_RESOLVE=" + host + "=127.0.0.1",
		"GEOSCAN_PLAIN_HTTP_PORT=" + strconv.Itoa(s.HTTPPort()), "GEOSCAN_SCAN_BUDGET=25s", "GEOSCAN_LOG_LEVEL=info",
	}
	pool := h.Store.Pool()
	stored := func() int {
		t.Helper()
		var n int
		require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM scan_pages WHERE scan_id = $1", id).Scan(&n))
		return n
	}
	first := binarytest.Serve(t, "first worker", bin, "worker", env)
	binarytest.Until(t, 60*time.Second, "the first worker to store some pages", func() bool { return stored() >= 3 }, first)
	// The site stops answering, so the crawl is still mid-way when the
	// worker dies.
	release := s.Hold(testsite.Megasite)
	defer release()
	first.Kill(t)
	release()
	var firstPages []string
	rows, err := pool.Query(ctx, "SELECT id::text FROM scan_pages WHERE scan_id = $1", id)
	require.NoError(t, err)
	for rows.Next() {
		var p string
		require.NoError(t, rows.Scan(&p))
		firstPages = append(firstPages, p)
	}
	require.NoError(t, rows.Err())
	require.Less(t, len(firstPages), budget, "killed mid-crawl")
	require.Equal(t, client.ScanStatusRunning, scanStatus(ctx, t, org, id).Status, "a killed worker leaves its scan running")

	second := binarytest.Serve(t, "second worker", bin, "worker", env)
	binarytest.Until(t, 150*time.Second, "the second worker to finish the rescued scan", func() bool {
		return webhook.IsFinished(string(scanStatus(ctx, t, org, id).Status))
	}, second)
	done := scanStatus(ctx, t, org, id)
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v; worker logs:\n%s", done.ErrorMessage, second.Logs())
	var attempts, pagesDone int
	require.NoError(t, pool.QueryRow(ctx, "SELECT attempts, pages_done FROM scans WHERE id = $1", id).Scan(&attempts, &pagesDone))
	require.Equal(t, 2, attempts, "the scan ran once in each worker")

	var n, positions, urls, maxPosition, judged int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT position), count(DISTINCT url), coalesce(max(position), -1),
		count(*) FILTER (WHERE status = 'audited') FROM scan_pages WHERE scan_id = $1`, id).Scan(&n, &positions, &urls, &maxPosition, &judged))
	require.Equal(t, budget, pagesDone, "the second crawl judged the whole budget")
	require.Equal(t, pagesDone, n, "the pages stored are the pages the crawl judged, no more")
	require.Equal(t, n, positions, "each position once")
	require.Equal(t, n, urls, "each URL once")
	require.Equal(t, n-1, maxPosition, "positions 0 to n-1: one crawl's")
	var kept int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM scan_pages WHERE id = ANY($1::uuid[])", firstPages).Scan(&kept))
	require.Zero(t, kept, "none of the killed worker's pages is left")

	rep, err := org.Client.GetScanReportWithResponse(ctx, id, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, rep.StatusCode(), "body: %s", rep.Body)
	require.NotNil(t, rep.JSON200.Site)
	require.Equal(t, judged, rep.JSON200.Site.PagesAudited, "the roll-up counts the pages stored")
}
