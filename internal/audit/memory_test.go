package audit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// reservations records what Run asks Options.Reserve for, what it held
// as it asked, and what it gives back.
type reservations struct {
	mu        sync.Mutex
	asked     []int64
	heldAsked []int64
	held      int64
	released  int
}

func (r *reservations) reserve(_ context.Context, bytes int64) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, bytes)
	r.heldAsked = append(r.heldAsked, r.held)
	r.held += bytes
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.held -= bytes
			r.released++
		})
	}, nil
}

func (r *reservations) holding() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// bigPage is a homepage of the shapes that make real pages heavy: a long
// product feed, a state blob in a script and a mega menu, in lang, with
// n items.
func bigPage(lang, product, menu string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html lang="%s"><head><meta charset="utf-8"><title>%s</title></head><body><nav><ul>`, lang, menu)
	for i := range n / 10 {
		fmt.Fprintf(&b, `<li><a href="/c/%d">%s %d</a><ul><li><a href="/c/%d/a">%s</a></li></ul></li>`, i, menu, i, i, product)
	}
	b.WriteString(`</ul></nav><main><h1>` + menu + `</h1>`)
	for i := range n {
		fmt.Fprintf(&b, `<article class="product"><h2>%s %d</h2><p>%s — %s</p><span class="price">%d</span></article>`, product, i, product, menu, 1000+i)
	}
	b.WriteString(`</main><script>window.__STATE__={"items":[`)
	for i := range n {
		fmt.Fprintf(&b, `{"id":%d,"name":%q},`, i, product)
	}
	b.WriteString(`{}]}</script></body></html>`)
	return b.String()
}

// siteOf is a site read whose homepage is html.
func siteOf(t *testing.T, html string) *fetch.Site {
	t.Helper()
	u, err := url.Parse("https://store.example/")
	require.NoError(t, err)
	home := &fetch.Response{
		Purpose: fetch.Homepage, URL: u.String(), FinalURL: u.String(), Status: 200,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(html),
	}
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	return &fetch.Site{Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p}, All: []*fetch.Response{home}}
}

// TestRunReservesMemoryByTheHomepage: Run asks for memory once, in
// proportion to the HTML it read, at least the floor, holds it while it
// judges the site, and gives it back as it returns.
func TestRunReservesMemoryByTheHomepage(t *testing.T) {
	langs := []struct{ lang, product, menu string }{
		{"ja", "抹茶ラテ 限定セット", "季節のおすすめ"},
		{"ar", "قهوة عربية محمصة", "العروض الخاصة"},
		{"de", "Größenverstellbare Outdoorjacke", "Herbstangebote für Straßenläufer"},
		{"en", "Cast iron skillet", "Kitchen & dining"},
	}
	for _, l := range langs {
		t.Run(l.lang, func(t *testing.T) {
			var prev int64
			for _, n := range []int{3, 700, 1400} {
				site := siteOf(t, bigPage(l.lang, l.product, l.menu, n))
				var r reservations
				var heldWhileJudging int64
				_, err := audit.Run(context.Background(), audit.Target{URL: site.Target, BrandName: "Store"}, audit.Options{
					Site: site, Reserve: r.reserve,
					BuildTriage: func(in triage.Input) (triage.Stored, error) {
						heldWhileJudging = r.holding()
						return triage.Build(in)
					},
				})
				require.NoError(t, err)
				require.Len(t, r.asked, 1, "one reservation per audit")
				asked := r.asked[0]
				html := int64(len(site.Home.Body))
				require.Equal(t, audit.MemoryEstimate(site), asked)
				require.GreaterOrEqual(t, asked, int64(audit.MemoryFloor))
				require.GreaterOrEqual(t, asked, audit.MemoryPerHTMLByte*html, "%d bytes of HTML", html)
				require.Greater(t, asked, prev, "a bigger homepage reserves more (%d bytes of HTML)", html)
				prev = max(prev, asked)
				require.Equal(t, asked, heldWhileJudging, "held while the site is judged")
				require.Equal(t, 1, r.released, "released once")
				require.Zero(t, r.holding())
			}
		})
	}
}

// TestSmallPagesReserveTheFloor: pages too small to matter are all
// estimated at the floor, so the budget counts them as scans.
func TestSmallPagesReserveTheFloor(t *testing.T) {
	for _, html := range []string{
		`<html lang="fr"><title>Boulangerie Légère</title><p>Pain au levain.</p></html>`,
		`<p>no html, head or body</p>`,
		``,
	} {
		require.Equal(t, int64(audit.MemoryFloor), audit.MemoryEstimate(siteOf(t, html)), html)
	}
	require.Equal(t, int64(audit.MemoryFloor), audit.MemoryEstimate(&fetch.Site{}), "a homepage that is not HTML")
}

// TestHeavyFixtureReservesWhatItPeaksAt: the heavy fixture (a 4.9 MB
// store homepage, BenchmarkRunHeavy) is estimated at least at what one
// audit of it was measured to hold, and well above an ordinary site.
func TestHeavyFixtureReservesWhatItPeaksAt(t *testing.T) {
	heavy := audit.MemoryEstimate(audittest.Site(t, testsite.Heavy))
	bakery := audit.MemoryEstimate(audittest.Site(t, testsite.Bakery))
	require.GreaterOrEqual(t, heavy, int64(70<<20))
	require.Less(t, bakery, heavy/10)
}

// TestRunReleasesMemoryWhenItPanics: the reservation is given back on
// every way out of Run, a panic in a stage included.
func TestRunReleasesMemoryWhenItPanics(t *testing.T) {
	site := siteOf(t, bigPage("ko", "유기농 녹차", "이번 주 특가", 100))
	var r reservations
	func() {
		defer func() { require.NotNil(t, recover()) }()
		_, _ = audit.Run(context.Background(), audit.Target{URL: site.Target, BrandName: "Store"}, audit.Options{
			Site: site, Reserve: r.reserve,
			BuildTriage: func(triage.Input) (triage.Stored, error) { panic("dossier") },
		})
	}()
	require.Len(t, r.asked, 1)
	require.Equal(t, 1, r.released)
	require.Zero(t, r.holding())
}

// TestRunWithoutTheSiteReservesNothing: a homepage that could not be read
// leaves nothing to judge and asks for no memory.
func TestRunWithoutTheSiteReservesNothing(t *testing.T) {
	_, f := audittest.Sites(t)
	u, err := url.Parse("https://127.0.0.1:1/")
	require.NoError(t, err)
	var r reservations
	_, err = audit.Run(context.Background(), audit.Target{URL: u}, audit.Options{Fetcher: f, Reserve: r.reserve})
	var home *fetch.HomeError
	require.ErrorAs(t, err, &home)
	require.Empty(t, r.asked)
}

// TestRunThatWaitsForMemoryPastItsTimeSaysSo: a reservation still waiting
// when ctx's time runs out ends Run with ErrOutOfTime and ErrMemoryWait,
// with ctx's cause, and nothing to release; an error of the hook itself
// is Run's error.
func TestRunThatWaitsForMemoryPastItsTimeSaysSo(t *testing.T) {
	site := siteOf(t, bigPage("pt", "Café torrado artesanal", "Promoções", 50))
	budget := errors.New("scan budget")
	ctx, cancel := context.WithTimeoutCause(context.Background(), 20*time.Millisecond, budget)
	defer cancel()
	wait := func(ctx context.Context, _ int64) (func(), error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	res, err := audit.Run(ctx, audit.Target{URL: site.Target, BrandName: "Store"}, audit.Options{Site: site, Reserve: wait})
	require.ErrorIs(t, err, audit.ErrOutOfTime)
	require.ErrorIs(t, err, audit.ErrMemoryWait)
	require.ErrorIs(t, err, budget)
	require.Contains(t, err.Error(), "waited for memory")
	require.Empty(t, res.Outcomes, "nothing was judged")

	broken := errors.New("no budget configured")
	_, err = audit.Run(context.Background(), audit.Target{URL: site.Target, BrandName: "Store"}, audit.Options{
		Site: site, Reserve: func(context.Context, int64) (func(), error) { return nil, broken },
	})
	require.ErrorIs(t, err, broken)
	require.NotErrorIs(t, err, audit.ErrOutOfTime)
}

// htmlOf is the HTML a site parsed: its homepage's and its key pages'.
func htmlOf(site *fetch.Site) (home, keys int) {
	for r, p := range site.Parsed {
		if r == site.Home {
			home += p.HTMLBytes
		} else {
			keys += p.HTMLBytes
		}
	}
	return home, keys
}

// TestSiteAsksBeforeParsing: a site fetch tells BeforeParse how much HTML
// it is about to parse, the homepage's once it is read and then the key
// pages' together, and parses nothing BeforeParse refuses.
func TestSiteAsksBeforeParsing(t *testing.T) {
	_, f := audittest.Sites(t)
	u := audittest.URL(t, testsite.Bakery)

	var told []int
	site, err := f.SiteWith(context.Background(), u, fetch.SiteOpts{BeforeParse: func(_ context.Context, n int) error {
		told = append(told, n)
		return nil
	}})
	require.NoError(t, err)
	home, keys := htmlOf(site)
	require.Positive(t, keys, "the bakery has key pages")
	require.Equal(t, []int{home, keys}, told)

	refused := errors.New("no memory")
	told = nil
	site, err = f.SiteWith(context.Background(), u, fetch.SiteOpts{BeforeParse: func(_ context.Context, n int) error {
		told = append(told, n)
		return refused
	}})
	require.ErrorIs(t, err, refused)
	require.Equal(t, []int{len(site.Home.Body)}, told)
	require.Nil(t, site.HomePage, "the homepage was not parsed")
	require.Empty(t, site.Parsed)
	require.Empty(t, site.Pages, "nothing was fetched after the homepage")
}

// TestRunReservesBeforeParsingTheHomepage: an audit that fetches asks
// once, before it parses the homepage, by the homepage's size with the
// key pages' margin, and that covers the whole site when its key pages
// are small; the heavy store's 4.9 MB homepage and an ordinary site
// alike.
func TestRunReservesBeforeParsingTheHomepage(t *testing.T) {
	_, f := audittest.Sites(t)
	for _, name := range []string{testsite.Heavy, testsite.Bakery, testsite.Docs} {
		t.Run(name, func(t *testing.T) {
			var r reservations
			res, err := audit.Run(context.Background(), audittest.Target(t, name, "Store"), audit.Options{Fetcher: f, Reserve: r.reserve})
			require.NoError(t, err)
			home, keys := htmlOf(res.Site)
			require.LessOrEqual(t, keys, audit.MemoryKeyPagesMargin, "key pages within the margin")
			want := max(int64(audit.MemoryFloor), audit.MemoryPerHTMLByte*int64(home+audit.MemoryKeyPagesMargin))
			require.Equal(t, []int64{want}, r.asked, "one reservation, by the homepage")
			require.GreaterOrEqual(t, want, audit.MemoryEstimate(res.Site), "it covers the site")
			require.Equal(t, 1, r.released)
			require.Zero(t, r.holding())
		})
	}
}

// TestRunAsksAgainForBigKeyPages: key pages past the margin make the
// audit give back what it holds and ask for the whole site's estimate,
// so it never waits while holding memory.
func TestRunAsksAgainForBigKeyPages(t *testing.T) {
	_, f := audittest.Sites(t)
	var r reservations
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.WordPress, "Brightpath"), audit.Options{Fetcher: f, Reserve: r.reserve})
	require.NoError(t, err)
	home, keys := htmlOf(res.Site)
	require.Greater(t, keys, audit.MemoryKeyPagesMargin, "the fixture's key pages are past the margin")
	first := max(int64(audit.MemoryFloor), audit.MemoryPerHTMLByte*int64(home+audit.MemoryKeyPagesMargin))
	whole := audit.MemoryEstimate(res.Site)
	require.Greater(t, whole, first)
	require.Equal(t, []int64{first, whole}, r.asked)
	require.Equal(t, []int64{0, 0}, r.heldAsked, "nothing held while asking")
	require.Equal(t, 2, r.released)
	require.Zero(t, r.holding())
}

// TestRunThatWaitsToParseRunsOutOfTime: an audit still waiting to parse
// its homepage when its time runs out fails with ErrOutOfTime and
// ErrMemoryWait and ctx's cause, not as a homepage that could not be
// read.
func TestRunThatWaitsToParseRunsOutOfTime(t *testing.T) {
	_, f := audittest.Sites(t)
	budget := errors.New("scan budget")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	asked := 0
	// The time runs out while the audit waits, however long reading the
	// homepage took.
	wait := func(ctx context.Context, _ int64) (func(), error) {
		asked++
		cancel(budget)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	res, err := audit.Run(ctx, audittest.Target(t, testsite.Winery, "Sonnhalde"), audit.Options{Fetcher: f, Reserve: wait})
	require.ErrorIs(t, err, audit.ErrOutOfTime)
	require.ErrorIs(t, err, audit.ErrMemoryWait)
	require.ErrorIs(t, err, budget)
	var home *fetch.HomeError
	require.NotErrorAs(t, err, &home)
	require.Equal(t, 1, asked)
	require.Nil(t, res.Site)
	require.Empty(t, res.Outcomes)
}
