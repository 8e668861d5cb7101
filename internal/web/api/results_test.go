package api_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/report"
	triagepkg "github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// fixtureReport builds a report whose texts depend on the audience and whose
// numbers do not, shifted by delta so comparisons have something to find.
func fixtureReport(scanID uuid.UUID, audience api.Audience, delta int) api.Report {
	text := func(s string) string { return string(audience) + ": " + s }
	score := func(v float64) *float64 { return &v }
	pillar := func(id string, ring api.Ring, s int) api.Pillar {
		v := s + delta
		return api.Pillar{ID: id, Name: strings.ToUpper(id[:1]) + id[1:], Ring: ring, Score: &v, Weight: 0.5, Coverage: 1, Description: text("pillar " + id), CheckCount: 2}
	}
	ring := func(r api.Ring, s int, pillars ...api.Pillar) api.RingResult {
		return api.RingResult{Ring: r, Score: s + delta, Grade: api.GradeB, GradeDescriptor: text("good"), Coverage: 0.9, Pillars: pillars}
	}
	checks := []api.CheckResult{
		{ID: "robots_txt_present", Title: "robots.txt is present", Ring: api.Search, Pillar: "crawl_access", Status: api.CheckStatusPass, Score: score(1), Weight: 2, Impact: api.LevelHigh, Effort: api.LevelLow, Summary: "Found.", Evidence: map[string]any{"status": 200}, WhyItMatters: text("crawlers read it")},
		{ID: "llms_txt_present", Title: "llms.txt is present", Ring: api.Visibility, Pillar: "ai_readiness", Status: api.CheckStatusFail, Score: score(0), Weight: 1, Impact: api.LevelMedium, Effort: api.LevelLow, Summary: "Missing.", Evidence: map[string]any{}, WhyItMatters: text("models read it"), Recommendation: ptr(text("add it"))},
		{ID: "org_schema", Title: "Organization schema", Ring: api.Trust, Pillar: "identity", Status: api.CheckStatusWarn, Score: score(0.5), Weight: 1, Impact: api.LevelHigh, Effort: api.LevelMedium, Summary: "Partial.", Evidence: map[string]any{"types": []any{"Organization"}}, WhyItMatters: text("identity"), Recommendation: ptr(text("complete it"))},
		{ID: "crux_field_data", Title: "Field performance data", Ring: api.Trust, Pillar: "identity", Status: api.CheckStatusNa, Weight: 1, Impact: api.LevelLow, Effort: api.LevelHigh, Summary: "Not measured yet.", Evidence: map[string]any{}, WhyItMatters: text("speed")},
	}
	if delta > 0 {
		checks[1].Status, checks[1].Score, checks[1].Recommendation = api.CheckStatusPass, score(1), nil
	}
	return api.Report{
		ScanID: scanID, URL: "https://example.com/", BrandName: "example", Audience: api.ReportAudience(audience),
		ScoringVersion: "2026.1", GeneratedAt: time.Now().UTC().Truncate(time.Second),
		OverallScore: 72.5 + float64(delta), OverallGrade: api.GradeB, GradeDescriptor: text("solid"),
		Rings: struct {
			Search     api.RingResult `json:"search"`
			Trust      api.RingResult `json:"trust"`
			Visibility api.RingResult `json:"visibility"`
		}{
			Search:     ring(api.Search, 80, pillar("crawl_access", api.Search, 80)),
			Trust:      ring(api.Trust, 74, pillar("identity", api.Trust, 74)),
			Visibility: ring(api.Visibility, 64, pillar("ai_readiness", api.Visibility, 64)),
		},
		GatesFired: []api.Gate{},
		Counts:     api.CheckCounts{Pass: 1, Fail: 1, Warn: 1, Na: 1},
		Checks:     checks,
		Fetch:      api.FetchSummary{Pages: 3, Bytes: 12345, DurationMs: 420, Fetches: []api.FetchRecord{{URL: "https://example.com/", Purpose: "homepage", StatusCode: ptr(200), Bytes: 12000, DurationMs: 300, Redirects: []string{}}}},
		Summaries:  api.Summaries{Source: api.Template, Executive: text("exec"), Search: text("s"), Visibility: text("v"), Trust: text("t")},
	}
}

