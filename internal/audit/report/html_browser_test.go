package report_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// tab is one browser tab and the messages its pages wrote to the console.
type tab struct {
	ctx context.Context
	mu  sync.Mutex
	log []string
}

// newTab starts a headless Chromium for the test and opens a tab in it.
func newTab(t *testing.T) *tab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browsertest.Path(t)), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// A bound on a hung browser, not a speed: ten axe-core runs take
	// minutes on a busy machine.
	ctx, cancelTime := context.WithTimeout(ctx, 8*time.Minute)
	t.Cleanup(cancelTime)
	tb := &tab{ctx: ctx}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *log.EventEntryAdded:
			msg = string(e.Entry.Source) + ": " + e.Entry.Text
		case *runtime.EventConsoleAPICalled:
			for _, a := range e.Args {
				msg += string(a.Value) + " " + a.Description
			}
		default:
			return
		}
		tb.mu.Lock()
		tb.log = append(tb.log, msg)
		tb.mu.Unlock()
	}))
	return tb
}

// cspErrors are the console messages about the Content-Security-Policy.
func (tb *tab) cspErrors() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, m := range tb.log {
		if strings.Contains(m, "Content Security Policy") || strings.Contains(m, "Content-Security-Policy") {
			out = append(out, m)
		}
	}
	return out
}

// layout is what the tests read back from the rendered page.
type layout struct {
	ScrollWidth, InnerWidth int
	Grade                   string
	GradeVisible            bool
	RingScores              []string
	RingsVisible            bool
	H1                      []string
	H2                      []string
}

const readLayout = `(() => {
  const shown = el => { if (!el) return false; const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const g = document.getElementById('overall-grade');
  const rings = [...document.querySelectorAll('.ring-score')];
  return {
    ScrollWidth: document.documentElement.scrollWidth, InnerWidth: window.innerWidth,
    Grade: g ? g.textContent.trim() : '', GradeVisible: shown(g),
    RingScores: rings.map(e => e.textContent.trim()), RingsVisible: rings.length > 0 && rings.every(shown),
    H1: [...document.querySelectorAll('h1')].map(e => e.textContent.trim()),
    H2: [...document.querySelectorAll('h2')].map(e => e.textContent.trim()),
  };
})()`

// browserReport is a whole-site engineering report of a fixture with
// every section: the site's issues and worst pages, the rendering
// comparison, the dossier, a trend, a logo and a brand colour.
func browserReport(t *testing.T) report.HTMLInput {
	t.Helper()
	f := built(t, testsite.Bakery, "")
	r := f.report.For(scoring.Engineering)
	d := f.dossier.For(scoring.Engineering)
	long := "https://millbrook-bakery.test/" + strings.Repeat("bread-and-pastry-", 12) + "?utm_source=" + strings.Repeat("x", 80)
	r.Site = &api.SiteCoverage{PagesAudited: 48, PagesKnown: 60, PagesPlanned: 50, Sample: "all", Stop: "complete"}
	r.CrossCuttingIssues = &[]api.CrossCuttingIssue{{CheckID: r.Checks[0].ID, PagesAffected: 30, PagesAudited: 48, Groups: []string{"/bread/{slug}"}, ExampleUrls: []string{long}, ExpectedGain: 3.2}}
	r.WorstPages = &[]api.WorstPage{{URL: long, Group: "/bread/{slug}", Score: 31.5}}
	r.Rendering = &api.RenderCoverage{Mode: "rendered", Pages: []api.RenderedPage{
		{URL: long, Rendered: true, Summary: "The main text appears only after JavaScript.", Comparison: &api.RenderComparison{
			RawWords: 3, RenderedWords: 900, WordsOnlyRendered: 897, RawTitle: "Millbrook", RenderedTitle: "Millbrook Bakery · " + strings.Repeat("Sourdough ", 12), TextNeedsJavascript: true,
		}},
		{URL: "https://millbrook-bakery.test/about", Reason: "timed out after 15s"},
	}}
	var logo bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := range 40 {
		for y := range 20 {
			img.Set(x, y, color.RGBA{R: 122, G: 31, B: 162, A: 255})
		}
	}
	require.NoError(t, png.Encode(&logo, img))
	return report.HTMLInput{
		Report: r, Triage: &d, History: scoreHistory(r), Language: "en", Expires: r.GeneratedAt.AddDate(0, 0, 30),
		Brand: report.Brand{Name: "Acme Agency", PrimaryColor: "#7a1fa2", Logo: logo.Bytes(), LogoType: "image/png", Contact: "hello@acme.test", Footer: "Acme Agency Ltd"},
	}
}

