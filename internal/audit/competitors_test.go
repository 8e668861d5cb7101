package audit_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// competitor is a fixture site named as a competitor, under its default
// name.
func competitor(t *testing.T, name string) audit.Target {
	t.Helper()
	return audit.Target{URL: audittest.URL(t, name)}
}

// nowhere is a competitor whose host does not resolve.
func nowhere(t *testing.T) audit.Target {
	t.Helper()
	u, err := url.Parse("https://crumb-and-kettle.test/")
	require.NoError(t, err)
	return audit.Target{URL: u}
}

// Each competitor is audited as a scan of it without an answer engine
// would be, under the name its homepage declares; one that cannot be
// read, or is the site itself, fails alone with the reason, and the
// audit of the site is what it is without them.
func TestCompetitorsAreAuditedBesideTheSite(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	now := func() time.Time { return audittest.Now }
	own := audittest.Target(t, testsite.Bakery, "Millbrook Bakery")
	itself := audit.Target{URL: own.URL.JoinPath("about")}
	site := audittest.Site(t, testsite.Bakery)
	res, err := audit.Run(context.Background(), own, audit.Options{
		Fetcher: f, Site: site, FetchBudget: time.Minute, Now: now,
		Competitors: []audit.Target{competitor(t, testsite.Shopify), nowhere(t), itself, competitor(t, testsite.WordPress)},
	})
	require.NoError(t, err)
	alone, err := audit.Run(context.Background(), own, audit.Options{Fetcher: f, Site: site, FetchBudget: time.Minute, Now: now})
	require.NoError(t, err)
	require.Equal(t, alone.Scores, res.Scores, "competitors change nothing of the site's own audit")
	require.Nil(t, alone.Competitors)
	require.Nil(t, alone.Report.Marketing.Competitors, "a report without competitors is what it was")
	require.Nil(t, alone.Report.For(scoring.Engineering).ShareOfVoice)
	require.Equal(t, mentions.ShareNotMeasured, alone.ShareOfVoice.Status)
	require.Equal(t, mentions.ShareNoCompetitors, alone.ShareOfVoice.Reason)

	require.Len(t, res.Competitors, 4)
	shop, gone, self, agency := res.Competitors[0], res.Competitors[1], res.Competitors[2], res.Competitors[3]

	require.Equal(t, audit.CompetitorAudited, shop.Status)
	require.Empty(t, shop.Reason)
	require.Equal(t, "Copper Kettle Coffee", shop.Brand, "the name its homepage declares")
	require.Equal(t, "copperkettle-shop.test", shop.Host)
	require.Equal(t, audittest.URL(t, testsite.Shopify).String(), shop.URL)
	require.Len(t, audittest.Site(t, testsite.Shopify).Parsed, shop.PagesAudited, "its homepage and key pages")
	require.Nil(t, shop.Site, "a homepage audit crawls no competitor")
	scan := audittest.Run(t, testsite.Shopify, "", audit.Options{Fetcher: f})
	require.NotNil(t, shop.Scores)
	// Scored as a scan of it without an engine: the rings that no timing
	// decides (the search ring's ttfb is the server's response time).
	require.Equal(t, scan.Scores.Version, shop.Scores.Version)
	for _, ring := range []scoring.Ring{scoring.RingVisibility, scoring.RingTrust} {
		require.Equal(t, scan.Scores.Ring(ring), shop.Scores.Ring(ring), ring)
	}
	require.Equal(t, "Brightpath Studio", agency.Brand)
	require.Equal(t, audit.CompetitorAudited, agency.Status)

	require.Equal(t, audit.CompetitorFailed, gone.Status)
	require.Equal(t, "Crumb And Kettle", gone.Brand, "a readable name from its domain")
	require.True(t, strings.HasPrefix(gone.Reason, "The homepage could not be fetched: "), gone.Reason)
	require.Nil(t, gone.Scores)
	require.Zero(t, gone.PagesAudited)

	require.Equal(t, audit.CompetitorFailed, self.Status)
	require.Equal(t, "it is on the scanned site's own domain, millbrook-bakery.test", self.Reason)

	// Without an engine share of voice is not measured, with the reason.
	require.Equal(t, mentions.ShareNotMeasured, res.ShareOfVoice.Status)
	require.Equal(t, mentions.ShareNoEngine, res.ShareOfVoice.Reason)

	// The report carries both, once for both audiences.
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r := res.Report.For(aud)
		require.NotNil(t, r.Competitors)
		require.Len(t, *r.Competitors, 4)
		got := (*r.Competitors)[0]
		require.Equal(t, "Copper Kettle Coffee", got.Brand)
		require.InDelta(t, shop.Scores.Overall, *got.OverallScore, 0)
		require.Equal(t, shop.Scores.Ring(scoring.RingTrust).Score, got.Rings.Trust.Score)
		require.Nil(t, (*r.Competitors)[1].Rings)
		require.Equal(t, gone.Reason, *(*r.Competitors)[1].Reason)
		require.Equal(t, "not_measured", string(r.ShareOfVoice.Status))
		require.Nil(t, r.ShareOfVoice.CitingCompetitorsNotYou)
	}
	require.Positive(t, res.Timings.Competitors)
}

