package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/report"
	triagepkg "github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// pdfScan creates a scan of url for org and stores a finished result for
// it (completeScan), its report made at scanned under brand.
func pdfScan(t *testing.T, h *apitest.Harness, org apitest.Org, url, brand string, scanned time.Time) uuid.UUID {
	t.Helper()
	resp, err := org.Client.CreateScanWithResponse(context.Background(), nil, client.ScanCreateRequest{URL: url, BrandName: &brand})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
	id := resp.JSON201.ID
	completeScan(t, h, id)
	editStored(t, h, "reports", id, func(s *report.Stored) {
		for _, r := range []*api.Report{&s.Marketing, &s.Engineering} {
			r.URL, r.BrandName, r.GeneratedAt = url, brand, scanned
		}
	})
	return id
}

// editStored rewrites the stored document of a scan in table (reports or
// triage_dossiers), as a recomputation stores it again.
func editStored[T any](t *testing.T, h *apitest.Harness, table string, id uuid.UUID, edit func(*T)) {
	t.Helper()
	ctx := context.Background()
	var body []byte
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT body FROM "+table+" WHERE scan_id = $1", id).Scan(&body))
	var doc T
	require.NoError(t, json.Unmarshal(body, &doc))
	edit(&doc)
	body, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = h.Store.Pool().Exec(ctx, "UPDATE "+table+" SET body = $2, created_at = now() WHERE scan_id = $1", id, body)
	require.NoError(t, err)
}

func getPDF(t *testing.T, h *apitest.Harness, org apitest.Org, id uuid.UUID, audience string, headers ...string) apitest.Response {
	t.Helper()
	path := "/api/v1/scans/" + id.String() + "/pdf"
	if audience != "" {
		path += "?audience=" + audience
	}
	return h.Do(t, "GET", path, org.Key, nil, headers...)
}

// requireRendered checks a PDF that was rendered for its request: it
// counted against api_render, which its headers describe.
func requireRendered(t *testing.T, r apitest.Response, renderLimit, remaining int) {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "body: %.300s", r.Body)
	require.Equal(t, "application/pdf", r.Header.Get("Content-Type"))
	require.Equal(t, "%PDF-", string(r.Body[:5]))
	require.NotEmpty(t, r.Header.Get("ETag"))
	requireRateHeaders(t, r, "api_render", renderLimit, remaining)
}

// requireCached checks a PDF served as rendered before: an ordinary read,
// the same bytes and entity tag as want.
func requireCached(t *testing.T, r, want apitest.Response) {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "body: %.300s", r.Body)
	require.Equal(t, "api_read", r.Header.Get("X-RateLimit-Group"), "a cached PDF counts as a read only")
	require.Equal(t, want.Body, r.Body)
	require.Equal(t, want.Header.Get("ETag"), r.Header.Get("ETag"))
	require.Equal(t, want.Header.Get("Content-Disposition"), r.Header.Get("Content-Disposition"))
}

// A PDF is rendered once per scan, audience and stored documents: the next
// request for it is served as rendered, counted as an ordinary read; the
// other audience is another document; If-None-Match with its entity tag is
// a 304; a deleted scan is a 404 whatever was rendered.
func TestScanPdfCache(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	scanned := time.Date(2026, 3, 14, 23, 40, 0, 0, time.UTC)
	id := pdfScan(t, h, org, "https://xn--bcher-kva.example/", "Bücher & Co.", scanned)

	first := getPDF(t, h, org, id, "")
	requireRendered(t, first, 30, 29)
	// Named after the day the site was scanned, as the cover says, not
	// the day of the download: the same document keeps its name.
	require.Equal(t, `attachment; filename="geoscan-xn--bcher-kva.example-2026-03-14.pdf"`, first.Header.Get("Content-Disposition"))
	requireCached(t, getPDF(t, h, org, id, ""), first)
	requireCached(t, getPDF(t, h, org, id, "marketing"), first)

	eng := getPDF(t, h, org, id, "engineering")
	requireRendered(t, eng, 30, 28)
	require.NotEqual(t, first.Body, eng.Body)
	require.NotEqual(t, first.Header.Get("ETag"), eng.Header.Get("ETag"))
	requireCached(t, getPDF(t, h, org, id, "engineering"), eng)

	etag := first.Header.Get("ETag")
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		r := getPDF(t, h, org, id, "", "If-None-Match", inm)
		require.Equal(t, http.StatusNotModified, r.Status, "If-None-Match: %s", inm)
		require.Empty(t, r.Body)
		require.Equal(t, etag, r.Header.Get("ETag"))
		require.Equal(t, "api_read", r.Header.Get("X-RateLimit-Group"))
	}
	// The marketing tag does not name the engineering document.
	requireCached(t, getPDF(t, h, org, id, "engineering", "If-None-Match", etag), eng)
	requireCached(t, getPDF(t, h, org, id, "", "If-None-Match", `"0123456789abcdef0123456789abcdef"`), first)

	// Another organization gets the 404 of a scan it does not have.
	stranger := h.NewOrg(t, "pro", true)
	getPDF(t, h, stranger, id, "").RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")

	require.Equal(t, http.StatusNoContent, h.Do(t, "DELETE", "/api/v1/scans/"+id.String(), org.Key, nil).Status)
	getPDF(t, h, org, id, "").RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
	getPDF(t, h, org, id, "", "If-None-Match", etag).RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
	getPDF(t, h, org, id, "engineering").RequireError(t, http.StatusNotFound, "scan_not_found", "scan_id")
}

