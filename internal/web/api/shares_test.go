package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// newCompletedScan creates a scan of org and stores a finished result for
// it.
func newCompletedScan(t *testing.T, h *apitest.Harness, org apitest.Org) uuid.UUID {
	t.Helper()
	created, err := org.Client.CreateScanWithResponse(context.Background(), nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	completeScan(t, h, created.JSON201.ID)
	return created.JSON201.ID
}

// createShare posts a share link of a scan and returns the link and the
// path of its public page.
func createShare(t *testing.T, h *apitest.Harness, org apitest.Org, scanID uuid.UUID, body any) (api.ShareCreated, string) {
	t.Helper()
	r := h.Do(t, "POST", "/api/v1/scans/"+scanID.String()+"/shares", org.Key, body)
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var s api.ShareCreated
	r.JSON(t, &s)
	i := strings.Index(s.URL, "/r/gss_")
	require.GreaterOrEqual(t, i, 0, "url %q", s.URL)
	return s, s.URL[i:]
}

// requirePageHeaders checks what every answer of a share link carries.
func requirePageHeaders(t *testing.T, r apitest.Response) {
	t.Helper()
	require.Contains(t, r.Header.Get("Content-Security-Policy"), "default-src 'none'")
	require.Contains(t, r.Header.Get("X-Robots-Tag"), "noindex")
	require.Equal(t, "no-referrer", r.Header.Get("Referrer-Policy"))
	require.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "text/html"), "content type %q", r.Header.Get("Content-Type"))
}

