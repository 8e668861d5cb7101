package report_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// withCrawlers is a fixture's report with an access log's crawler
// activity, its paths written by whoever sent the requests.
func withCrawlers(t *testing.T, hostilePath string) (api.Report, fixture) {
	t.Helper()
	f := built(t, testsite.Realistic[0], "")
	r := f.report.For(scoring.Marketing)
	first, last := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC), time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	scanID := uuid.New()
	r.CrawlerActivity = &api.CrawlerActivity{
		LogID: uuid.New(), FirstSeen: &first, LastSeen: &last,
		Bots: []api.CrawlerLogBot{{
			Token: "OAI-SearchBot", Owner: "OpenAI", Role: api.BotRoleSearch, Hits: 1200, VerifiedHits: 1150, UnverifiedHits: 50,
			Verification: api.CrawlerLogVerification{Method: api.VerifyByIPRanges, FailedHits: 40, NotCheckedHits: 10},
			Statuses:     []api.StatusHits{{Status: 200, Hits: 1000}, {Status: 403, Hits: 200}},
		}},
		CrossCheck: &api.CrawlerLogCrossCheck{
			Status: api.CrossCheckMeasured, ScanID: &scanID,
			RefusedButAllowed: api.CrawlerLogRefusals{Measured: true, Count: 1, Hits: 200, Pages: []api.CrawlerLogRefusal{{
				Token: "OAI-SearchBot", Owner: "OpenAI", Role: "search", Path: hostilePath, Hits: 200, VerifiedHits: 200,
				Statuses: []api.StatusHits{{Status: 403, Hits: 200}}, Robots: "no group names OAI-SearchBot; User-agent: * allows it",
			}}},
			NeverCrawled: api.CrawlerLogNeverCrawled{Measured: true, Count: 2, Pages: []string{"https://example.test/a", "https://example.test/b"}},
		},
	}
	return r, f
}

func TestCrawlerActivityInPDFAndHTML(t *testing.T) {
	t.Parallel()
	hostile := "/pricing<script>alert(1)</script>`**x**`"
	r, f := withCrawlers(t, hostile)
	d := f.dossier.For(scoring.Marketing)

	for _, tc := range []struct{ lang, title, refused, never string }{
		{"en", "AI crawlers in the access log", "Refused although robots.txt allows them", "2 of the pages this audit read"},
		{"de", "KI-Crawler im Zugriffsprotokoll", "Abgewiesen, obwohl robots.txt sie zulässt", "2 der Seiten"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, report.RenderPDFWith(&buf, r, &d, report.PDFOptions{Language: tc.lang}))
			text := pdfText(t, buf.Bytes())
			require.Contains(t, text, tc.title)
			require.Contains(t, text, tc.refused)
			require.Contains(t, text, tc.never)
			require.Contains(t, text, "OAI-SearchBot")
			require.Contains(t, text, map[string]string{"en": "1,150", "de": "1.150"}[tc.lang], "the table's figures, in the language's form")
			require.Contains(t, text, "<script>alert(1)</script>`**x**`", "the path is drawn as it is, no Markdown")

			page := parsePage(t, htmlWith(t, r, &d, tc.lang))
			requireInert(t, page)
			body := page.bodyText()
			require.Contains(t, page.headings(), "h2 "+tc.title)
			require.Contains(t, body, tc.refused)
			require.Contains(t, body, hostile, "the path is the page's text, escaped")
			require.Contains(t, body, "https://example.test/a")
		})
	}

	// Without a log there is no section.
	plain := f.report.For(scoring.Marketing)
	page := parsePage(t, htmlWith(t, plain, &d, "en"))
	require.NotContains(t, page.headings(), "h2 AI crawlers in the access log")

	// Not measured says why; no crawler says so.
	r.CrawlerActivity.Bots = nil
	reason := "robots.txt could not be fetched, so what it allows is unknown"
	r.CrawlerActivity.CrossCheck.RefusedButAllowed = api.CrawlerLogRefusals{Reason: &reason, Pages: []api.CrawlerLogRefusal{}}
	body := parsePage(t, htmlWith(t, r, &d, "en")).bodyText()
	require.Contains(t, body, "The log shows no AI or search crawler.")
	require.Contains(t, body, "Not measured: "+reason+".")
	require.NotContains(t, body, "No crawler that robots.txt allows was refused", "not measured is never none")
	de := parsePage(t, htmlWith(t, r, &d, "de")).bodyText()
	require.Contains(t, de, "Nicht gemessen: robots.txt konnte nicht abgerufen werden", "the engine's reason in the report's language")
}

func htmlWith(t *testing.T, r api.Report, d *api.TriageDossier, lang string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTML(&buf, report.HTMLInput{Report: r, Triage: d, Language: lang}))
	return buf.Bytes()
}
