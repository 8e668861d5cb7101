package audit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestCrawlerActivityBesideTheAudit: the edge fixture's robots.txt invites
// every crawler while its CDN answers them 403. An access log showing
// those 403s, set beside the audit, reports them as refusals robots.txt
// did not intend, and names the audited pages no AI search crawler
// requested; a forged crawler's 403s are no finding; the scores do not
// change.
func TestCrawlerActivityBesideTheAudit(t *testing.T) {
	t.Parallel()
	site := audittest.Site(t, testsite.Edge)
	host := audittest.URL(t, testsite.Edge).Hostname()
	var log strings.Builder
	// OpenAI's search crawler from an address of its published list, and
	// a browser; then "OAI-SearchBot" from an address outside it.
	fmt.Fprintf(&log, "4.227.36.10 - - [20/Nov/2026:10:00:00 +0000] \"GET /claims HTTP/1.1\" 403 512 \"-\" \"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot\"\n")
	fmt.Fprintf(&log, "4.227.36.11 - - [20/Nov/2026:10:00:05 +0000] \"GET /claims HTTP/1.1\" 403 512 \"-\" \"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot\"\n")
	fmt.Fprintf(&log, "198.51.100.7 - - [20/Nov/2026:10:01:00 +0000] \"GET / HTTP/1.1\" 200 9000 \"-\" \"Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0\"\n")
	fmt.Fprintf(&log, "203.0.113.66 - - [20/Nov/2026:10:02:00 +0000] \"GET /quote HTTP/1.1\" 403 512 \"-\" \"OAI-SearchBot/1.0\"\n")
	res, err := crawlerlog.Analyze(context.Background(), strings.NewReader(log.String()), crawlerlog.Options{Domain: host})
	require.NoError(t, err)
	require.Len(t, res.Bots, 1)
	require.EqualValues(t, 2, res.Bots[0].VerifiedHits, "from OpenAI's published search-crawler range")
	require.EqualValues(t, 1, res.Bots[0].Verification.FailedHits, "203.0.113.66 is not OpenAI's")

	id := uuid.New()
	with := audittest.Run(t, testsite.Edge, "", audit.Options{Site: site, CrawlerLog: &audit.CrawlerLog{ID: id, Result: res}})
	without := audittest.Run(t, testsite.Edge, "", audit.Options{Site: site})
	require.Equal(t, without.Scores, with.Scores, "the log is shown, never scored")
	require.Nil(t, without.Report.Marketing.CrawlerActivity)

	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		ca := with.Report.For(aud).CrawlerActivity
		require.NotNil(t, ca, "both editions")
		require.Equal(t, id, ca.LogID)
		require.Len(t, ca.Bots, 1)
		require.Equal(t, "OAI-SearchBot", ca.Bots[0].Token)
		cc := ca.CrossCheck
		require.NotNil(t, cc)
		require.EqualValues(t, "measured", cc.Status)
		rb := cc.RefusedButAllowed
		require.True(t, rb.Measured, "the fixture's robots.txt was read")
		require.Len(t, rb.Pages, 1, "the forged crawler's 403 on /quote is no finding")
		require.Equal(t, "OAI-SearchBot", rb.Pages[0].Token)
		require.Equal(t, "/claims", rb.Pages[0].Path)
		require.EqualValues(t, 2, rb.Pages[0].Hits)
		require.Len(t, rb.Pages[0].Statuses, 1)
		require.Equal(t, 403, rb.Pages[0].Statuses[0].Status)
		require.EqualValues(t, 2, rb.Pages[0].Statuses[0].Hits)
		require.NotEmpty(t, rb.Pages[0].Robots)
		nc := cc.NeverCrawled
		require.True(t, nc.Measured)
		require.Equal(t, 1, nc.Count, "the homepage, the one page a homepage audit knows, was requested by no AI search crawler")
	}
}
