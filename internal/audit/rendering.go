package audit

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/report"
)

// Rendering: with Options.Renderer, the audit loads pages in a browser
// too and compares each with its HTML as fetched (render.Compare), so the
// checks about what JavaScript adds judge from what a browser showed
// rather than from signs in the HTML. The homepage is rendered after it
// is read; a whole-site audit renders a sample of its pages, the first of
// each template first. A page that cannot be rendered never fails the
// audit: its findings about JavaScript are not measured, and the result
// says why.

// The modes of Result.Rendering.
const (
	// RenderingOff: no renderer was given; the checks judged from the
	// HTML alone.
	RenderingOff = "off"
	// RenderingOn: at least one page was rendered.
	RenderingOn = "rendered"
	// RenderingUnavailable: a renderer was given but no page could be
	// rendered.
	RenderingUnavailable = "unavailable"
)

// The defaults of a whole-site audit's rendering sample.
const (
	// DefaultRenderPages is the most pages an audit renders, the homepage
	// included, when Options.RenderPages is 0.
	DefaultRenderPages = 20
	// defaultRenderPerTemplate is how many pages of one template are
	// rendered when Options.RenderPerTemplate is 0.
	defaultRenderPerTemplate = 1
)

// Rendering says which pages an audit rendered in a browser, and why the
// others were not.
type Rendering struct {
	Mode string
	// Pages are the pages rendering was tried on, the homepage first:
	// rendered, or with the reason they were not.
	Pages []RenderedPage
	// Unsampled counts the pages of a whole-site audit judged without a
	// browser because the render budget or their template's share was
	// spent.
	Unsampled int
}

// RenderedPage is one page rendering was tried on.
type RenderedPage struct {
	URL string
	// Group is the page's template in a whole-site audit, "" for the
	// homepage audit's homepage.
	Group    string
	Rendered bool
	// Reason says why the page was not rendered; "" when it was.
	Reason string
	// Diff compares the page's HTML with the rendered page; nil when it
	// was not rendered.
	Diff    *render.Diff
	Elapsed time.Duration
}

// renderPage renders one page whose HTML raw was read at pageURL, answered
// with rawStatus, and compares the two.
func renderPage(ctx context.Context, r render.Renderer, pageURL string, rawStatus int, raw *page.Page) (rp RenderedPage) {
	rp.URL = pageURL
	start := time.Now()
	defer func() { rp.Elapsed = time.Since(start) }()
	if err := ctx.Err(); err != nil {
		rp.Reason = "the audit ran out of time before the page could be rendered"
		return rp
	}
	p := safeRender(ctx, r, pageURL)
	if !p.Rendered() {
		rp.Reason = p.Err
		return rp
	}
	// A browser that was answered with an error the fetch was not (a bot
	// challenge, a block) or sent to another site saw another page: comparing it with
	// the HTML would report differences of two documents, not what
	// scripts add to one.
	if p.Status >= 400 && p.Status != rawStatus {
		rp.Reason = fmt.Sprintf("the browser was answered HTTP %d", p.Status)
		return rp
	}
	if host := hostOf(p.FinalURL); host != "" && host != hostOf(pageURL) {
		rp.Reason = "in the browser the page went on to another site, " + host
		return rp
	}
	d, err := render.CompareRendered(raw, p)
	if err != nil {
		rp.Reason = "the rendered page could not be read: " + err.Error()
		return rp
	}
	rp.Rendered, rp.Diff = true, &d
	return rp
}

// safeRender calls the renderer, which promises not to panic; a panic
// would otherwise cost the whole audit for one page it only adds to.
func safeRender(ctx context.Context, r render.Renderer, pageURL string) (p render.Page) {
	defer func() {
		if v := recover(); v != nil {
			p = render.Page{URL: pageURL, Err: fmt.Sprintf("the renderer failed (%v)", v)}
		}
	}()
	return r.Render(ctx, pageURL)
}

