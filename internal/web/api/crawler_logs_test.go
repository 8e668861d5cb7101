package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// sampleLog is a few lines of a Combined Log Format access log: a
// browser, OpenAI's search crawler from an address of its own published
// list and the same user agent from an address that is not.
func sampleLog(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "198.51.100.%d - - [20/Nov/2026:10:%02d:00 +0000] \"GET /page-%d HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0\"\n", i%250, i%60, i)
	}
	b.WriteString("203.0.113.9 - - [21/Nov/2026:09:00:00 +0000] \"GET /pricing HTTP/1.1\" 403 0 \"-\" \"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot\"\n")
	b.WriteString("this line is not a log line\n")
	return b.String()
}

func uploadLog(t *testing.T, h *apitest.Harness, key, query string, body []byte, headers ...string) apitest.Response {
	t.Helper()
	if len(headers) == 0 {
		headers = []string{"Content-Type", "text/plain"}
	}
	return h.Do(t, "POST", "/api/v1/crawler-logs"+query, key, body, headers...)
}

// analyse runs the analysis job of a log, as a worker would.
func analyse(t *testing.T, h *apitest.Harness, id uuid.UUID) {
	t.Helper()
	var jobs int
	require.NoError(t, h.Store.Pool().QueryRow(context.Background(),
		"SELECT count(*) FROM river_job WHERE kind = 'crawler_log' AND args->>'log_id' = $1", id.String()).Scan(&jobs))
	require.Equal(t, 1, jobs, "the upload queued its analysis")
	w := &crawlerlogs.Worker{Store: h.Store}
	require.NoError(t, w.Work(context.Background(), &river.Job[crawlerlogs.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: crawlerlogs.Args{LogID: id}}))
}

func TestCrawlerLogUploadAndAnalysis(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write([]byte(sampleLog(40)))
	require.NoError(t, err)
	require.NoError(t, zw.Close())

	for _, tc := range []struct {
		name    string
		body    []byte
		headers []string
		gzip    bool
	}{
		{"text", []byte(sampleLog(40)), nil, false},
		{"gzip", gz.Bytes(), []string{"Content-Type", "application/gzip"}, true},
		// gzip is known by its first bytes whatever the type says
		{"gzipAsText", gz.Bytes(), []string{"Content-Type", "text/plain; charset=utf-8"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := uploadLog(t, h, org.Key, "?domain=https://WWW.Example.com/shop", tc.body, tc.headers...)
			require.Equal(t, http.StatusAccepted, r.Status, "body: %s", r.Body)
			var lg api.CrawlerLog
			r.JSON(t, &lg)
			require.Equal(t, "www.example.com", lg.Domain, "the URL's host, lower case")
			require.Equal(t, api.CrawlerLogQueued, lg.Status)
			require.Equal(t, tc.gzip, lg.Gzip)
			require.EqualValues(t, len(tc.body), lg.Bytes)
			require.Nil(t, lg.Lines, "nothing counted before the analysis")

			// The job the upload queued, run here: a worker process would
			// also run the scans other tests of the package queue.
			analyse(t, h, lg.ID)
			var done api.CrawlerLog
			g := h.Do(t, "GET", "/api/v1/crawler-logs/"+lg.ID.String()+"?include=days,pages", org.Key, nil)
			require.Equal(t, http.StatusOK, g.Status, "body: %s", g.Body)
			g.JSON(t, &done)
			require.Equal(t, api.CrawlerLogSucceeded, done.Status, "error: %+v", done.Error)
			require.EqualValues(t, 42, *done.Lines)
			require.EqualValues(t, 41, *done.ParsedLines)
			require.EqualValues(t, 1, *done.UnparsedLines)
			require.EqualValues(t, 40, *done.OtherHits)
			require.Len(t, done.Bots, 1)
			bot := done.Bots[0]
			require.Equal(t, "OAI-SearchBot", bot.Token)
			require.Equal(t, api.BotRoleSearch, bot.Role)
			require.EqualValues(t, 1, bot.Hits)
			require.EqualValues(t, 0, bot.VerifiedHits, "203.0.113.9 is in no published list")
			require.EqualValues(t, 1, bot.UnverifiedHits)
			require.Equal(t, []api.StatusHits{{Status: 403, Hits: 1}}, bot.Statuses)
			require.NotNil(t, bot.Days)
			require.Len(t, *bot.Days, 1)
			require.Equal(t, "2026-11-21", (*bot.Days)[0].Date.String())
			require.NotNil(t, bot.Pages)
			require.Equal(t, "/pricing", (*bot.Pages)[0].Path)
			require.NotNil(t, done.CrossCheck)
			require.Equal(t, api.CrossCheckNotMeasured, done.CrossCheck.Status, "no audit of the site yet")
			require.Contains(t, *done.CrossCheck.Reason, "www.example.com")

			// The list shows it without its breakdowns.
			l := h.Do(t, "GET", "/api/v1/crawler-logs?domain=www.example.com&limit=100", org.Key, nil)
			require.Equal(t, http.StatusOK, l.Status, "body: %s", l.Body)
			var list api.CrawlerLogList
			l.JSON(t, &list)
			found := false
			for _, x := range list.Data {
				if x.ID == lg.ID {
					found = true
					require.Nil(t, x.Bots[0].Days)
					require.Nil(t, x.Bots[0].Pages)
				}
			}
			require.True(t, found)

			// The upload is gone once analysed; only the counts stay.
			var chunks int
			require.NoError(t, h.Store.Pool().QueryRow(context.Background(), "SELECT count(*) FROM crawler_log_chunks WHERE log_id = $1", lg.ID).Scan(&chunks))
			require.Zero(t, chunks)
		})
	}
}