// The report in a real browser, at a phone's width and a desktop's: it
// draws without a policy violation, never scrolls sideways, shows the
// grade and the three ring scores, and its headings.
func TestHTMLInBrowser(t *testing.T) {
	t.Parallel()
	in := browserReport(t)
	var page bytes.Buffer
	require.NoError(t, report.WriteHTML(&page, in))
	srv := served(t, page.Bytes(), true)
	tb := newTab(t)
	dir := t.TempDir()
	r := in.Report
	for _, vp := range []struct{ w, h int64 }{{375, 800}, {1280, 800}} {
		require.NoError(t, chromedp.Do(tb.ctx, chromedp.EmulateViewport(vp.w, vp.h), chromedp.Navigate(srv.URL)))
		shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.True(t, bytes.HasPrefix(shot, []byte("\x89PNG\r\n\x1a\n")), "a PNG")
		cfg, err := png.DecodeConfig(bytes.NewReader(shot))
		require.NoError(t, err)
		require.Equal(t, int(vp.w), cfg.Width)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("report-%d.png", vp.w)), shot, 0o600))

		l, err := chromedp.Run(tb.ctx, chromedp.Evaluate[layout](readLayout))
		require.NoError(t, err)
		require.Equal(t, int(vp.w), l.InnerWidth)
		require.LessOrEqual(t, l.ScrollWidth, l.InnerWidth, "at %d px the page scrolls sideways", vp.w)
		require.Equal(t, string(r.OverallGrade), l.Grade)
		require.True(t, l.GradeVisible, "the grade is visible at %d px", vp.w)
		require.Equal(t, []string{fmt.Sprint(r.Rings.Search.Score), fmt.Sprint(r.Rings.Visibility.Score), fmt.Sprint(r.Rings.Trust.Score)}, l.RingScores)
		require.True(t, l.RingsVisible, "the ring scores are visible at %d px", vp.w)
		require.Equal(t, []string{r.BrandName}, l.H1)
		for _, h := range []string{"Executive summary", "Across the site", "What AI crawlers see and what people see", "Site Triage", "Search", "AI visibility", "AI trust", "Scores over time", "Caveats"} {
			require.Contains(t, l.H2, h)
		}
	}
	require.Empty(t, tb.cspErrors(), "the policy refused part of the page")

	// The gone page, under the same policy.
	var gone bytes.Buffer
	require.NoError(t, report.WriteHTMLGone(&gone, http.StatusGone, in.Brand))
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.Navigate(served(t, gone.Bytes(), true).URL)))
	l, err := chromedp.Run(tb.ctx, chromedp.Evaluate[layout](readLayout))
	require.NoError(t, err)
	require.Equal(t, []string{"This link was revoked or has expired"}, l.H1)
	require.Empty(t, tb.cspErrors())
}

// The accessibility check sees what it is for: an image without a text
// and grey on white break rules of serious and critical impact.
func TestHTMLAccessibilitySeesViolations(t *testing.T) {
	t.Parallel()
	bad := `<!DOCTYPE html><html><head><title>x</title></head><body><main><h1>x</h1>` +
		`<img src="data:image/png;base64,iVBORw0KGgo="><p><span class="c">faint</span></p>` +
		`<style>.c{color:#ccc;background:#fff}</style></main></body></html>`
	srv := served(t, []byte(bad), false)
	tb := newTab(t)
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.Navigate(srv.URL)))
	_, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](axeSource(t)+";true"))
	require.NoError(t, err)
	vs, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]violation](runAxe, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	ids := map[string]string{}
	for _, v := range vs {
		ids[v.ID] = v.Impact
	}
	require.Equal(t, "critical", ids["image-alt"], "%+v", vs)
	require.Equal(t, "serious", ids["color-contrast"], "%+v", vs)
	require.Equal(t, "serious", ids["html-has-lang"], "%+v", vs)
}

// The check for policy violations sees one: a policy whose hash is not
// the stylesheet's refuses it, and the console says so.
func TestHTMLInBrowserSeesViolations(t *testing.T) {
	t.Parallel()
	var page bytes.Buffer
	require.NoError(t, report.WriteHTMLGone(&page, http.StatusNotFound, report.Brand{}))
	other := sha256.Sum256([]byte("another stylesheet"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		report.HTMLHeaders(w.Header())
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'sha256-"+base64.StdEncoding.EncodeToString(other[:])+"'")
		_, _ = w.Write(page.Bytes())
	}))
	t.Cleanup(srv.Close)
	tb := newTab(t)
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.Navigate(srv.URL)))
	require.NotEmpty(t, tb.cspErrors(), "console: %q", tb.log)
}

// axeSource is axe-core, vendored under testdata/axe (see its README).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js"))
	require.NoError(t, err)
	return string(b)
}

// violation is one axe-core rule a page breaks.
type violation struct {
	ID, Impact, Help string
	Nodes            []string
}

const runAxe = `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
  ID: v.id, Impact: v.impact || '', Help: v.help, Nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '')),
})))`

