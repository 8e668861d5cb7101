package audit_test

import (
	"context"
	"errors"
	"math"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// siteAudit is one whole-site audit of the megasite with every page the
// sink and the progress saw.
type siteAudit struct {
	res      audit.Result
	err      error
	pages    []audit.PageResult
	progress [][2]int
}

// auditMegasite audits the megasite whole, up to maxPages pages, the
// crawl unthrottled; sink, when set, runs after a page is recorded. Each
// audit reads the homepage itself: audits running at once do not share
// a site read.
func auditMegasite(ctx context.Context, t *testing.T, maxPages int, sink audit.PageSink) *siteAudit {
	t.Helper()
	_, f := audittest.Sites(t)
	a := &siteAudit{}
	a.res, a.err = audit.Run(ctx, audittest.Target(t, testsite.Megasite, "Northwind Outfitters"), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now },
		MaxPages: maxPages, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
		Pages: func(ctx context.Context, p audit.PageResult) error {
			a.pages = append(a.pages, p)
			if sink != nil {
				return sink(ctx, p)
			}
			return nil
		},
		Progress: func(done, planned int) { a.progress = append(a.progress, [2]int{done, planned}) },
	})
	return a
}

// megasite120 is the 120-page audit the roll-up tests read, made once.
var (
	megasite120Once sync.Once
	megasite120Run  *siteAudit
)

func megasite120(t *testing.T) *siteAudit {
	t.Helper()
	megasite120Once.Do(func() { megasite120Run = auditMegasite(context.Background(), t, 120, nil) })
	require.NoError(t, megasite120Run.err)
	return megasite120Run
}

// megasiteTruth is the megasite's ground truth by path (with ?page=N).
func megasiteTruth() map[string]testsite.MegasitePage {
	out := map[string]testsite.MegasitePage{}
	for _, p := range testsite.MegasitePages() {
		out[p.Path] = p
	}
	return out
}

// truthOf is the ground truth of a crawled URL; ok is false for pages
// outside it (the traps' endless URLs).
func truthOf(t *testing.T, truth map[string]testsite.MegasitePage, raw string) (testsite.MegasitePage, bool) {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	key := u.Path
	if u.RawQuery != "" {
		key += "?" + u.RawQuery
	}
	p, ok := truth[key]
	return p, ok
}

func TestSiteAuditStreamsEveryPageOnce(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	v := a.res.SiteView
	require.NotNil(t, v)
	require.Len(t, a.pages, 120, "the page budget is spent on a site of some 500 pages")
	require.Equal(t, string(crawl.StopPages), v.Stop)
	require.Equal(t, 120, v.PagesPlanned)
	require.Greater(t, v.PagesKnown, 120)
	require.NotEmpty(t, v.Sample)

	seen := map[string]bool{}
	judged := 0
	for i, p := range a.pages {
		require.Equal(t, i, p.Position, "positions follow the sink's calls")
		require.False(t, seen[p.URL], "%s streamed twice", p.URL)
		seen[p.URL] = true
		require.NotContains(t, p.URL, testsite.MegasiteDisallowedPrefix, "robots.txt closes /private/ to GeoScan")
		if p.Error == "" {
			judged++
			require.NotNil(t, p.Score, p.URL)
			require.NotEmpty(t, p.Checks, p.URL)
		} else {
			require.Nil(t, p.Score, p.URL)
			require.Empty(t, p.Checks, p.URL)
		}
	}
	require.Equal(t, judged, v.PagesAudited)
	require.Equal(t, "home", a.pages[0].Type)

	require.NotEmpty(t, a.progress)
	for i, pg := range a.progress[:len(a.progress)-1] {
		require.Equal(t, i+1, pg[0], "progress counts the pages handed on")
		require.LessOrEqual(t, pg[0], pg[1])
	}
	require.Equal(t, [2]int{120, 120}, a.progress[len(a.progress)-1])
}

