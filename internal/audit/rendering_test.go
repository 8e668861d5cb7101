package audit_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// fakeBrowser renders a page by fetching its HTML from the fixture sites
// and running script on it, in place of the scripts a browser would run;
// with fail set it renders nothing and says why. It records the URLs it
// was asked for.
type fakeBrowser struct {
	fetcher *fetch.Fetcher
	script  func(url, html string) string
	fail    string
	// status and finalURL, when set, replace the page's own.
	status   int
	finalURL string

	mu   sync.Mutex
	asks []string
}

func (b *fakeBrowser) Render(ctx context.Context, url string) render.Page {
	b.mu.Lock()
	b.asks = append(b.asks, url)
	b.mu.Unlock()
	if b.fail != "" {
		return render.Page{URL: url, Err: b.fail}
	}
	r := b.fetcher.Do(ctx, fetch.Request{Purpose: fetch.Homepage, URL: url})
	if r.Err != nil {
		return render.Page{URL: url, Err: "the page did not load: " + r.ErrorText()}
	}
	html := string(r.Body)
	if b.script != nil {
		html = b.script(url, html)
	}
	p := render.Page{URL: url, FinalURL: r.FinalURL, Status: r.Status, HTML: []byte(html), Elapsed: time.Millisecond}
	if b.status != 0 {
		p.Status = b.status
	}
	if b.finalURL != "" {
		p.FinalURL = b.finalURL
	}
	return p
}

func (b *fakeBrowser) asked() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.asks...)
}

// appText is what the client-rendered app's scripts put in its empty
// root: 500 words of copy, a product's JSON-LD and a canonical.
func appText(_, html string) string {
	var b strings.Builder
	b.WriteString(`<main><h1>Nimbus keeps your team's files in sync</h1>`)
	for i := range 50 {
		fmt.Fprintf(&b, "<p>Nimbus feature%d syncs folder%d across laptop%d phone%d and tablet%d without waiting%d for anyone%d at all%d today%d again%d.</p>", i, i, i, i, i, i, i, i, i, i)
	}
	b.WriteString(`</main>`)
	html = strings.Replace(html, `<div id="__next"></div>`, `<div id="__next">`+b.String()+`</div>`, 1)
	return strings.Replace(html, "</head>", `<link rel="canonical" href="https://nimbus-app.test/"><script type="application/ld+json">{"@context":"https://schema.org","@type":"SoftwareApplication","name":"Nimbus"}</script></head>`, 1)
}

// outcome is one check's result of an audit.
func outcome(t *testing.T, res audit.Result, id string) checks.Result {
	t.Helper()
	for _, o := range res.Outcomes {
		if o.Check.ID == id {
			return o.Result
		}
	}
	require.Failf(t, "no outcome", "%s", id)
	return checks.Result{}
}

// A client-rendered app audited with a browser: its text, JSON-LD and
// canonical appear only after JavaScript, and the findings say so with
// both counts; the result and the report say which page was rendered.
func TestRunRendersAClientRenderedApp(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	b := &fakeBrowser{fetcher: f, script: appText}
	res := audittest.Run(t, testsite.NextShell, "Nimbus", audit.Options{Fetcher: f, Renderer: b})

	require.Equal(t, []string{res.Site.Home.FinalURL}, b.asked(), "the homepage, at its final URL, once")
	require.Equal(t, audit.RenderingOn, res.Rendering.Mode)
	require.Len(t, res.Rendering.Pages, 1)
	home := res.Rendering.Pages[0]
	require.True(t, home.Rendered)
	require.NotNil(t, home.Diff)
	require.True(t, home.Diff.TextNeedsJS())

	ssr := outcome(t, res, "ssr_text_content")
	require.Equal(t, checks.Fail, ssr.Status, ssr.Summary)
	require.Contains(t, ssr.Summary, "a browser shows")
	require.Equal(t, "rendering", ssr.Evidence["judged_with"])
	require.Greater(t, ssr.Evidence["rendered_words"], 500)
	require.Less(t, ssr.Evidence["raw_words"], 20)

	js := outcome(t, res, "js_rendering_dependence")
	require.Equal(t, checks.Fail, js.Status, js.Summary)
	require.Contains(t, js.Summary, "the SoftwareApplication JSON-LD")
	require.Contains(t, js.Summary, "the canonical")

	ld := outcome(t, res, "jsonld_valid")
	require.Contains(t, ld.Summary, "SoftwareApplication JSON-LD appears only after JavaScript", ld.Summary)
	require.Equal(t, []string{"SoftwareApplication"}, ld.Evidence["jsonld_only_rendered"])

	rep := res.Report.Engineering.Rendering
	require.NotNil(t, rep)
	require.Equal(t, "rendered", string(rep.Mode))
	require.Len(t, rep.Pages, 1)
	require.Equal(t, res.Site.Home.FinalURL, rep.Pages[0].URL)
	require.NotNil(t, rep.Pages[0].Comparison)
	require.True(t, rep.Pages[0].Comparison.TextNeedsJavascript)
	require.Contains(t, rep.Pages[0].Summary, "appear only after JavaScript")
	require.Equal(t, rep, res.Report.Marketing.Rendering, "both editions say the same")
}