// axe-core finds nothing serious or critical in either edition, at a
// phone's width and a desktop's, nor on the gone page. The script is
// evaluated through the DevTools protocol, which the page's policy does
// not govern, so the page is tested as it is served.
func TestHTMLAccessibility(t *testing.T) {
	t.Parallel()
	axe := axeSource(t)
	in := browserReport(t)
	pages := map[string][]byte{}
	for _, aud := range []api.ReportAudience{api.ReportAudienceEngineering, api.ReportAudienceMarketing} {
		var b bytes.Buffer
		f := in
		f.Report.Audience = aud
		require.NoError(t, report.WriteHTML(&b, f))
		pages[string(aud)] = b.Bytes()
	}
	for name, color := range map[string]string{"band with the brand": "#7a1fa2", "light colour": "#ffd400"} {
		var b bytes.Buffer
		f := in
		f.Brand = report.Brand{Name: "Acme Agency", PrimaryColor: color}
		require.NoError(t, report.WriteHTML(&b, f))
		pages[name] = b.Bytes()
	}
	var gone bytes.Buffer
	require.NoError(t, report.WriteHTMLGone(&gone, http.StatusNotFound, in.Brand))
	pages["gone"] = gone.Bytes()

	tb := newTab(t)
	for name, body := range pages {
		srv := served(t, body, true)
		for _, w := range []int64{375, 1280} {
			require.NoError(t, chromedp.Do(tb.ctx, chromedp.EmulateViewport(w, 800), chromedp.Navigate(srv.URL)))
			_, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](axe+";true"))
			require.NoError(t, err, "load axe-core")
			vs, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]violation](runAxe, chromedp.EvalAwaitPromise))
			require.NoError(t, err, "run axe-core")
			var bad []violation
			for _, v := range vs {
				if v.Impact == "serious" || v.Impact == "critical" {
					bad = append(bad, v)
				}
			}
			out, _ := json.MarshalIndent(bad, "", "  ")
			require.Empty(t, bad, "%s at %d px: %s", name, w, out)
		}
	}
	require.Empty(t, tb.cspErrors())
}

// printed is what the tests read back from the page as printed.
type printed struct {
	EvidenceShown, SummaryShown bool
	CheckBreak, PanelBackground string
}

const readPrinted = `(() => {
  const ev = document.querySelector('details:not([open]) dl.evidence');
  const s = document.querySelector('summary');
  return {
    EvidenceShown: !!ev && ev.checkVisibility() && ev.getBoundingClientRect().height > 0,
    SummaryShown: !!s && getComputedStyle(s).display !== 'none',
    CheckBreak: getComputedStyle(document.querySelector('.check')).breakInside,
    PanelBackground: getComputedStyle(document.querySelector('.panel')).backgroundColor,
  };
})()`

// Printed, the report shows what the screen folds away (a check's
// evidence), drops the panels' backgrounds and keeps each check on one
// page.
func TestHTMLPrint(t *testing.T) {
	t.Parallel()
	var page bytes.Buffer
	require.NoError(t, report.WriteHTML(&page, browserReport(t)))
	srv := served(t, page.Bytes(), true)
	tb := newTab(t)
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL)))
	screen, err := chromedp.Run(tb.ctx, chromedp.Evaluate[printed](readPrinted))
	require.NoError(t, err)
	require.False(t, screen.EvidenceShown, "on screen a check's evidence is folded")
	require.True(t, screen.SummaryShown)

	_, err = chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	require.NoError(t, err)
	p, err := chromedp.Run(tb.ctx, chromedp.Evaluate[printed](readPrinted))
	require.NoError(t, err)
	require.True(t, p.EvidenceShown, "printed, a check's evidence is shown")
	require.False(t, p.SummaryShown)
	require.Equal(t, "avoid", p.CheckBreak)
	require.Equal(t, "rgba(0, 0, 0, 0)", p.PanelBackground)
	require.Empty(t, tb.cspErrors())
}

// The hostile report, served without its policy so that only the
// template's escaping stands between the site's texts and the browser,
// opens no dialog and still fits a phone.
func TestHTMLHostileInBrowser(t *testing.T) {
	t.Parallel()
	var body bytes.Buffer
	require.NoError(t, report.WriteHTML(&body, hostileInput(t)))
	srv := served(t, body.Bytes(), false)
	tb := newTab(t)
	var dialogs atomic.Int32
	require.NoError(t, chromedp.Listen(tb.ctx, func(ev any) {
		if _, ok := ev.(*cdppage.EventJavascriptDialogOpening); ok {
			dialogs.Add(1)
			// The dialog holds the page until it is answered, and the
			// listener may not send commands itself.
			go func() {
				_, _ = chromedp.Call(tb.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true})
			}()
		}
	}))
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.EmulateViewport(375, 800), chromedp.Navigate(srv.URL)))
	l, err := chromedp.Run(tb.ctx, chromedp.Evaluate[layout](readLayout))
	require.NoError(t, err)
	require.LessOrEqual(t, l.ScrollWidth, l.InnerWidth, "the page scrolls sideways")
	n, err := chromedp.Run(tb.ctx, chromedp.Evaluate[int](`document.scripts.length`))
	require.NoError(t, err)
	require.Zero(t, n, "no script element in the page")
	require.Zero(t, dialogs.Load(), "a script of the site ran")

	// The listener sees a dialog when a script opens one.
	require.NoError(t, chromedp.Do(tb.ctx, chromedp.Navigate(served(t, []byte(`<!DOCTYPE html><title>x</title><script>alert(1)</script>`), false).URL)))
	require.Positive(t, dialogs.Load())
}
