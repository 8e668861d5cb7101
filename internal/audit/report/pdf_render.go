package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
)

// renderingSection shows, for each page a browser rendered, its key facts
// side by side: in the HTML as fetched, which is what AI crawlers read,
// and after scripts ran, which is what people see; a fact that differs is
// marked. A page that could not be rendered says why. A report made
// without a browser has no such section (its caveats say so).
func (d *doc) renderingSection() {
	rn := d.r.Rendering
	if rn == nil || rn.Mode == api.RenderModeOff || len(rn.Pages) == 0 {
		return
	}
	d.heading("What AI crawlers see and what people see")
	d.font(fontRegular, 10.5)
	d.color(ink)
	intro := "AI crawlers read a page's HTML as the server sends it and run no JavaScript; people see it in a browser after scripts ran. " +
		fmt.Sprintf("%s loaded %s in a browser and compared the two.", d.author(), plural(len(rn.Pages), "page", "pages"))
	if rn.UnsampledPages > 0 {
		intro += fmt.Sprintf(" The other %s of the site were judged from their HTML alone.", plural(rn.UnsampledPages, "page", "pages"))
	}
	d.para(marginL, contentW, intro)
	for _, p := range rn.Pages {
		d.renderedPage(p)
	}
}

// The columns of the side-by-side table, in millimetres from marginL.
const (
	renderColRaw      = 46.0
	renderColRendered = 46.0 + (contentW-46.0)/2
)

// renderedPage is one page's side-by-side, or why it was not rendered.
func (d *doc) renderedPage(p api.RenderedPage) {
	d.ensure(30)
	d.y += 3
	d.font(fontBold, 10.5)
	d.color(ink)
	d.text(marginL, d.y, d.clipMiddle(p.URL, contentW))
	d.y += d.lineH()
	if p.Group != nil && *p.Group != "" {
		d.font(fontRegular, 8.5)
		d.color(muted)
		d.text(marginL, d.y, d.clip("Template "+*p.Group, contentW))
		d.y += d.lineH()
	}
	c := p.Comparison
	if !p.Rendered || c == nil {
		d.font(fontRegular, 9.5)
		d.color(statusInk[api.CheckStatusNa])
		d.para(marginL, contentW, "Not rendered: "+strings.TrimSuffix(p.Reason, ".")+". What JavaScript adds to this page was not measured.")
		return
	}
	d.font(fontBold, 8.5)
	d.color(muted)
	d.text(marginL+renderColRaw, d.y, "In the HTML (AI crawlers)")
	d.text(marginL+renderColRendered, d.y, "After JavaScript (people)")
	d.y += d.lineH()
	jsonld := strconv.Itoa(c.RenderedJsonldBlocks)
	if len(c.JsonldOnlyRendered) > 0 {
		jsonld += " (" + strings.Join(c.JsonldOnlyRendered[:min(len(c.JsonldOnlyRendered), 4)], ", ") + " only here)"
	}
	rows := []struct {
		name, raw, rendered string
		differs             bool
	}{
		{"Words of main text", strconv.Itoa(c.RawWords), fmt.Sprintf("%d (%d only here)", c.RenderedWords, c.WordsOnlyRendered), c.WordsOnlyRendered > 0 || c.RawWords != c.RenderedWords},
		{"Headings", strconv.Itoa(c.RawHeadings), strconv.Itoa(c.RenderedHeadings), c.RawHeadings != c.RenderedHeadings},
		{"Internal links", strconv.Itoa(c.RawInternalLinks), strconv.Itoa(c.RenderedInternalLinks), c.RawInternalLinks != c.RenderedInternalLinks},
		{"Navigation links", strconv.Itoa(c.RawNavLinks), strconv.Itoa(c.RenderedNavLinks), c.RawNavLinks != c.RenderedNavLinks},
		{"Images with alt text", strconv.Itoa(c.RawImagesWithAlt), strconv.Itoa(c.RenderedImagesWithAlt), c.RawImagesWithAlt != c.RenderedImagesWithAlt},
		{"JSON-LD blocks", strconv.Itoa(c.RawJsonldBlocks), jsonld, c.RawJsonldBlocks != c.RenderedJsonldBlocks || len(c.JsonldOnlyRendered) > 0},
		{"Title", c.RawTitle, c.RenderedTitle, c.RawTitle != c.RenderedTitle},
		{"Meta description", c.RawDescription, c.RenderedDescription, c.RawDescription != c.RenderedDescription},
		{"Canonical", c.RawCanonical, c.RenderedCanonical, c.RawCanonical != c.RenderedCanonical},
		{"Meta robots", c.RawRobots, c.RenderedRobots, c.RawRobots != c.RenderedRobots},
	}
	for _, r := range rows {
		d.ensure(d.lineH())
		d.font(fontRegular, 9)
		d.color(ink)
		d.text(marginL, d.y, r.name)
		d.color(muted)
		if r.differs {
			d.color(statusInk[api.CheckStatusWarn])
		}
		d.text(marginL+renderColRaw, d.y, d.clip(dash(r.raw), renderColRendered-renderColRaw-3))
		d.text(marginL+renderColRendered, d.y, d.clip(dash(r.rendered), contentW-renderColRendered))
		d.y += d.lineH()
	}
	if p.Summary != "" {
		d.y += 1
		d.font(fontRegular, 9.5)
		d.color(ink)
		if c.TextNeedsJavascript || c.CanonicalChanged || c.RobotsChanged || len(c.JsonldOnlyRendered) > 0 {
			d.color(statusInk[api.CheckStatusFail])
		}
		d.para(marginL, contentW, p.Summary)
	}
}

// dash shows an empty value as a dash.
func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
