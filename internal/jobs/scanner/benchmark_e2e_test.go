package scanner_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestScanWithCompetitorsAndAccessLog runs a scan through the API and the
// River workers that names two competitors, one of them unreachable, for
// a site with an analysed access log: the report shows the competitor
// audited at the scan's page budget beside the one that could not be,
// the share of voice of the three brands from the one set of buyer
// questions, and the log's crawlers set beside this scan. Not parallel:
// other tests' workers share the queue and have no engine.
func TestScanWithCompetitorsAndAccessLog(t *testing.T) {
	eng := scripted.Start(scripted.Demo())
	t.Cleanup(eng.Close)
	h := engine(t, map[string]string{"GEOSCAN_LLM_BASE_URL": eng.URL, "GEOSCAN_LLM_MODEL": "demo-model", "GEOSCAN_LLM_RUNS": "2"})
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	site := s.URL(testsite.Bakery)
	host := s.Host(testsite.Bakery)

	// An access log of the site, analysed by the workers.
	log := fmt.Sprintf("4.227.36.10 - - [20/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot\"\n" +
		"198.51.100.7 - - [20/Nov/2026:10:01:00 +0000] \"GET / HTTP/1.1\" 200 9000 \"-\" \"Mozilla/5.0 Firefox/130.0\"\n")
	up, err := org.Client.CreateCrawlerLogWithBodyWithResponse(ctx, &client.CreateCrawlerLogParams{Domain: &host}, "text/plain", bytes.NewReader([]byte(log)))
	require.NoError(t, err)
	require.Equal(t, http.StatusAccepted, up.StatusCode(), "body: %s", up.Body)
	_, ok := poll.For(t, 60*time.Second, func() (client.CrawlerLogStatus, bool) {
		g, err := org.Client.GetCrawlerLogWithResponse(ctx, up.JSON202.ID, nil)
		require.NoError(t, err)
		return g.JSON200.Status, g.JSON200.Status == client.CrawlerLogSucceeded || g.JSON200.Status == client.CrawlerLogFailed
	})
	require.True(t, ok, "the log was analysed")

	// A fixture host on a port where nothing listens: refused at once.
	unreachable := "https://" + s.Host(testsite.Wiki) + ":1/"
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{
		URL: site, Competitors: &[]string{s.URL(testsite.Winery), unreachable},
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	done, ok := poll.For(t, 120*time.Second, func() (client.Scan, bool) {
		g, err := org.Client.GetScanWithResponse(ctx, created.JSON201.ID)
		require.NoError(t, err)
		return *g.JSON200, g.JSON200.Status == client.ScanStatusCompleted || g.JSON200.Status == client.ScanStatusFailed
	})
	require.True(t, ok)
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v", done.ErrorMessage)

	rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, rep.StatusCode(), "body: %s", rep.Body)
	r := rep.JSON200
	require.NotNil(t, r.Competitors)
	comps := *r.Competitors
	require.Len(t, comps, 2)
	require.Equal(t, s.URL(testsite.Winery), comps[0].URL)
	require.Equal(t, client.CompetitorAudited, comps[0].Status, "reason: %v", comps[0].Reason)
	require.NotNil(t, comps[0].Rings)
	require.NotNil(t, comps[0].OverallGrade)
	require.Equal(t, client.CompetitorFailed, comps[1].Status, "an unreachable competitor fails alone")
	require.NotEmpty(t, *comps[1].Reason)
	require.NotNil(t, r.ShareOfVoice)
	require.Len(t, r.ShareOfVoice.Brands, len(comps)+1, "the site's brand and each competitor's")
	require.True(t, r.ShareOfVoice.Brands[0].You)
	for _, b := range r.ShareOfVoice.Brands {
		require.LessOrEqual(t, b.K, b.N, b.Brand)
	}

	ca := r.CrawlerActivity
	require.NotNil(t, ca, "the site's log beside the scan")
	require.Equal(t, up.JSON202.ID, ca.LogID)
	require.Len(t, ca.Bots, 1)
	require.Equal(t, "OAI-SearchBot", ca.Bots[0].Token)
	require.NotNil(t, ca.CrossCheck)
	require.Equal(t, done.ID, *ca.CrossCheck.ScanID)

	pdf, err := org.Client.GetScanPdfWithResponse(ctx, done.ID, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, pdf.StatusCode())
	require.True(t, bytes.HasPrefix(pdf.Body, []byte("%PDF-")))
}
