package audit_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The report of a whole-site audit shows what the crawl covered and the
// cross-cutting issues, in both editions, as the site view has them.
func TestSiteAuditReachesTheReport(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	v := a.res.SiteView
	require.NotNil(t, v)
	require.NotEmpty(t, v.CrossCutting, "the megasite has faults on many pages")
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		rep, name := a.res.Report.For(aud), string(aud)
		require.NotNil(t, rep.Site, name)
		require.Equal(t, v.PagesAudited, rep.Site.PagesAudited, name)
		require.Equal(t, v.PagesKnown, rep.Site.PagesKnown, name)
		require.Equal(t, v.Stop, rep.Site.Stop, name)
		require.NotNil(t, rep.CrossCuttingIssues, name)
		require.Len(t, *rep.CrossCuttingIssues, len(v.CrossCutting), name)
		require.NotNil(t, rep.WorstPages, name)
		require.Len(t, *rep.WorstPages, len(v.WorstPages), name)
		for i, p := range v.WorstPages {
			require.Equal(t, p.URL, (*rep.WorstPages)[i].URL)
			require.InDelta(t, *p.Score, (*rep.WorstPages)[i].Score, 1e-9)
		}
		for i, c := range v.CrossCutting {
			got := (*rep.CrossCuttingIssues)[i]
			require.Equal(t, c.CheckID, got.CheckID)
			require.Equal(t, c.PagesAffected, got.PagesAffected)
			require.Equal(t, c.PagesAudited, got.PagesAudited)
		}
	}
}