// sovScript answers the buyer questions naming the brands in known
// orders and cites known sources; the chat calls of the second buyer
// question fail.
func sovScript(c scripted.Call) scripted.Reply {
	switch {
	case c.Schema == "site_facts":
		return scripted.Reply{Text: `{"category":"bakery","offers":["sourdough bread"],"location":"Hebden Bridge"}`}
	case c.Schema != "":
		return scripted.Reply{Text: `{"facts":[]}`}
	case strings.HasPrefix(c.Prompt, "What is ") || strings.HasPrefix(c.Prompt, "What does "):
		return scripted.Reply{Text: "Millbrook Bakery is a bakery in Hebden Bridge."}
	case c.WebSearch && c.Run == 0:
		return scripted.Reply{Text: "Copper Kettle Coffee, then Millbrook Bakery.", Cited: []string{
			"https://copperkettle-shop.test/", "https://en.wikipedia.org/wiki/Coffee", "https://www.yelp.co.uk/biz/x",
		}}
	case c.WebSearch:
		return scripted.Reply{Text: "Brightpath Studio.", Cited: []string{
			"https://brightpath-studio.test/portfolio/", "https://www.g2.com/products/brightpath", "https://www.bbc.co.uk/news/x",
		}}
	case strings.Contains(c.Prompt, "would you recommend"):
		return scripted.Reply{Status: http.StatusInternalServerError}
	case c.Run == 0:
		return scripted.Reply{Text: "1. **Brightpath Studio**\n2. **Millbrook Bakery**\n3. **Copper Kettle Coffee**"}
	case c.Run == 1:
		return scripted.Reply{Text: "Crumb And Kettle is the one to try."}
	}
	return scripted.Reply{Text: "A summary."}
}

// With an engine, the buyer answers are read for the brand and every
// competitor, a failed one included (by its readable name): k of the
// answers read, a failed call left out of n; the mean rank; the cited
// domains by kind; and the third-party domains cited for a competitor
// only. It asks nothing more than the audit without competitors does.
func TestShareOfVoiceOfTheBuyerAnswers(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	lim := llm.Limits{Runs: 2, MaxCalls: 200, MaxTokens: 1_000_000, Concurrency: 8, CallTimeout: 10 * time.Second}
	run := func(competitors []audit.Target) (audit.Result, int) {
		srv := scripted.Start(sovScript)
		t.Cleanup(srv.Close)
		res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Bakery, "Millbrook Bakery"), audit.Options{
			Fetcher: f, FetchBudget: time.Minute, Now: func() time.Time { return audittest.Now },
			AI: fakeLayer(t, srv, lim, &llm.MemoryCache{}), Competitors: competitors,
		})
		require.NoError(t, err)
		return res, srv.Calls()
	}
	res, calls := run([]audit.Target{competitor(t, testsite.Shopify), competitor(t, testsite.WordPress), nowhere(t)})
	_, callsAlone := run(nil)
	require.Equal(t, callsAlone, calls, "share of voice asks nothing more")

	// P buyer questions, each asked twice by chat (the second question's
	// two calls failed) and twice with web search.
	p := len(aiOutcomes(res)["llm_category_mention_rate"].Result.Evidence["by_prompt"].([]map[string]any))
	require.GreaterOrEqual(t, p, 3)
	n := 2*(p-1) + 2*p
	s := res.ShareOfVoice
	require.Equal(t, mentions.ShareMeasured, s.Status)
	require.False(t, s.SmallSample)
	want := []struct {
		brand, domain string
		k             int
		pos           float64
	}{
		{"Millbrook Bakery", "millbrook-bakery.test", 2*p - 1, 2},                                        // 2nd in chat, 2nd in search
		{"Copper Kettle Coffee", "copperkettle-shop.test", 2*p - 1, float64(3*(p-1)+p) / float64(2*p-1)}, // 3rd, then 1st
		{"Brightpath Studio", "brightpath-studio.test", 2*p - 1, 1},
		{"Crumb And Kettle", "crumb-and-kettle.test", p - 1, 1},
	}
	require.Len(t, s.Brands, len(want))
	for i, w := range want {
		b := s.Brands[i]
		require.Equal(t, w.brand, b.Brand)
		require.Equal(t, w.domain, b.Domain)
		require.Equal(t, i == 0, b.You)
		require.Equal(t, w.k, b.K, w.brand)
		require.Equal(t, n, b.N, "%s: the failed calls are not in n", w.brand)
		require.InDelta(t, w.pos, *b.MeanPosition, 0.005, w.brand)
		lo, hi := mentions.Wilson(w.k, n)
		require.Equal(t, &mentions.Interval{Low: lo, High: hi}, b.Interval)
		require.Len(t, b.Engines, 1)
		require.Equal(t, "fake", b.Engines[0].Engine)
		require.Equal(t, b.Share, b.Engines[0].Share, "one engine: its share is the whole")
	}

	require.Equal(t, []mentions.Source{
		{Domain: "bbc.co.uk", Category: mentions.SourceEditorial, Citations: p, Brands: []string{"brightpath-studio.test"}},
		{Domain: "brightpath-studio.test", Category: mentions.SourceCompetitor, Citations: p, Brands: []string{"brightpath-studio.test"}},
		{Domain: "copperkettle-shop.test", Category: mentions.SourceCompetitor, Citations: p, Brands: []string{"millbrook-bakery.test", "copperkettle-shop.test"}},
		{Domain: "g2.com", Category: mentions.SourceReview, Citations: p, Brands: []string{"brightpath-studio.test"}},
		{Domain: "wikipedia.org", Category: mentions.SourceEditorial, Citations: p, Brands: []string{"millbrook-bakery.test", "copperkettle-shop.test"}},
		{Domain: "yelp.co.uk", Category: mentions.SourceReview, Citations: p, Brands: []string{"millbrook-bakery.test", "copperkettle-shop.test"}},
	}, s.Sources)
	require.Equal(t, []string{"bbc.co.uk", "g2.com"}, s.CitingCompetitorsNotYou)

	r := res.Report.For(scoring.Marketing)
	require.Equal(t, "measured", string(r.ShareOfVoice.Status))
	require.Len(t, r.ShareOfVoice.Brands, 4)
	require.Equal(t, []string{"bbc.co.uk", "g2.com"}, *r.ShareOfVoice.CitingCompetitorsNotYou)
}