func TestSiteAuditRepresentsEveryTemplate(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	truth := megasiteTruth()
	// The page type read from each page, by the template that made it.
	types := map[string]string{"home": "home", "post": "article", "product": "product", "category": "category", "blog": "category", "doc": "docs"}
	found := map[string]bool{}
	for _, p := range a.pages {
		if tp, ok := truthOf(t, truth, p.URL); ok && p.Error == "" {
			found[tp.Template] = true
			if want, ok := types[tp.Template]; ok {
				require.Equal(t, want, p.Type, p.URL)
			}
		}
	}
	for _, tmpl := range testsite.MegasiteTemplates() {
		if tmpl.Name == "private" {
			require.False(t, found[tmpl.Name])
			continue
		}
		require.True(t, found[tmpl.Name], "template %s has an audited page", tmpl.Name)
	}

	total := 0
	for _, g := range a.res.SiteView.Groups {
		total += g.Pages
		require.NotNil(t, g.MeanScore, g.Group)
	}
	require.Equal(t, a.res.SiteView.PagesAudited, total, "every audited page is in one group")
}

// The pages whose structured data is missing or broken (ground truth) are
// the pages jsonld_valid fails or warns on, and the issue counts them.
func TestSiteAuditFindsPagesWithoutJSONLD(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	truth := megasiteTruth()
	affected, products, productsMissing := 0, 0, 0
	var productGroup string
	for _, p := range a.pages {
		if p.Error != "" {
			continue
		}
		i := slices.IndexFunc(p.Checks, func(c audit.PageCheck) bool { return c.ID == "jsonld_valid" })
		require.GreaterOrEqual(t, i, 0, p.URL)
		bad := p.Checks[i].Status == "fail" || p.Checks[i].Status == "warn"
		if bad {
			affected++
		}
		tp, ok := truthOf(t, truth, p.URL)
		if !ok {
			continue
		}
		require.Equal(t, tp.JSONLD != testsite.MegasiteJSONLDValid, bad, "%s: JSON-LD is %s", p.URL, tp.JSONLD)
		if tp.Template == "product" {
			products++
			if tp.JSONLD == testsite.MegasiteJSONLDMissing {
				productsMissing++
				productGroup = p.Group
				require.Equal(t, "fail", p.Checks[i].Status, p.URL)
			}
		}
	}
	require.Positive(t, productsMissing, "the sample holds products without JSON-LD")
	require.Less(t, productsMissing, products)

	v := a.res.SiteView
	i := slices.IndexFunc(v.CrossCutting, func(c audit.CrossCuttingIssue) bool { return c.CheckID == "jsonld_valid" })
	require.GreaterOrEqual(t, i, 0, "missing JSON-LD is a cross-cutting issue")
	issue := v.CrossCutting[i]
	require.Equal(t, affected, issue.PagesAffected)
	require.Equal(t, v.PagesAudited, issue.PagesAudited)
	require.Contains(t, issue.Groups, productGroup, "products are among the groups affected")
	require.NotEmpty(t, issue.ExampleURLs)
	require.LessOrEqual(t, len(issue.ExampleURLs), 5)
	require.Positive(t, issue.ExpectedGain)

	for k, c := range v.CrossCutting {
		require.GreaterOrEqual(t, c.PagesAffected, 2, c.CheckID)
		require.GreaterOrEqual(t, float64(c.PagesAffected), 0.1*float64(c.PagesAudited), c.CheckID)
		if k > 0 {
			require.LessOrEqual(t, c.PagesAffected, v.CrossCutting[k-1].PagesAffected, "most pages first")
		}
	}
}

func TestSiteAuditWorstPagesAreTheLowest(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	v := a.res.SiteView
	require.Len(t, v.WorstPages, 10)
	worst := map[int]bool{}
	for k, w := range v.WorstPages {
		require.NotNil(t, w.Score)
		worst[w.Position] = true
		if k > 0 {
			require.LessOrEqual(t, *v.WorstPages[k-1].Score, *w.Score, "worst first")
		}
	}
	highest := *v.WorstPages[len(v.WorstPages)-1].Score
	var sum float64
	n := 0
	for _, p := range a.pages {
		if p.Score == nil {
			continue
		}
		sum += *p.Score
		n++
		if !worst[p.Position] {
			require.GreaterOrEqual(t, *p.Score, highest, "%s scores below a page kept as worst", p.URL)
		}
	}
	require.NotNil(t, v.Score)
	require.InDelta(t, sum/float64(n), *v.Score, 0.05, "the site score is the pages' mean")
	require.NotNil(t, v.Scores)
	require.NotEmpty(t, v.Checks)
}