// The PDF of a scan whose dossier is being recomputed says so; once the
// dossier is stored, and each time it is stored again with other content,
// the PDF is rendered anew, never the one without it or an older one.
func TestScanPdfFollowsTheDossier(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	id := pdfScan(t, h, org, "https://shop.example.co.uk/", "Épicerie Lumière", time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	var dossier []byte
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT body FROM triage_dossiers WHERE scan_id = $1", id).Scan(&dossier))
	_, err := h.Store.Pool().Exec(ctx, "DELETE FROM triage_dossiers WHERE scan_id = $1", id)
	require.NoError(t, err)

	without := getPDF(t, h, org, id, "")
	requireRendered(t, without, 30, 29)
	requireCached(t, getPDF(t, h, org, id, ""), without)

	_, err = h.Store.Pool().Exec(ctx, "INSERT INTO triage_dossiers (scan_id, schema_version, body) VALUES ($1, '1.0', $2)", id, dossier)
	require.NoError(t, err)
	with := getPDF(t, h, org, id, "")
	requireRendered(t, with, 30, 28)
	require.NotEqual(t, without.Body, with.Body)
	requireCached(t, getPDF(t, h, org, id, ""), with)

	editStored(t, h, "triage_dossiers", id, func(s *triagepkg.Stored) {
		s.Marketing.SummaryParagraph = "Ein WordPress-Shop mit WooCommerce."
	})
	recomputed := getPDF(t, h, org, id, "")
	requireRendered(t, recomputed, 30, 27)
	require.NotEqual(t, with.Body, recomputed.Body)
	require.NotEqual(t, with.Header.Get("ETag"), recomputed.Header.Get("ETag"))
	// The old tag no longer names the document.
	requireCached(t, getPDF(t, h, org, id, "", "If-None-Match", with.Header.Get("ETag")), recomputed)
}

// Renders have their own limit (GEOSCAN_RENDER_RATE_LIMIT): a burst of
// them is refused with 429 in the api_render group, while the same
// organization's ordinary reads, PDFs already rendered among them, go on,
// and another organization renders as before.
func TestScanPdfRenderLimit(t *testing.T) {
	t.Parallel()
	h := start(t, apitest.Options{Getenv: map[string]string{"GEOSCAN_RENDER_RATE_LIMIT": "3"}})
	org := h.NewOrg(t, "pro", true)
	scanned := time.Date(2026, 1, 30, 12, 0, 0, 0, time.UTC)
	var ids []uuid.UUID
	for _, brand := range []string{"Bücherstube", "東京ベーカリー", "مخبز القاهرة", "Пекарня"} {
		ids = append(ids, pdfScan(t, h, org, "https://example.com/", brand, scanned))
	}

	var first apitest.Response
	for i, id := range ids[:3] {
		r := getPDF(t, h, org, id, "")
		requireRendered(t, r, 3, 2-i)
		if i == 0 {
			first = r
		}
	}
	refused := getPDF(t, h, org, ids[3], "")
	requireRefused(t, refused, "org_rate_limit_exceeded")
	requireRateHeaders(t, refused, "api_render", 3, 0)
	require.Contains(t, refused.Error(t).Error.Message, "api_render")
	// The other audience of a rendered scan is a render too.
	requireRefused(t, getPDF(t, h, org, ids[0], "engineering"), "org_rate_limit_exceeded")

	// Reads go on: a PDF already rendered, the scan, the list.
	requireCached(t, getPDF(t, h, org, ids[0], ""), first)
	for _, path := range []string{"/api/v1/scans/" + ids[3].String(), "/api/v1/scans", "/api/v1/scans/" + ids[3].String() + "/report"} {
		r := h.Do(t, "GET", path, org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		require.Equal(t, "api_read", r.Header.Get("X-RateLimit-Group"))
	}

	// Another organization has its own allowance.
	other := h.NewOrg(t, "pro", true)
	theirs := pdfScan(t, h, other, "https://example.com/", "Panadería Sol", scanned)
	requireRendered(t, getPDF(t, h, other, theirs, ""), 3, 2)
}

// The PDF is written in the scan's language, and a scan's PDF in one
// language is never served for another's.
func TestScanPdfInTheScansLanguage(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	scan := func(lang client.ScanCreateRequestLanguage) uuid.UUID {
		brand := "Bäckerei"
		resp, err := org.Client.CreateScanWithResponse(context.Background(), nil,
			client.ScanCreateRequest{URL: "https://example.com/", BrandName: &brand, Language: &lang})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
		completeScan(t, h, resp.JSON201.ID)
		return resp.JSON201.ID
	}
	de := getPDF(t, h, org, scan(client.ScanCreateRequestLanguageDe), "")
	requireRendered(t, de, 30, 29)
	text := brandingPDFText(t, de.Body)
	require.Contains(t, text, "Zusammenfassung")
	require.Contains(t, text, "AUSGABE FÜR DAS MARKETING")
	require.NotContains(t, text, "Executive summary")

	en := getPDF(t, h, org, scan(client.ScanCreateRequestLanguageEn), "")
	requireRendered(t, en, 30, 28)
	require.Contains(t, brandingPDFText(t, en.Body), "Executive summary")
}
