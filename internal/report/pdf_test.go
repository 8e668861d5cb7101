package report

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
)

func sampleReport() api.Report {
	score := func(v float64) *float64 { return &v }
	pillarScore := func(v int) *int { return &v }
	long := strings.Repeat("A long explanation of why this matters for answer engines. ", 8)
	r := api.Report{
		URL: "https://www.example.com/", BrandName: "Example 例子 🚀", Audience: api.ReportAudienceMarketing,
		ScoringVersion: "2026.1", GeneratedAt: time.Date(2026, 11, 22, 5, 28, 42, 0, time.UTC),
		OverallScore: 72.5, OverallGrade: api.GradeB, GradeDescriptor: "Solid foundations with clear gaps.",
		GatesFired: []api.Gate{{ID: "ai_search_blocked", Ring: api.Search, CheckID: "robots_ai_search", Cap: 40, Message: "OAI-SearchBot is blocked."}},
		Checks: []api.CheckResult{
			{ID: "robots_txt_present", Title: "robots.txt is present", Ring: api.Search, Pillar: "crawl", Status: api.CheckStatusPass, Score: score(1), Summary: "Found at /robots.txt."},
			{ID: "robots_ai_search", Title: "AI search bots may crawl", Ring: api.Search, Pillar: "crawl", Status: api.CheckStatusFail, Score: score(0), Summary: long, Recommendation: ptr("Allow OAI-SearchBot in robots.txt. " + long)},
			{ID: "sitemap", Title: "Sitemap is listed", Ring: api.Search, Pillar: "crawl", Status: api.CheckStatusWarn, Score: score(0.5), Summary: "Listed but stale.", Recommendation: ptr("Regenerate it.")},
			{ID: "llms_txt", Title: "llms.txt", Ring: api.Visibility, Pillar: "ai", Status: api.CheckStatusNa, Summary: "Not applicable."},
			{ID: "faq", Title: "FAQ markup", Ring: api.Visibility, Pillar: "ai", Status: api.CheckStatusInfo, Summary: "FAQPage found — informational."},
			{ID: "org", Title: "Organization schema ✓", Ring: api.Trust, Pillar: "identity", Status: api.CheckStatusWarn, Score: score(0.5), Summary: "名前 only.", Recommendation: ptr("Add sameAs links.")},
		},
		Fetch: api.FetchSummary{Pages: 2, Bytes: 123456, DurationMs: 812, Fetches: []api.FetchRecord{
			{URL: "https://www.example.com/", Purpose: "homepage", StatusCode: ptr(200), Bytes: 120000, DurationMs: 500, Redirects: []string{}},
			{URL: "https://www.example.com/robots.txt", Purpose: "robots", Bytes: 3456, DurationMs: 312, Redirects: []string{}, Error: ptr("timeout")},
		}},
		Summaries: api.Summaries{Source: api.Template, Executive: "The site is easy to crawl but hard to cite.", Search: "Search is fine.", Visibility: "Visibility lags.", Trust: "Trust is fair."},
	}
	r.Rings.Search = api.RingResult{Ring: api.Search, Score: 81, Grade: api.GradeB, GradeDescriptor: "Mostly reachable.", Pillars: []api.Pillar{
		{ID: "crawl", Name: "Crawl access", Score: pillarScore(81), Coverage: 1, Description: "Can AI crawlers reach the pages?"},
		{ID: "index", Name: "Indexability", Score: nil, Coverage: 0, Description: "Nothing could be measured."},
	}}
	r.Rings.Visibility = api.RingResult{Ring: api.Visibility, Score: 38, Grade: api.GradeF, GradeDescriptor: "Hard to quote.", Pillars: []api.Pillar{{ID: "ai", Name: "AI readiness", Score: pillarScore(38), Coverage: 0.5, Description: "Machine-readable summaries."}}}
	r.Rings.Trust = api.RingResult{Ring: api.Trust, Score: 96, Grade: api.GradeAPlus, GradeDescriptor: "Clear identity.", Pillars: []api.Pillar{{ID: "identity", Name: "Identity", Score: pillarScore(96), Coverage: 1, Description: "Who is behind the site."}}}
	return r
}

func ptr[T any](v T) *T { return &v }

func TestRenderPDF(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, render(&buf, sampleReport(), options{uncompressed: true}))
	out := buf.String()
	require.True(t, strings.HasPrefix(out, "%PDF-"))
	require.True(t, strings.HasSuffix(strings.TrimSpace(out), "%%EOF"))
	require.Equal(t, 5, strings.Count(out, "/Type /Page\n"), "a summary page, one per ring, and the fetch log")
	for _, want := range []string{"https://www.example.com/", "GeoScan report", "AI search bots may crawl", "Allow OAI-SearchBot", "72.5", "OAI-SearchBot is blocked."} {
		require.Contains(t, out, want)
	}
	require.Contains(t, out, "Example ?? ?", "characters the core fonts lack become ?")

	if path := os.Getenv("GEOSCAN_PDF_SAMPLE"); path != "" {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	}
}

func TestRenderPDFEmptyReport(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, RenderPDF(&buf, api.Report{}))
	require.True(t, strings.HasPrefix(buf.String(), "%PDF-"))
}