func TestSiteAuditSinkErrorFailsRun(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk full")
	a := auditMegasite(context.Background(), t, 40, func(_ context.Context, p audit.PageResult) error {
		if p.Position == 5 {
			return boom
		}
		return nil
	})
	require.ErrorIs(t, a.err, boom)
	require.Len(t, a.pages, 6, "no page is handed on after the sink failed")
	require.NotNil(t, a.res.SiteView)
	require.Equal(t, string(crawl.StopVisitor), a.res.SiteView.Stop)
}

func TestSiteAuditStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := auditMegasite(ctx, t, 60, func(_ context.Context, p audit.PageResult) error {
		if p.Position == 9 {
			cancel()
		}
		return nil
	})
	require.ErrorIs(t, a.err, context.Canceled)
	require.Len(t, a.pages, 10, "no page is handed on after the cancel")
	require.NotNil(t, a.res.SiteView)
	require.Equal(t, string(crawl.StopCanceled), a.res.SiteView.Stop)
	require.LessOrEqual(t, a.res.SiteView.PagesAudited, 10)
}

// MaxPages 1 or less is the homepage audit, unchanged.
func TestSiteAuditOffLeavesTheHomepageAudit(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	base := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{})
	for _, n := range []int{-1, 1} {
		res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{Site: audittest.Site(t, testsite.Bakery), Fetcher: f, MaxPages: n})
		require.Nil(t, res.SiteView)
		require.Equal(t, base.Scores, res.Scores)
		require.Len(t, res.Outcomes, len(base.Outcomes))
		for i := range base.Outcomes {
			require.Equal(t, base.Outcomes[i].Result, res.Outcomes[i].Result, base.Outcomes[i].Check.ID)
		}
		require.Equal(t, base.Report, res.Report)
		require.Equal(t, base.Snapshot, res.Snapshot)
	}
}

// A page's score is the rubric's over its page-level checks, and an
// issue's expected gain is what passing the check adds to each page's
// score, averaged over the pages scored.
func TestSiteAuditScoresPagesByTheRubric(t *testing.T) {
	t.Parallel()
	a := megasite120(t)
	gains := map[string]float64{}
	scored := 0
	for _, p := range a.pages {
		if p.Score == nil {
			continue
		}
		scored++
		outcomes := make([]checks.Outcome, 0, len(p.Checks))
		for _, c := range p.Checks {
			chk := checks.Lookup(c.ID)
			require.NotNil(t, chk, c.ID)
			require.True(t, chk.PageLevel(), "%s is not a page-level check", c.ID)
			outcomes = append(outcomes, checks.Outcome{Check: chk, Result: checks.Result{Status: checks.Status(c.Status)}})
		}
		sc := audit.Score(outcomes)
		require.InDelta(t, sc.Overall, *p.Score, 1e-9, p.URL)
		for id, g := range sc.Gains {
			gains[id] += g.Overall
		}
	}
	require.NotEmpty(t, a.res.SiteView.CrossCutting)
	for _, c := range a.res.SiteView.CrossCutting {
		require.InDelta(t, math.Round(gains[c.CheckID]/float64(scored)*10)/10, c.ExpectedGain, 1e-9, c.CheckID)
	}
}

// A site smaller than the page budget is crawled whole: the crawl says it
// is complete and the plan shrinks to the pages there are.
func TestSiteAuditOfASmallSiteIsComplete(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	var pages, lastDone, lastPlanned int
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Bakery, "Millbrook Bakery"), audit.Options{
		Fetcher: f, MaxPages: 200, Crawl: crawl.Options{Unthrottled: true},
		Pages:    func(context.Context, audit.PageResult) error { pages++; return nil },
		Progress: func(done, planned int) { lastDone, lastPlanned = done, planned },
	})
	require.NoError(t, err)
	v := res.SiteView
	require.NotNil(t, v)
	require.Equal(t, string(crawl.StopComplete), v.Stop)
	require.Less(t, pages, 200)
	require.Positive(t, v.PagesAudited)
	require.Equal(t, pages, lastDone)
	require.Equal(t, pages, lastPlanned)
	require.LessOrEqual(t, v.PagesPlanned, v.PagesKnown)
}