// A server-rendered site, rendered as it is served, passes, judged with
// rendering.
func TestRunRendersAServerRenderedSite(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{Fetcher: f, Renderer: &fakeBrowser{fetcher: f}})
	require.Equal(t, audit.RenderingOn, res.Rendering.Mode)
	js := outcome(t, res, "js_rendering_dependence")
	require.Equal(t, checks.Pass, js.Status, js.Summary)
	require.Equal(t, "rendering", js.Evidence["judged_with"])
	require.Contains(t, js.Summary, "does not depend on JavaScript")
	require.Equal(t, js.Evidence["raw_words"], js.Evidence["rendered_words"])
}

// A browser that cannot render leaves the findings about JavaScript not
// measured, with the reason, and the audit complete.
func TestRunWithABrowserThatFails(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	res := audittest.Run(t, testsite.NextShell, "Nimbus", audit.Options{Fetcher: f, Renderer: &fakeBrowser{fetcher: f, fail: "timed out after 15s"}})
	require.Equal(t, audit.RenderingUnavailable, res.Rendering.Mode)
	require.Equal(t, "timed out after 15s", res.Rendering.Pages[0].Reason)
	for _, id := range []string{"ssr_text_content", "js_rendering_dependence"} {
		r := outcome(t, res, id)
		require.Equal(t, checks.NA, r.Status, "%s: %s", id, r.Summary)
		require.Contains(t, r.Summary, "Not measured: the page could not be rendered in a browser (timed out after 15s)")
	}
	require.Contains(t, strings.Join(*res.Report.Engineering.Caveats, " "), "The homepage could not be rendered in a browser (timed out after 15s)")
	rep := res.Report.Engineering.Rendering
	require.Equal(t, "unavailable", string(rep.Mode))
	require.False(t, rep.Pages[0].Rendered)
	require.Nil(t, rep.Pages[0].Comparison)
}

// Without a browser the heuristics judge, and say so.
func TestRunWithoutABrowser(t *testing.T) {
	t.Parallel()
	res := audittest.Run(t, testsite.NextShell, "Nimbus", audit.Options{})
	require.Equal(t, audit.RenderingOff, res.Rendering.Mode)
	require.Empty(t, res.Rendering.Pages)
	js := outcome(t, res, "js_rendering_dependence")
	require.Equal(t, checks.Fail, js.Status, js.Summary)
	require.Contains(t, js.Summary, "Judged from the raw HTML without a browser.")
	require.Equal(t, "heuristics", js.Evidence["judged_with"])
	require.Contains(t, js.Evidence, "confidence")
	require.Equal(t, "off", string(res.Report.Engineering.Rendering.Mode))
	require.Contains(t, strings.Join(*res.Report.Engineering.Caveats, " "), "No browser rendered the pages")
}

// A whole-site audit renders the first page of each template, within the
// audit's budget, and the homepage once.
func TestRunRendersASampleOfTheSite(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	b := &fakeBrowser{fetcher: f}
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Megasite, "Northwind Outfitters"), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now }, Renderer: b, RenderPages: 4,
		MaxPages: 30, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
	})
	require.NoError(t, err)
	asked := b.asked()
	require.Len(t, asked, 4, "the budget, the homepage included: %v", asked)
	require.Len(t, res.Rendering.Pages, 4)
	groups := map[string]bool{}
	for _, p := range res.Rendering.Pages[1:] {
		require.True(t, p.Rendered, "%s: %s", p.URL, p.Reason)
		require.NotEmpty(t, p.Group)
		require.False(t, groups[p.Group], "one page of template %s", p.Group)
		groups[p.Group] = true
	}
	require.Positive(t, res.Rendering.Unsampled)
	require.Equal(t, res.Rendering.Unsampled+3, res.SiteView.PagesAudited-1, "every page but the homepage is sampled or not")
	require.Len(t, res.Report.Engineering.Rendering.Pages, 4)
}

// A browser answered with an error, or sent to another site, saw another
// page: it is no comparison, and the findings about JavaScript are not
// measured.
func TestRunWithABrowserThatSawAnotherPage(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	for name, tc := range map[string]struct {
		b      *fakeBrowser
		reason string
	}{
		"a challenge":  {&fakeBrowser{fetcher: f, script: appText, status: 403}, "the browser was answered HTTP 403"},
		"another site": {&fakeBrowser{fetcher: f, script: appText, finalURL: "https://login.example.net/sso"}, "in the browser the page went on to another site, login.example.net"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := audittest.Run(t, testsite.NextShell, "Nimbus", audit.Options{Fetcher: f, Renderer: tc.b})
			require.Equal(t, audit.RenderingUnavailable, res.Rendering.Mode)
			require.Equal(t, tc.reason, res.Rendering.Pages[0].Reason)
			r := outcome(t, res, "js_rendering_dependence")
			require.Equal(t, checks.NA, r.Status, r.Summary)
			require.Contains(t, r.Summary, tc.reason)
		})
	}
}