func TestScanShares(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	scanID := newCompletedScan(t, h, org)

	t.Run("CreateListOpenRevoke", func(t *testing.T) {
		t.Parallel()
		s, path := createShare(t, h, org, scanID, nil)
		require.Equal(t, api.ShareCreatedAudienceMarketing, s.Audience)
		require.Equal(t, api.ShareCreatedLanguageEn, s.Language)
		require.Nil(t, s.RevokedAt)
		require.Nil(t, s.Label)
		require.WithinDuration(t, time.Now().AddDate(0, 0, 30), s.ExpiresAt, time.Minute)
		token := strings.TrimPrefix(path, "/r/")
		require.Len(t, token, 4+43, "gss_ and 32 bytes in base64url")

		page := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusOK, page.Status, "body: %s", page.Body)
		requirePageHeaders(t, page)
		require.Contains(t, string(page.Body), "marketing: exec", "the marketing report")

		list, err := org.Client.ListScanSharesWithResponse(ctx, scanID, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, list.StatusCode(), "body: %s", list.Body)
		require.NotContains(t, string(list.Body), token, "a token is shown once")
		var found *client.Share
		for i := range list.JSON200.Data {
			if list.JSON200.Data[i].ID == s.ID {
				found = &list.JSON200.Data[i]
			}
		}
		require.NotNil(t, found)
		require.True(t, strings.HasSuffix(found.URLHint, "/r/gss_…"), "hint %q", found.URLHint)

		rev, err := org.Client.RevokeScanShareWithResponse(ctx, scanID, s.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusNoContent, rev.StatusCode(), "body: %s", rev.Body)
		gone := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusGone, gone.Status)
		requirePageHeaders(t, gone)
		require.NotContains(t, string(gone.Body), "marketing: exec", "a revoked link shows no report")

		again, err := org.Client.RevokeScanShareWithResponse(ctx, scanID, s.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusNoContent, again.StatusCode(), "revoking twice changes nothing")
		list, err = org.Client.ListScanSharesWithResponse(ctx, scanID, nil)
		require.NoError(t, err)
		for _, l := range list.JSON200.Data {
			if l.ID == s.ID {
				require.NotNil(t, l.RevokedAt)
			}
		}

		require.NotContains(t, h.Logs(), token, "the request log redacts the token")
	})

	t.Run("Options", func(t *testing.T) {
		t.Parallel()
		s, path := createShare(t, h, org, scanID, map[string]any{"audience": "engineering", "language": "de", "label": "For the agency", "expires_in_days": 7})
		require.Equal(t, api.ShareCreatedAudienceEngineering, s.Audience)
		require.Equal(t, api.ShareCreatedLanguageDe, s.Language)
		require.Equal(t, "For the agency", *s.Label)
		require.WithinDuration(t, time.Now().AddDate(0, 0, 7), s.ExpiresAt, time.Minute)
		page := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusOK, page.Status)
		require.Contains(t, string(page.Body), "engineering: exec", "the engineering report")
		require.NotContains(t, string(page.Body), "For the agency", "the label is the owner's note")
		require.Contains(t, string(page.Body), `<html lang="de">`, "the page is in the link's language")
		require.Contains(t, string(page.Body), ">Zusammenfassung</h2>", "its headings are German")

		// Revoked, the link says so in its language too.
		rev, err := org.Client.RevokeScanShareWithResponse(ctx, scanID, s.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusNoContent, rev.StatusCode(), "body: %s", rev.Body)
		gone := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusGone, gone.Status)
		requirePageHeaders(t, gone)
		require.Contains(t, string(gone.Body), `<html lang="de">`)
		require.Contains(t, string(gone.Body), "<h1>Dieser Link wurde widerrufen oder ist abgelaufen</h1>")
		require.NotContains(t, string(gone.Body), "Zusammenfassung", "a revoked link shows no report")

		at := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
		s2, _ := createShare(t, h, org, scanID, map[string]any{"expires_at": at.Format(time.RFC3339)})
		require.True(t, at.Equal(s2.ExpiresAt), "%s != %s", at, s2.ExpiresAt)
	})

	t.Run("Rejections", func(t *testing.T) {
		t.Parallel()
		post := func(body any) func(int, string, string) {
			r := h.Do(t, "POST", "/api/v1/scans/"+scanID.String()+"/shares", org.Key, body)
			return func(status int, code, param string) { r.RequireError(t, status, code, param) }
		}
		post(map[string]any{"audience": "sales"})(422, "invalid_parameter", "audience")
		post(map[string]any{"language": "it"})(422, "invalid_parameter", "language")
		post(map[string]any{"expires_in_days": 366})(422, "invalid_parameter", "expires_in_days")
		post(map[string]any{"expires_in_days": 0})(422, "invalid_parameter", "expires_in_days")
		post(map[string]any{"expires_at": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)})(422, "invalid_parameter", "expires_at")
		post(map[string]any{"expires_at": time.Now().AddDate(1, 1, 0).UTC().Format(time.RFC3339)})(422, "invalid_parameter", "expires_at")
		post(map[string]any{"expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "expires_in_days": 3})(422, "invalid_parameter", "expires_in_days")
		post(map[string]any{"label": strings.Repeat("x", 201)})(422, "invalid_parameter", "label")
		post(map[string]any{"token": "mine"})(422, "unknown_parameter", "token")

		r := h.Do(t, "POST", "/api/v1/scans/"+scanID.String()+"/shares", org.Key, map[string]any{"language": "it"})
		for _, lang := range []string{"en", "de", "fr", "es"} {
			require.Contains(t, r.Error(t).Error.Message, lang, "the message names the supported languages")
		}
	})

	t.Run("OnlyCompletedScans", func(t *testing.T) {
		t.Parallel()
		pending, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/pending"})
		require.NoError(t, err)
		r := h.Do(t, "POST", "/api/v1/scans/"+pending.JSON201.ID.String()+"/shares", org.Key, nil)
		r.RequireError(t, http.StatusBadRequest, "scan_not_complete", "scan_id")
	})

	t.Run("OtherOrganization", func(t *testing.T) {
		t.Parallel()
		s, _ := createShare(t, h, org, scanID, nil)
		other := h.NewOrg(t, "pro", true)
		base := "/api/v1/scans/" + scanID.String() + "/shares"
		h.Do(t, "POST", base, other.Key, nil).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
		h.Do(t, "GET", base, other.Key, nil).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
		h.Do(t, "DELETE", base+"/"+s.ID.String(), other.Key, nil).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")

		// The link of one scan is not a link of another, even in the same
		// organization.
		second := newCompletedScan(t, h, org)
		h.Do(t, "DELETE", "/api/v1/scans/"+second.String()+"/shares/"+s.ID.String(), org.Key, nil).
			RequireError(t, http.StatusNotFound, "share_not_found", "share_id")
		list, err := org.Client.ListScanSharesWithResponse(ctx, second, nil)
		require.NoError(t, err)
		require.Empty(t, list.JSON200.Data)
	})

	t.Run("TokenIsNoKey", func(t *testing.T) {
		t.Parallel()
		_, path := createShare(t, h, org, scanID, nil)
		token := strings.TrimPrefix(path, "/r/")
		h.Do(t, "GET", "/api/v1/scans/"+scanID.String()+"/report", token, nil).RequireError(t, http.StatusUnauthorized, "api_key_invalid", "")
		h.Do(t, "GET", "/api/v1/scans/"+scanID.String()+"/report?token="+token, "", nil).RequireError(t, http.StatusUnauthorized, "api_key_required", "")
	})

	t.Run("Expired", func(t *testing.T) {
		t.Parallel()
		s, path := createShare(t, h, org, scanID, nil)
		require.NoError(t, h.Store.SetShareLinkExpiry(ctx, s.ID, time.Now().Add(-time.Second)))
		r := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusGone, r.Status)
		requirePageHeaders(t, r)
		require.NotContains(t, string(r.Body), "marketing: exec")
	})

	t.Run("Unknown", func(t *testing.T) {
		t.Parallel()
		for _, path := range []string{"/r/gss_" + strings.Repeat("A", 43), "/r/nonsense", "/r/gss_"} {
			r := h.Do(t, "GET", path, "", nil)
			require.Equal(t, http.StatusNotFound, r.Status, path)
			requirePageHeaders(t, r)
		}
	})

	t.Run("DeletedScan", func(t *testing.T) {
		t.Parallel()
		id := newCompletedScan(t, h, org)
		_, path := createShare(t, h, org, id, nil)
		require.Equal(t, http.StatusOK, h.Do(t, "GET", path, "", nil).Status)
		del, err := org.Client.DeleteScanWithResponse(ctx, id)
		require.NoError(t, err)
		require.Equal(t, http.StatusNoContent, del.StatusCode())
		r := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusNotFound, r.Status, "the links went with the scan")
		requirePageHeaders(t, r)
	})

	t.Run("HostileReportEscaped", func(t *testing.T) {
		t.Parallel()
		id := newCompletedScan(t, h, org)
		hostile := `<script>alert("x")</script><img src=x onerror=alert(1)>`
		stored := report.Stored{Marketing: fixtureReport(id, api.AudienceMarketing, 0), Engineering: fixtureReport(id, api.AudienceEngineering, 0)}
		stored.Marketing.BrandName = hostile
		stored.Marketing.Summaries.Executive = hostile
		stored.Marketing.Checks[0].Title = hostile
		body, err := json.Marshal(stored)
		require.NoError(t, err)
		_, err = h.Store.Pool().Exec(ctx, `UPDATE reports SET body = $2 WHERE scan_id = $1`, id, body)
		require.NoError(t, err)
		_, path := createShare(t, h, org, id, nil)
		r := h.Do(t, "GET", path, "", nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.NotContains(t, string(r.Body), "<script>alert")
		require.NotContains(t, string(r.Body), "<img src=x")
		require.Contains(t, string(r.Body), "&lt;script&gt;", "the text is shown, escaped")
	})
}