// In a whole-site audit each competitor is crawled at the site's page
// budget, as an audit of it alone would be, and none of its pages reach
// the site's page sink.
func TestCompetitorsAreCrawledAtTheSitesPageBudget(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	const maxPages = 6
	opts := func() audit.Options {
		return audit.Options{
			Fetcher: f, Now: func() time.Time { return audittest.Now },
			MaxPages: maxPages, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
		}
	}
	var sunk []string
	withRival := opts()
	withRival.Competitors = []audit.Target{competitor(t, testsite.Megasite)}
	withRival.Pages = func(_ context.Context, p audit.PageResult) error {
		sunk = append(sunk, p.URL)
		return nil
	}
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Bakery, "Millbrook Bakery"), withRival)
	require.NoError(t, err)
	alone, err := audit.Run(context.Background(), audittest.Target(t, testsite.Megasite, ""), opts())
	require.NoError(t, err)

	require.Equal(t, maxPages, res.SiteView.PagesPlanned)
	rival := res.Competitors[0]
	require.Equal(t, audit.CompetitorAudited, rival.Status)
	require.NotNil(t, rival.Site)
	require.Equal(t, maxPages, rival.Site.PagesPlanned, "the site's page budget")
	require.Equal(t, alone.SiteView.PagesAudited, rival.PagesAudited)
	require.Equal(t, alone.SiteView.Score, rival.Site.Score)
	require.NotEmpty(t, sunk)
	for _, u := range sunk {
		require.Contains(t, u, "millbrook-bakery.test", "only the site's own pages reach the sink")
	}
}

// A competitor that does not answer within its share of the fetch budget
// fails with that reason, and the site's audit completes.
func TestACompetitorIsCutAtItsShareOfTheFetchBudget(t *testing.T) {
	t.Parallel()
	s, f := audittest.Sites(t)
	release := s.Hold(testsite.Wiki)
	t.Cleanup(release)
	res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{
		Fetcher: f, Site: audittest.Site(t, testsite.Bakery), FetchBudget: time.Second,
		Competitors: []audit.Target{competitor(t, testsite.Wiki)},
	})
	require.NotNil(t, res.Report)
	c := res.Competitors[0]
	require.Equal(t, audit.CompetitorFailed, c.Status)
	require.Equal(t, "its homepage did not answer within its share of the scan's fetch budget", c.Reason)
}

// Read at once, the competitors are parsed and judged inside the audit's
// own reservation: it grows by each competitor's estimate, never asking
// while it holds anything, and is all given back.
func TestCompetitorsReserveMemoryWithTheSite(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	var r reservations
	site := audittest.Site(t, testsite.Bakery)
	_, err := audit.Run(context.Background(), audittest.Target(t, testsite.Bakery, "Millbrook Bakery"), audit.Options{
		Fetcher: f, Site: site, Reserve: r.reserve, Now: func() time.Time { return audittest.Now },
		Competitors: []audit.Target{competitor(t, testsite.Shopify), competitor(t, testsite.WordPress)},
	})
	require.NoError(t, err)
	require.Zero(t, r.holding(), "everything is given back")
	require.Equal(t, len(r.asked), r.released)
	for i, held := range r.heldAsked {
		require.Zero(t, held, "ask %d was made holding nothing", i)
	}
	shop, agency := audittest.Site(t, testsite.Shopify), audittest.Site(t, testsite.WordPress)
	least := audit.MemoryEstimate(site) + min(audit.MemoryEstimate(shop), audit.MemoryEstimate(agency))
	require.GreaterOrEqual(t, slices.Max(r.asked), least, "a competitor's pages are counted with the site's")
}