func TestCrawlerLogUploadRefusals(t *testing.T) {
	t.Parallel()
	h := start(t, apitest.Options{Hosts: apitest.DefaultHosts, Getenv: map[string]string{"GEOSCAN_CRAWLER_LOG_MAX_MB": "1"}})
	org := h.NewOrg(t, "pro", true)
	other := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	body := []byte(sampleLog(3))

	uploadLog(t, h, org.Key, "", body).RequireError(t, http.StatusUnprocessableEntity, "missing_parameter", "domain")
	uploadLog(t, h, org.Key, "?domain=not-a-host", body).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "domain")
	uploadLog(t, h, org.Key, "?domain=10.0.0.1", body).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "domain")

	// An internationalised name is filed in its ASCII form, a port and a
	// trailing dot left out.
	idn := uploadLog(t, h, org.Key, "?domain=B%C3%BCcher.example:443.", body)
	require.Equal(t, http.StatusAccepted, idn.Status, "body: %s", idn.Body)
	var idnLog api.CrawlerLog
	idn.JSON(t, &idnLog)
	require.Equal(t, "xn--bcher-kva.example", idnLog.Domain)
	uploadLog(t, h, org.Key, "?domain=example.com&schedule_id=5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", body).
		RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "schedule_id")
	uploadLog(t, h, org.Key, "?schedule_id=5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", body).
		RequireError(t, http.StatusNotFound, "schedule_not_found", "schedule_id")
	uploadLog(t, h, org.Key, "?domain=example.com", nil).RequireError(t, http.StatusUnprocessableEntity, "missing_parameter", "")

	r := uploadLog(t, h, org.Key, "?domain=example.com", body, "Content-Type", "image/png")
	r.RequireError(t, http.StatusUnsupportedMediaType, "unsupported_media_type", "")
	require.Contains(t, r.Error(t).Error.Message, "text/plain")
	// curl's default for --data-binary
	uploadLog(t, h, org.Key, "?domain=example.com", body, "Content-Type", "application/x-www-form-urlencoded").
		RequireError(t, http.StatusUnsupportedMediaType, "unsupported_media_type", "")
	uploadLog(t, h, "", "?domain=example.com", body).RequireError(t, http.StatusUnauthorized, "api_key_required", "")

	// Above the limit (1 MiB here): refused, and nothing of it is kept.
	big := bytes.Repeat([]byte(sampleLog(1)), (2<<20)/len(sampleLog(1)))
	uploadLog(t, h, org.Key, "?domain=big.example.com", big).RequireError(t, http.StatusRequestEntityTooLarge, "request_too_large", "")
	var n int
	require.NoError(t, h.Store.Pool().QueryRow(context.Background(),
		"SELECT count(*) FROM crawler_logs WHERE org_id = $1 AND domain = 'big.example.com'", org.ID).Scan(&n))
	require.Zero(t, n, "no row of a refused upload")

	// An upload cut off half way leaves nothing either.
	raw := fmt.Sprintf("POST /api/v1/crawler-logs?domain=cut.example.com HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n%s", org.Key, body)
	cut := h.DoRaw(t, []byte(raw), true)
	require.Equal(t, http.StatusBadRequest, cut.Status, "body: %s", cut.Body)
	require.NoError(t, h.Store.Pool().QueryRow(context.Background(),
		"SELECT count(*) FROM crawler_logs WHERE org_id = $1 AND domain = 'cut.example.com'", org.ID).Scan(&n))
	require.Zero(t, n)

	// Another organization's log is not found, to read or to delete.
	ok := uploadLog(t, h, org.Key, "?domain=example.com", body)
	require.Equal(t, http.StatusAccepted, ok.Status, "body: %s", ok.Body)
	var lg api.CrawlerLog
	ok.JSON(t, &lg)
	h.Do(t, "GET", "/api/v1/crawler-logs/"+lg.ID.String(), other.Key, nil).RequireError(t, http.StatusNotFound, "crawler_log_not_found", "log_id")
	h.Do(t, "DELETE", "/api/v1/crawler-logs/"+lg.ID.String(), other.Key, nil).RequireError(t, http.StatusNotFound, "crawler_log_not_found", "log_id")
	h.Do(t, "GET", "/api/v1/crawler-logs/"+lg.ID.String()+"?include=bogus", org.Key, nil).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "include")
	del := h.Do(t, "DELETE", "/api/v1/crawler-logs/"+lg.ID.String(), org.Key, nil)
	require.Equal(t, http.StatusNoContent, del.Status, "body: %s", del.Body)
	h.Do(t, "GET", "/api/v1/crawler-logs/"+lg.ID.String(), org.Key, nil).RequireError(t, http.StatusNotFound, "crawler_log_not_found", "log_id")
}
