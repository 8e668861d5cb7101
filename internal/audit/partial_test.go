package audit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestHeavyHomepageIsJudgedOnWhatWasRead: a 4.9 MB homepage with more
// elements than a page is parsed to is read in part, and the findings
// that did not pass say which part they judged, as does the report; the
// bot probes keep the start of their bodies but know their whole size.
func TestHeavyHomepageIsJudgedOnWhatWasRead(t *testing.T) {
	_, f := audittest.Sites(t)
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Heavy, "Everything Store"), audit.Options{Fetcher: f})
	require.NoError(t, err)
	home := res.Site.HomePage
	require.NotNil(t, home)
	require.True(t, home.Truncated)
	require.Less(t, home.ReadBytes, home.HTMLBytes)
	require.False(t, res.Site.Home.Truncated, "the body is under the fetch cap and read whole")

	noted := 0
	for _, o := range res.Outcomes {
		has := strings.Contains(o.Result.Summary, "Judged on the first")
		if has {
			noted++
			require.Contains(t, []checks.Status{checks.Fail, checks.Warn}, o.Result.Status, o.Check.ID)
			require.Equal(t, home.ReadBytes, o.Result.Evidence["homepage_read_bytes"], o.Check.ID)
		}
		if o.Check.Pillar == "robots" || o.Check.Pillar == "crawl_access" || o.Result.Status == checks.Pass {
			require.False(t, has, o.Check.ID)
		}
	}
	require.Positive(t, noted)
	require.NotNil(t, res.Report)
	found := false
	for _, c := range *res.Report.Engineering.Caveats {
		found = found || strings.Contains(c, "findings about its content are about that part")
	}
	require.True(t, found, "the report says the homepage was read in part")

	for _, b := range res.Site.Bots {
		if b.Response.OK() {
			require.Equal(t, res.Site.Home.Bytes, b.Response.Bytes, b.Bot.Token)
			require.Less(t, len(b.Response.Body), b.Response.Bytes, b.Bot.Token)
		}
	}
}