// Share links are counted per client address like the API before a key,
// so tokens cannot be guessed at the speed of the server.
func TestShareLinksRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	h := start(t, apitest.Options{Getenv: map[string]string{
		"GEOSCAN_IP_RATE_LIMIT":   "3",
		"GEOSCAN_TRUSTED_PROXIES": "127.0.0.1",
	}})
	addr := testClientAddress()
	guess := "/r/gss_" + strings.Repeat("B", 43)
	for range 3 {
		require.Equal(t, http.StatusNotFound, h.Do(t, "GET", guess, "", nil, "X-Forwarded-For", addr).Status)
	}
	r := h.Do(t, "GET", guess, "", nil, "X-Forwarded-For", addr, "Accept-Language", "de-DE, de;q=0.9, en;q=0.5")
	require.Equal(t, http.StatusTooManyRequests, r.Status)
	require.NotEmpty(t, r.Header.Get("Retry-After"))
	// A person opened the link: the refusal is a page in the browser's
	// language, not the API's envelope.
	requirePageHeaders(t, r)
	require.Contains(t, string(r.Body), `<html lang="de">`)
	require.Contains(t, string(r.Body), "<h1>Zu viele Anfragen</h1>")
	require.NotContains(t, string(r.Body), "ip_rate_limit_exceeded")
	require.Equal(t, http.StatusNotFound, h.Do(t, "GET", guess, "", nil, "X-Forwarded-For", testClientAddress()).Status, "another address is not affected")
}

