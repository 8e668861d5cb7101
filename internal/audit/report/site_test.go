package report_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/testing/jsonshape"
)

// A whole-site audit's coverage and issues reach both editions, each with
// its own copy, in the order given, and the stored report still round
// trips with them.
func TestAttachSite(t *testing.T) {
	t.Parallel()
	var doc report.Stored
	report.AttachSite(&doc, report.SiteInput{
		PagesKnown: 516, PagesPlanned: 100, PagesAudited: 98, Sample: "templates", Stop: "page_budget",
		Issues: []report.SiteIssue{
			{CheckID: "schema_page_type_match", PagesAffected: 14, PagesAudited: 98, Groups: []string{"/products/{slug}"}, ExampleURLs: []string{"https://x.test/products/a"}, ExpectedGain: 2.5},
			{CheckID: "meta_description_present", PagesAffected: 3, PagesAudited: 98},
		},
		Worst: []report.SitePage{{URL: "https://x.test/archive/2019/", Group: "/archive/{yyyy}/", Score: 41.5}, {URL: "https://x.test/c/a", Group: "/c/{slug}", Score: 52}},
	})
	require.NotNil(t, doc.Marketing.Site)
	require.Equal(t, 98, doc.Engineering.Site.PagesAudited)
	require.Equal(t, "page_budget", doc.Marketing.Site.Stop)
	require.Len(t, *doc.Engineering.CrossCuttingIssues, 2)
	first := (*doc.Engineering.CrossCuttingIssues)[0]
	require.Equal(t, "schema_page_type_match", first.CheckID)
	require.Equal(t, []string{"/products/{slug}"}, first.Groups)
	second := (*doc.Marketing.CrossCuttingIssues)[1]
	require.NotNil(t, second.Groups, "an issue without groups has an empty list, never null")
	require.NotNil(t, second.ExampleUrls)

	require.Len(t, *doc.Marketing.WorstPages, 2)
	require.InDelta(t, 41.5, (*doc.Engineering.WorstPages)[0].Score, 1e-9, "worst first, as given")

	(*doc.Marketing.CrossCuttingIssues)[0].CheckID = "changed"
	require.Equal(t, "schema_page_type_match", (*doc.Engineering.CrossCuttingIssues)[0].CheckID, "each edition has its own copy")
	jsonshape.RequireRoundTrip(t, doc)
}
