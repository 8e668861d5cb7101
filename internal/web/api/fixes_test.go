package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// fixSite is a site as read whose robots.txt keeps OAI-SearchBot out in a
// group of its own, with no llms.txt, no structured data and no meta
// description, and a title that holds markup.
func fixSite(t *testing.T) *fetch.Site {
	t.Helper()
	u, err := url.Parse("https://example.com/")
	require.NoError(t, err)
	resp := func(purpose fetch.Purpose, path string, status int, ctype, body string) *fetch.Response {
		return &fetch.Response{
			Purpose: purpose, URL: "https://example.com" + path, FinalURL: "https://example.com" + path, Status: status,
			Method: http.MethodGet, Header: http.Header{"Content-Type": {ctype}}, Body: []byte(body), Bytes: len(body),
		}
	}
	home := resp(fetch.Homepage, "/", http.StatusOK, "text/html; charset=utf-8", `<!DOCTYPE html><html lang="en"><head><title>Example &lt;/title&gt; Tools</title>
<meta property="og:site_name" content="Example"></head><body><main><h1>Garden tools that last a lifetime</h1>
<p>Example forges spades, forks and hoes from carbon steel in Sheffield and repairs every tool it has ever sold, for free.</p>
<a href="/about/">About us</a> <a href="mailto:hello@example.com">Email</a></main></body></html>`)
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	site := &fetch.Site{
		Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p},
		Robots:  resp(fetch.Robots, "/robots.txt", http.StatusOK, "text/plain", "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
		LLMsTxt: resp(fetch.LLMsTxt, "/llms.txt", http.StatusNotFound, "text/plain", "not found"),
	}
	site.All = []*fetch.Response{home, site.Robots, site.LLMsTxt}
	return site
}

// The checks endpoint serves each check's fix as the engine wrote it,
// every response validated against the contract: the patch, the edits and
// the commands in both editions, the summary worded for each.
func TestChecksCarryFixes(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := created.JSON201.ID
	now := time.Now().UTC()
	res, err := audit.Run(ctx, audit.Target{URL: fixSite(t).Target, ScanID: id, BrandName: "Example"},
		audit.Options{Site: fixSite(t), Now: func() time.Time { return now }})
	require.NoError(t, err)
	body, err := json.Marshal(res.Report)
	require.NoError(t, err)
	pool := h.Store.Pool()
	_, err = pool.Exec(ctx, `UPDATE scans SET status = 'completed', started_at = now(), completed_at = now(), overall_score = $2,
		overall_grade = 'C', search_score = 50, search_grade = 'C', visibility_score = 50, visibility_grade = 'C',
		trust_score = 50, trust_grade = 'C', scoring_version = $3 WHERE id = $1`, id, res.Scores.Overall, res.Scores.Version)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO reports (scan_id, scoring_version, body) VALUES ($1, $2, $3)`, id, res.Scores.Version, body)
	require.NoError(t, err)

	eng := client.ListScanChecksParamsAudienceEngineering
	list, err := org.Client.ListScanChecksWithResponse(ctx, id, &client.ListScanChecksParams{Audience: &eng})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, list.StatusCode(), "body: %s", list.Body)
	byID := map[string]client.CheckResult{}
	withFix := 0
	for _, c := range list.JSON200.Data {
		byID[c.ID] = c
		if c.Fix != nil {
			withFix++
			require.Contains(t, []client.CheckStatus{client.CheckStatusWarn, client.CheckStatusFail}, c.Status, c.ID)
		}
	}
	require.GreaterOrEqual(t, withFix, 4)
	fix := byID["ai_search_bots_allowed"].Fix
	require.NotNil(t, fix)
	require.Equal(t, "robots_rule", fix.Cause)
	require.Equal(t, "generic", fix.Platform, "Site Triage recognised no platform on this site")
	require.Equal(t, []string{"Delete line 2: `Disallow: /`."}, fix.Edits)
	require.NotNil(t, fix.Artifact)
	require.Equal(t, client.Patch, fix.Artifact.Kind)
	require.Equal(t, "robots.txt.patch", fix.Artifact.Filename)
	require.Contains(t, fix.Artifact.Content, "-Disallow: /\n")
	require.NotEmpty(t, fix.Artifact.Checked)
	var commands int
	for _, v := range fix.Verify {
		if v.Command != nil {
			commands++
			require.Contains(t, *v.Command, "'https://example.com/robots.txt'")
		}
	}
	require.Positive(t, commands)
	require.Nil(t, byID["robots_txt_fetchable"].Fix, "a passed check has none")

	one, err := org.Client.GetScanCheckWithResponse(ctx, id, "llms_txt_present", &client.GetScanCheckParams{Audience: ptr(client.GetScanCheckParamsAudienceEngineering)})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, one.StatusCode(), "body: %s", one.Body)
	require.Equal(t, "llms.txt", one.JSON200.Fix.Artifact.Filename)
	require.True(t, strings.HasPrefix(one.JSON200.Fix.Artifact.Content, "# Example\n"), one.JSON200.Fix.Artifact.Content)

	mkt, err := org.Client.ListScanChecksWithResponse(ctx, id, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, mkt.StatusCode())
	for _, c := range mkt.JSON200.Data {
		if c.ID != "ai_search_bots_allowed" {
			continue
		}
		require.Equal(t, fix.Edits, c.Fix.Edits)
		require.NotEqual(t, fix.Summary, c.Fix.Summary)
		require.Equal(t, fix.Artifact.Content, c.Fix.Artifact.Content)
		require.Len(t, c.Fix.Verify, len(fix.Verify))
		for i, v := range c.Fix.Verify {
			require.Equal(t, fix.Verify[i].Command, v.Command)
		}
	}

	// The raw body: a check without a fix has no fix key at all.
	raw := h.Do(t, "GET", "/api/v1/scans/"+id.String()+"/checks/robots_txt_fetchable", org.Key, nil)
	require.Equal(t, http.StatusOK, raw.Status)
	require.NotContains(t, string(raw.Body), `"fix"`)
}