// The shared page draws the scores of the organization's completed scans
// of the same URL up to the shared one, not later ones nor other
// organizations'.
func TestShareLinkHistory(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	other := h.NewOrg(t, "pro", true)
	newCompletedScan(t, h, other)
	first := newCompletedScan(t, h, org)
	second := newCompletedScan(t, h, org)

	_, path := createShare(t, h, org, second, nil)
	r := h.Do(t, "GET", path, "", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, string(r.Body), "Scores of 2 scans")

	_, path = createShare(t, h, org, first, nil)
	r = h.Do(t, "GET", path, "", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.NotContains(t, string(r.Body), "Scores of", "one scan draws no trend")
}

// TestShareLinkCarriesTheBrand: a shared report, and the page of a link
// that no longer works, wear the organization's brand, and GeoScan's name
// only where the organization allows it.
func TestShareLinkCarriesTheBrand(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	scanID := newCompletedScan(t, h, org)
	_, path := createShare(t, h, org, scanID, nil)

	page := h.Do(t, "GET", path, "", nil)
	require.Equal(t, http.StatusOK, page.Status, "body: %s", page.Body)
	require.Contains(t, string(page.Body), "Made with GeoScan", "no branding: GeoScan's own look")

	name, contact, hide := "Acme <Agency>", "hello@acme.test", false
	set, err := org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{Name: &name, Contact: &contact, ShowGeoscan: &hide})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)

	page = h.Do(t, "GET", path, "", nil)
	require.Equal(t, http.StatusOK, page.Status, "body: %s", page.Body)
	body := string(page.Body)
	require.Contains(t, body, "Acme &lt;Agency&gt;", "the brand's name, escaped")
	require.Contains(t, body, contact)
	require.NotContains(t, body, "Made with GeoScan")

	shares, err := org.Client.ListScanSharesWithResponse(ctx, scanID, nil)
	require.NoError(t, err)
	require.Len(t, shares.JSON200.Data, 1)
	del, err := org.Client.RevokeScanShareWithResponse(ctx, scanID, shares.JSON200.Data[0].ID)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode(), "body: %s", del.Body)
	gone := h.Do(t, "GET", path, "", nil)
	require.Equal(t, http.StatusGone, gone.Status)
	require.Contains(t, string(gone.Body), "Acme &lt;Agency&gt;", "the page of a revoked link wears the brand too")
	require.NotContains(t, string(gone.Body), "marketing: exec", "and none of the report")
}
