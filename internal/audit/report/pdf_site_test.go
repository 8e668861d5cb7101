package report_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// A whole-site audit's PDF shows what the crawl covered and the issues on
// many pages before anything else of the site; a homepage audit's has no
// such section.
func TestRenderPDFSiteSection(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Megasite, "Northwind Outfitters"), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now },
		MaxPages: 40, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
	})
	require.NoError(t, err)
	require.NoError(t, res.TriageErr)
	site := fixture{report: *res.Report, dossier: *res.Triage}
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r := site.report.For(aud)
		require.NotNil(t, r.CrossCuttingIssues)
		require.NotEmpty(t, *r.CrossCuttingIssues, "the megasite has faults on many pages")
		text := pdfText(t, site.pdf(t, aud))
		require.Contains(t, text, "Across the site")
		require.Less(t, strings.Index(text, "Across the site"), strings.Index(text, "Site Triage"), "the site comes before the dossier")
		require.Contains(t, text, fmt.Sprintf("%d pages audited of %d known", r.Site.PagesAudited, r.Site.PagesKnown))
		require.NotEmpty(t, *r.WorstPages)
		require.Less(t, strings.Index(text, "Issues on many pages"), strings.Index(text, "Lowest-scored pages"), "issues first, then the worst pages")
		for _, p := range *r.WorstPages {
			require.Contains(t, text, fmt.Sprintf("%.1f %s", p.Score, p.URL))
		}
		for _, is := range *r.CrossCuttingIssues {
			require.Contains(t, text, fmt.Sprintf("fails or warns on %d of %d pages", is.PagesAffected, is.PagesAudited), is.CheckID)
			if aud == scoring.Engineering {
				require.Contains(t, text, "("+is.CheckID+")")
			} else {
				requireAbsent(t, text, `\b`+is.CheckID+`\b`)
			}
		}
	}

	home := built(t, testsite.Bakery, "")
	requireAbsent(t, pdfText(t, home.pdf(t, scoring.Marketing)), "Across the site")
}

// A whole-site audit with a previous one shows, in its site section, how
// the site changed: the score then and now, the pages audited, and each
// issue on many pages that appeared, stayed or went.
func TestRenderPDFSiteTrend(t *testing.T) {
	t.Parallel()
	site := built(t, testsite.Bakery, "")
	score := func(v float64) *float64 { return &v }
	report.AttachSite(&site.report, report.SiteInput{
		PagesKnown: 60, PagesPlanned: 50, PagesAudited: 48, Sample: "all", Stop: "complete",
		Trend: &report.SiteTrend{
			PreviousScanID: uuid.New(), PreviousCompletedAt: time.Date(2026, 10, 3, 9, 0, 0, 0, time.UTC),
			ScoreThen: score(61.2), ScoreNow: score(66.7), PagesAuditedThen: 40, PagesAuditedNow: 48,
			Issues: []report.SiteIssueTrend{
				{CheckID: "meta_description_present", Change: "new", PagesAffectedThen: 2, PagesAffectedNow: 30},
				{CheckID: "title_present", Change: "persisting", PagesAffectedThen: 12, PagesAffectedNow: 10},
				{CheckID: "canonical_present", Change: "resolved", PagesAffectedThen: 25, PagesAffectedNow: 1},
			},
		},
	})
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		text := pdfText(t, site.pdf(t, aud))
		require.Contains(t, text, "Since the previous audit")
		require.Contains(t, text, "The site score is 66.7, up 5.5 points since the previous whole-site audit of 3 October 2026 (61.2); 48 pages audited, 40 then.")
		require.Contains(t, text, "fails or warns on 30 pages (2 then).")
		require.Contains(t, text, "fails or warns on 10 pages (12 then).")
		require.Contains(t, text, "fails or warns on 1 page (25 then).")
		for _, word := range []string{"New:", "Still there:", "Resolved:"} {
			require.Contains(t, text, word)
		}
		require.Less(t, strings.Index(text, "New:"), strings.Index(text, "Resolved:"), "in the order given")
		require.Less(t, strings.Index(text, "Since the previous audit"), strings.Index(text, "Issues on many pages"))
	}
}
