package report

import (
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
	d.heading(d.tr("html.rendering"))
	d.font(fontRegular, 10.5)
	d.color(ink)
	intro := d.tr("pdf.render_intro", "Author", d.author(), "Pages", d.count("pdf.pages", len(rn.Pages)))
	if rn.UnsampledPages > 0 {
		intro += " " + d.tr("pdf.render_unsampled", "Pages", d.count("pdf.pages", rn.UnsampledPages))
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
		d.text(marginL, d.y, d.clip(d.tr("html.template", "Name", *p.Group), contentW))
		d.y += d.lineH()
	}
	c := p.Comparison
	if !p.Rendered || c == nil {
		d.font(fontRegular, 9.5)
		d.color(statusInk[api.CheckStatusNa])
		d.para(marginL, contentW, d.tr("pdf.not_rendered", "Reason", strings.TrimSuffix(p.Reason, ".")))
		return
	}
	d.font(fontBold, 8.5)
	d.color(muted)
	d.text(marginL+renderColRaw, d.y, d.clip(d.tr("html.col_raw"), renderColRendered-renderColRaw-3))
	d.text(marginL+renderColRendered, d.y, d.clip(d.tr("html.col_rendered"), contentW-renderColRendered))
	d.y += d.lineH()
	jsonld := d.tr("pdf.render_only_here", "Count", d.int(c.RenderedJsonldBlocks), "Only", strings.Join(c.JsonldOnlyRendered[:min(len(c.JsonldOnlyRendered), 4)], ", "))
	if len(c.JsonldOnlyRendered) == 0 {
		jsonld = d.int(c.RenderedJsonldBlocks)
	}
	num := d.int
	rows := []struct {
		name, raw, rendered string
		differs             bool
	}{
		{d.tr("pdf.render.words"), num(c.RawWords), d.tr("pdf.render_only_here", "Count", num(c.RenderedWords), "Only", num(c.WordsOnlyRendered)), c.WordsOnlyRendered > 0 || c.RawWords != c.RenderedWords},
		{d.tr("pdf.render.headings"), num(c.RawHeadings), num(c.RenderedHeadings), c.RawHeadings != c.RenderedHeadings},
		{d.tr("pdf.render.internal_links"), num(c.RawInternalLinks), num(c.RenderedInternalLinks), c.RawInternalLinks != c.RenderedInternalLinks},
		{d.tr("pdf.render.nav_links"), num(c.RawNavLinks), num(c.RenderedNavLinks), c.RawNavLinks != c.RenderedNavLinks},
		{d.tr("pdf.render.images_alt"), num(c.RawImagesWithAlt), num(c.RenderedImagesWithAlt), c.RawImagesWithAlt != c.RenderedImagesWithAlt},
		{d.tr("pdf.render.jsonld"), num(c.RawJsonldBlocks), jsonld, c.RawJsonldBlocks != c.RenderedJsonldBlocks || len(c.JsonldOnlyRendered) > 0},
		{d.tr("pdf.render.title"), c.RawTitle, c.RenderedTitle, c.RawTitle != c.RenderedTitle},
		{d.tr("pdf.render.description"), c.RawDescription, c.RenderedDescription, c.RawDescription != c.RenderedDescription},
		{d.tr("pdf.render.canonical"), c.RawCanonical, c.RenderedCanonical, c.RawCanonical != c.RenderedCanonical},
		{d.tr("pdf.render.robots"), c.RawRobots, c.RenderedRobots, c.RawRobots != c.RenderedRobots},
	}
	for _, r := range rows {
		d.ensure(d.lineH())
		d.font(fontRegular, 9)
		d.color(ink)
		d.text(marginL, d.y, d.clip(r.name, renderColRaw-2))
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