// completeScan stores a finished result for a scan, as the engine will.
func completeScan(t *testing.T, h *apitest.Harness, id uuid.UUID, deltas ...int) {
	t.Helper()
	delta := 0
	if len(deltas) > 0 {
		delta = deltas[0]
	}
	ctx := context.Background()
	doc, err := json.Marshal(report.Stored{
		Marketing:   fixtureReport(id, api.AudienceMarketing, delta),
		Engineering: fixtureReport(id, api.AudienceEngineering, delta),
	})
	require.NoError(t, err)
	dossier := func(audience api.TriageDossierAudience) api.TriageDossier {
		return api.TriageDossier{
			ScanID: id, SchemaVersion: "1.0", Audience: audience, SummaryParagraph: string(audience) + ": a WordPress site.",
			Platform: api.TriagePlatform{
				Cms: ptr("WordPress"), ComplexityBucket: api.TriagePlatformComplexityBucketModerate,
				Confidence: api.TriagePlatformConfidenceHigh, Technologies: []api.TriageTechnology{},
			},
			PriorityActions: []api.TriageAction{}, Strengths: []api.TriageFinding{}, EvidenceLedger: []api.TriageFinding{},
			Caveats: []string{}, RiskLenses: []api.TriageRiskLens{},
		}
	}
	triage, err := json.Marshal(triagepkg.Stored{Marketing: dossier(api.TriageDossierAudienceMarketing), Engineering: dossier(api.TriageDossierAudienceEngineering)})
	require.NoError(t, err)
	pool := h.Store.Pool()
	_, err = pool.Exec(ctx, `UPDATE scans SET status = 'completed', started_at = now(), completed_at = now(),
		overall_score = $2, overall_grade = 'B', search_score = $3, search_grade = 'B', visibility_score = $4,
		visibility_grade = 'C', trust_score = $5, trust_grade = 'B', scoring_version = '2026.1' WHERE id = $1`,
		id, 72.5+float64(delta), 80+delta, 64+delta, 74+delta)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO reports (scan_id, scoring_version, body) VALUES ($1, '2026.1', $2)`, id, doc)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO triage_dossiers (scan_id, schema_version, body) VALUES ($1, '1.0', $2)`, id, triage)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO check_results (scan_id, check_id, ring, pillar, status, score, weight, impact, effort, position)
		VALUES ($1, 'robots_txt_present', 'search', 'crawl_access', 'pass', 1, 2, 'high', 'low', 0)`, id)
	require.NoError(t, err)
}

func TestScanResults(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := created.JSON201.ID
	completeScan(t, h, id)

	t.Run("ReportAudienceChangesTextsOnly", func(t *testing.T) {
		t.Parallel()
		m, err := org.Client.GetScanReportWithResponse(ctx, id, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, m.StatusCode(), "body: %s", m.Body)
		e, err := org.Client.GetScanReportWithResponse(ctx, id, &client.GetScanReportParams{Audience: ptr(client.GetScanReportParamsAudienceEngineering)})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, e.StatusCode())
		require.Equal(t, client.ReportAudienceMarketing, m.JSON200.Audience)
		require.Equal(t, client.ReportAudienceEngineering, e.JSON200.Audience)
		require.NotEqual(t, m.JSON200.GradeDescriptor, e.JSON200.GradeDescriptor)
		require.Equal(t, numbersOf(t, m.Body), numbersOf(t, e.Body), "numbers must not depend on the audience")
	})

	t.Run("Checks", func(t *testing.T) {
		t.Parallel()
		all, err := org.Client.ListScanChecksWithResponse(ctx, id, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, all.StatusCode(), "body: %s", all.Body)
		require.Len(t, all.JSON200.Data, 4)
		require.Equal(t, client.CheckCounts{Pass: 1, Fail: 1, Warn: 1, Na: 1}, all.JSON200.Counts)

		trust, err := org.Client.ListScanChecksWithResponse(ctx, id, &client.ListScanChecksParams{Ring: ptr(client.Trust), Status: ptr(client.CheckStatusWarn)})
		require.NoError(t, err)
		require.Len(t, trust.JSON200.Data, 1)
		require.Equal(t, "org_schema", trust.JSON200.Data[0].ID)

		one, err := org.Client.GetScanCheckWithResponse(ctx, id, "llms_txt_present", &client.GetScanCheckParams{Audience: ptr(client.GetScanCheckParamsAudienceEngineering)})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, one.StatusCode())
		require.Equal(t, "engineering: add it", *one.JSON200.Recommendation)

		h.Do(t, "GET", "/api/v1/scans/"+id.String()+"/checks/no_such_check", org.Key, nil).RequireError(t, 404, "check_not_found", "check_id")
		h.Do(t, "GET", "/api/v1/scans/"+id.String()+"/checks/Bad-Id", org.Key, nil).RequireError(t, 422, "invalid_parameter", "check_id")
	})

	t.Run("Triage", func(t *testing.T) {
		t.Parallel()
		tr, err := org.Client.GetScanTriageWithResponse(ctx, id, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, tr.StatusCode(), "body: %s", tr.Body)
		require.Equal(t, "1.0", tr.JSON200.SchemaVersion)
		require.Equal(t, "WordPress", *tr.JSON200.Platform.Cms)
		require.Equal(t, client.TriageDossierAudienceMarketing, tr.JSON200.Audience)
		eng, err := org.Client.GetScanTriageWithResponse(ctx, id, &client.GetScanTriageParams{Audience: ptr(client.GetScanTriageParamsAudienceEngineering)})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, eng.StatusCode(), "body: %s", eng.Body)
		require.Equal(t, "engineering: a WordPress site.", eng.JSON200.SummaryParagraph)
		h.Do(t, "GET", "/api/v1/scans/"+id.String()+"/triage?audience=cfo", org.Key, nil).RequireError(t, 422, "invalid_parameter", "audience")
	})

	t.Run("PDF", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "GET", "/api/v1/scans/"+id.String()+"/pdf", org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "body: %.300s", r.Body)
		require.Equal(t, "application/pdf", r.Header.Get("Content-Type"))
		require.True(t, strings.HasPrefix(string(r.Body), "%PDF-"))
		require.Contains(t, r.Header.Get("Content-Disposition"), "geoscan-example.com-")
	})

	t.Run("Compare", func(t *testing.T) {
		t.Parallel()
		later, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
		require.NoError(t, err)
		completeScan(t, h, later.JSON201.ID, 5)
		cmp, err := org.Client.CompareScansWithResponse(ctx, &client.CompareScansParams{Base: id, Target: later.JSON201.ID})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, cmp.StatusCode(), "body: %s", cmp.Body)
		c := cmp.JSON200
		require.True(t, c.SameURL)
		require.InDelta(t, 5.0, *c.Overall.Delta, 0.001)
		require.InDelta(t, 5.0, *c.Rings.Visibility.Delta, 0.001)
		require.Len(t, c.Pillars, 3)
		require.Equal(t, 1, c.Summary.Improved)
		require.Equal(t, 3, c.Summary.Unchanged)
		for _, d := range c.Checks {
			if d.CheckID == "llms_txt_present" {
				require.Equal(t, client.Improved, d.Change)
			}
		}

		stranger := h.NewOrg(t, "free", true)
		h.Do(t, "GET", "/api/v1/scans/compare?base="+id.String()+"&target="+later.JSON201.ID.String(), stranger.Key, nil).
			RequireError(t, 404, "scan_not_found", "base")
		h.Do(t, "GET", "/api/v1/scans/compare?base="+id.String(), org.Key, nil).RequireError(t, 422, "missing_parameter", "target")
	})
}

// numbersOf collects every number in a JSON document with its path.
func numbersOf(t *testing.T, body []byte) map[string]float64 {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(body, &v))
	out := map[string]float64{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(path+"."+k, c)
			}
		case []any:
			for i, c := range x {
				walk(path+"["+strings.Repeat("i", i+1)+"]", c)
			}
		case float64:
			out[path] = x
		}
	}
	walk("$", v)
	require.NotEmpty(t, out)
	return out
}

var update = flag.Bool("update", false, "rewrite the golden files")

// requireGolden compares an export with testdata/name once the values that
// change from run to run (scan ids, timestamps) are replaced by names.
func requireGolden(t *testing.T, name string, body []byte, ids map[string]string) {
	t.Helper()
	got := string(body)
	for id, label := range ids {
		got = strings.ReplaceAll(got, id, label)
	}
	got = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).ReplaceAllString(got, "<time>")
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}

func TestScanExport(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	ids := map[string]string{}
	var scans []uuid.UUID
	for i := range 4 {
		body := client.ScanCreateRequest{URL: "https://example.com/", Project: ptr("=HYPERLINK(\"x\")")}
		if i == 0 {
			body.BrandName = ptr("+cmd")
		}
		resp, err := org.Client.CreateScanWithResponse(ctx, nil, body)
		require.NoError(t, err)
		ids[resp.JSON201.ID.String()] = fmt.Sprintf("<scan %d>", i)
		scans = append(scans, resp.JSON201.ID)
	}
	completeScan(t, h, scans[2])
	// A failed scan: its error_code and a message a spreadsheet would run,
	// with a comma, a quote and a line break that CSV must quote.
	_, err := h.Store.Pool().Exec(ctx, `UPDATE scans SET status = 'failed', error_code = 'fetch_failed',
		error_message = E'-1 reasons, "quoted"\nsecond line' WHERE id = $1`, scans[3])
	require.NoError(t, err)
	// A second check for the completed scan, after the first in report order.
	_, err = h.Store.Pool().Exec(ctx, `INSERT INTO check_results (scan_id, check_id, ring, pillar, status, score, weight, impact, effort, position)
		VALUES ($1, 'llms_txt', 'visibility', 'ai_access', 'na', NULL, 0.5, 'low', 'low', 1)`, scans[2])
	require.NoError(t, err)
	// Another organization's scan never appears.
	other := h.NewOrg(t, "pro", true)
	_, err = other.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)

	r := h.Do(t, "GET", "/api/v1/scans/export", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	require.Contains(t, r.Header.Get("Content-Disposition"), "attachment")
	require.Equal(t, "4", r.Trailer.Get("X-Export-Rows"), "a complete export ends with its row count")
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 5)
	require.Equal(t, "scan_id", rows[0][0])
	require.Equal(t, "error_code", rows[0][18])
	require.Equal(t, "fetch_failed", rows[1][18])
	require.Equal(t, "'-1 reasons, \"quoted\"\nsecond line", rows[1][17], "formulas are defused, text kept whole")
	require.Equal(t, "completed", rows[2][5])
	require.Equal(t, "72.5", rows[2][6])
	require.Equal(t, "'=HYPERLINK(\"x\")", rows[2][4], "formulas are defused")
	require.Equal(t, "'+cmd", rows[4][3])
	require.Empty(t, rows[3][6], "null scores are empty cells")
	requireGolden(t, "export_scans.csv", r.Body, ids)

	limited := h.Do(t, "GET", "/api/v1/scans/export?limit=1&status=completed", org.Key, nil)
	require.Equal(t, http.StatusOK, limited.Status)
	rows, err = csv.NewReader(strings.NewReader(string(limited.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 2)
	require.Equal(t, scans[2].String(), rows[1][0])
	require.Equal(t, "1", limited.Trailer.Get("X-Export-Rows"))

	// include=checks: one row per check of the same scans.
	checks := h.Do(t, "GET", "/api/v1/scans/export?include=checks", org.Key, nil)
	require.Equal(t, http.StatusOK, checks.Status)
	require.Equal(t, "2", checks.Trailer.Get("X-Export-Rows"))
	requireGolden(t, "export_checks.csv", checks.Body, ids)
	none := h.Do(t, "GET", "/api/v1/scans/export?include=checks&status=failed", org.Key, nil)
	require.Equal(t, http.StatusOK, none.Status)
	require.Equal(t, "scan_id,check_id,ring,pillar,status,score,weight\n", string(none.Body))
	h.Do(t, "GET", "/api/v1/scans/export?include=scores", org.Key, nil).RequireError(t, 422, "invalid_parameter", "include")
}

// Every text cell of an export that a spreadsheet would run as a formula
// is defused with a leading apostrophe, in every column: the values users
// send (brand_name, project), those that come from the site (url, domain,
// the error of a failed scan) and the API's own (grades, versions, check
// ids and pillars), whichever form the formula takes (full-width signs,
// leading whitespace, a leading tab or carriage return). The scores stay
// numbers.
func TestScanExportDefusesFormulas(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	// Through the API: what a user may send.
	resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{
		URL: "https://example.com/", BrandName: ptr("＝HYPERLINK(\"http://x\")"), Project: ptr("@SUM(A1)"),
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, resp.StatusCode(), string(resp.Body))
	sent := resp.JSON201.ID

	// Stored by other ways (a site, an older version, the engine): every
	// text column of both exports holds a formula of another form.
	stored := map[string]string{
		"url":              "\t=1+1",
		"domain":           "\u00a0-2+3",
		"brand_name":       " ＝cmd|' /C calc'!A0",
		"project":          "\n @SUM(A1)",
		"overall_grade":    "=A",
		"search_grade":     "+B",
		"visibility_grade": "－C",
		"trust_grade":      "\u3000＠D",
		"scoring_version":  "\ufeff=1",
		"error_message":    "\u2003＋1 failed",
		"error_code":       "-fetch_failed",
	}
	resp, err = org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := resp.JSON201.ID
	completeScan(t, h, id)
	_, err = h.Store.Pool().Exec(ctx, `UPDATE scans SET url = $2, domain = $3, brand_name = $4, project = $5,
		overall_grade = $6, search_grade = $7, visibility_grade = $8, trust_grade = $9, scoring_version = $10,
		error_message = $11, error_code = $12 WHERE id = $1`, id, stored["url"], stored["domain"], stored["brand_name"],
		stored["project"], stored["overall_grade"], stored["search_grade"], stored["visibility_grade"], stored["trust_grade"],
		stored["scoring_version"], stored["error_message"], stored["error_code"])
	require.NoError(t, err)
	_, err = h.Store.Pool().Exec(ctx, `UPDATE check_results SET check_id = '=check', pillar = ' +pillar' WHERE scan_id = $1`, id)
	require.NoError(t, err)

	r := h.Do(t, "GET", "/api/v1/scans/export", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	column := map[string]int{}
	for i, name := range rows[0] {
		column[name] = i
	}
	byID := map[string][]string{rows[1][0]: rows[1], rows[2][0]: rows[2]}
	require.Equal(t, "'＝HYPERLINK(\"http://x\")", byID[sent.String()][column["brand_name"]])
	require.Equal(t, "'@SUM(A1)", byID[sent.String()][column["project"]])
	row := byID[id.String()]
	for name, v := range stored {
		require.Equal(t, "'"+v, row[column[name]], name)
	}
	require.Equal(t, "completed", row[column["status"]])
	for name, want := range map[string]string{"overall_score": "72.5", "search_score": "80", "visibility_score": "64", "trust_score": "74"} {
		require.Equal(t, want, row[column[name]], "%s: a score stays a number", name)
	}

	checks := h.Do(t, "GET", "/api/v1/scans/export?include=checks", org.Key, nil)
	require.Equal(t, http.StatusOK, checks.Status)
	require.Equal(t, "text/csv; charset=utf-8", checks.Header.Get("Content-Type"))
	rows, err = csv.NewReader(strings.NewReader(string(checks.Body))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"scan_id", "check_id", "ring", "pillar", "status", "score", "weight"},
		{id.String(), "'=check", "search", "' +pillar", "pass", "1", "2"},
	}, rows)
}

// An export has no row cap: thousands of scans come in one response.
func TestScanExportHasNoCap(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	insertScans(t, h, org, 12000)
	r := h.Do(t, "GET", "/api/v1/scans/export", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, 12001, strings.Count(string(r.Body), "\n"))
	require.Equal(t, "12000", r.Trailer.Get("X-Export-Rows"))
}

func insertScans(t testing.TB, h *apitest.Harness, org apitest.Org, n int) {
	t.Helper()
	_, err := h.Store.Pool().Exec(context.Background(), `INSERT INTO scans (org_id, url, domain, brand_name, created_at)
		SELECT $1, 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'site' || g, now() - g * interval '1 second'
		FROM generate_series(1, $2::integer) g`, org.ID, n)
	require.NoError(t, err)
}

// An export that fails after it started cannot change its status: the
// client gets a body cut short, reported by its HTTP library as an
// incomplete response, and no X-Export-Rows trailer. The test is not
// parallel: it ends the COPY sessions of its database, and parallel tests
// run only after it, so the one it ends is its own.
func TestScanExportFailingMidwayIsTruncated(t *testing.T) {
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	// Far more than the socket buffers hold, so the export is still
	// running while the client has read only its start.
	insertScans(t, h, org, 200000)

	req, err := http.NewRequest(http.MethodGet, h.APIURL+"/scans/export", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", org.Key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	head := make([]byte, 4096)
	_, err = io.ReadFull(resp.Body, head)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(head), "scan_id,url,"))

	// The database session running the COPY goes away.
	var killed int
	require.NoError(t, h.Store.Pool().QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE '%COPY (%' AND pid <> pg_backend_pid()`).Scan(&killed))
	require.Equal(t, 1, killed)

	_, err = io.Copy(io.Discard, resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Empty(t, resp.Trailer.Get("X-Export-Rows"))
	require.Contains(t, h.Logs(), "export failed midway")
}

// BenchmarkExport measures GET /scans/export of 100 000 scans through real
// HTTP: rows per second, and the bytes the server allocates per export
// (B/op, flat in the row count since rows are streamed, never collected).
func BenchmarkExport(b *testing.B) {
	h := apitest.Start(b, pgtest.URL(), apitest.Options{Getenv: map[string]string{"GEOSCAN_LOG_LEVEL": "error"}})
	org := h.NewOrg(b, "pro", true)
	const n = 100000
	insertScans(b, h, org, n)
	c := &http.Client{}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		req, _ := http.NewRequest(http.MethodGet, h.APIURL+"/scans/export", nil)
		req.Header.Set("X-API-Key", org.Key)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.Trailer.Get("X-Export-Rows") != strconv.Itoa(n) {
			b.Fatalf("export: %v, trailer %q", err, resp.Trailer.Get("X-Export-Rows"))
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