// renderHome renders the homepage read as site, for in's checks, and
// starts the audit's rendering record; nil sampler when rendering is off.
func renderHome(ctx context.Context, opts Options, site *fetch.Site, in *checks.Input, t *Timings) *renderSampler {
	if opts.Renderer == nil {
		return nil
	}
	s := &renderSampler{
		r: opts.Renderer, budget: cmpOr(opts.RenderPages, DefaultRenderPages),
		perTemplate: cmpOr(opts.RenderPerTemplate, defaultRenderPerTemplate), byGroup: map[string]int{},
	}
	home := RenderedPage{Reason: "the homepage is not an HTML page"}
	if site.Home != nil {
		home.URL = site.Home.FinalURL
	}
	if site.HomePage != nil && site.Home != nil {
		home = renderPage(ctx, opts.Renderer, site.Home.FinalURL, site.Home.Status, site.HomePage)
		in.Rendered = home.Diff
		in.RenderErr = home.Reason
	}
	t.Render += home.Elapsed
	s.used = 1
	s.home = home
	s.pages = append(s.pages, home)
	return s
}

// renderSampler renders a whole-site audit's sample of pages: the first
// perTemplate pages of each template as they are judged, up to budget
// pages in all (the homepage's included). It is safe for the judge's
// goroutines.
type renderSampler struct {
	r           render.Renderer
	budget      int
	perTemplate int
	home        RenderedPage

	mu        sync.Mutex
	used      int
	byGroup   map[string]int
	pages     []RenderedPage
	unsampled int
	elapsed   time.Duration
}

// page renders a page of a whole-site audit when the sample takes it and
// returns what its checks read: the comparison, or why rendering failed;
// both empty when the page is not in the sample. The crawl's homepage is
// the homepage audit's, rendered once.
func (s *renderSampler) page(ctx context.Context, pageURL, group string, home bool, raw *page.Page) (*render.Diff, string) {
	if s == nil {
		return nil, ""
	}
	if home {
		return s.home.Diff, s.home.Reason
	}
	s.mu.Lock()
	if s.used >= s.budget || s.byGroup[group] >= s.perTemplate {
		s.unsampled++
		s.mu.Unlock()
		return nil, ""
	}
	s.used++
	s.byGroup[group]++
	s.mu.Unlock()

	// The pages a whole-site audit judges answered 2xx.
	rp := renderPage(ctx, s.r, pageURL, 200, raw)
	rp.Group = group
	s.mu.Lock()
	s.pages = append(s.pages, rp)
	s.elapsed += rp.Elapsed
	s.mu.Unlock()
	return rp.Diff, rp.Reason
}

// result is the audit's rendering record; off without a sampler.
func (s *renderSampler) result() *Rendering {
	if s == nil {
		return &Rendering{Mode: RenderingOff}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &Rendering{Mode: RenderingUnavailable, Pages: append([]RenderedPage(nil), s.pages...), Unsampled: s.unsampled}
	for _, p := range s.pages {
		if p.Rendered {
			out.Mode = RenderingOn
			break
		}
	}
	return out
}

// sampleTime is the time the whole-site sample spent rendering, summed
// over pages rendered at once.
func (s *renderSampler) sampleTime() time.Duration {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.elapsed
}

// renderingCaveats is the report's sentence about rendering: off, or the
// homepage not rendered.
func renderingCaveats(r *Rendering) []string {
	switch {
	case r == nil:
		return nil
	case r.Mode == RenderingOff:
		return []string{"No browser rendered the pages (rendering is off), so what JavaScript adds to them was judged from signs in their HTML."}
	case len(r.Pages) > 0 && !r.Pages[0].Rendered:
		return []string{fmt.Sprintf("The homepage could not be rendered in a browser (%s), so what JavaScript adds to it was not measured.", r.Pages[0].Reason)}
	}
	return nil
}

// renderingInput is what the report shows of the pages rendered.
func renderingInput(r *Rendering) report.RenderingInput {
	in := report.RenderingInput{Mode: r.Mode, Unsampled: r.Unsampled}
	for _, p := range r.Pages {
		in.Pages = append(in.Pages, report.RenderedPage{URL: p.URL, Group: p.Group, Rendered: p.Rendered, Reason: p.Reason, Diff: p.Diff})
	}
	return in
}

// hostOf is a URL's host in lower case without a leading "www.", "" when
// it has none.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}
