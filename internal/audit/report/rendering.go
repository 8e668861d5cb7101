package report

import (
	"github.com/geoscan/geoscan/gen/api"
	browser "github.com/geoscan/geoscan/internal/audit/render"
)

// RenderingInput is what the report says of the pages an audit loaded in
// a browser: the mode, and each page tried, rendered or with the reason
// it was not.
type RenderingInput struct {
	// Mode is off, rendered or unavailable (audit.Rendering).
	Mode      string
	Pages     []RenderedPage
	Unsampled int
}

// RenderedPage is one page rendering was tried on.
type RenderedPage struct {
	URL, Group string
	Rendered   bool
	Reason     string
	// Diff compares the page's HTML with the rendered page; nil when it
	// was not rendered.
	Diff *browser.Diff
}

// AttachRendering records in both editions of doc which pages were
// rendered and, for each, its key facts in the HTML and after scripts ran.
func AttachRendering(doc *Stored, in RenderingInput) {
	for _, r := range []*api.Report{&doc.Marketing, &doc.Engineering} {
		out := &api.RenderCoverage{Mode: api.RenderCoverageMode(in.Mode), Pages: make([]api.RenderedPage, 0, len(in.Pages)), UnsampledPages: in.Unsampled}
		for _, p := range in.Pages {
			rp := api.RenderedPage{URL: p.URL, Rendered: p.Rendered, Reason: p.Reason}
			if p.Group != "" {
				g := p.Group
				rp.Group = &g
			}
			if d := p.Diff; d != nil {
				rp.Summary = d.Summary()
				rp.Comparison = comparison(d)
			}
			out.Pages = append(out.Pages, rp)
		}
		r.Rendering = out
	}
}

// comparison is the contract's side-by-side of a rendered page.
func comparison(d *browser.Diff) *api.RenderComparison {
	return &api.RenderComparison{
		RawWords: d.Words.Raw, RenderedWords: d.Words.Rendered, WordsOnlyRendered: d.Words.OnlyRendered,
		RawHeadings: d.Headings.Raw, RenderedHeadings: d.Headings.Rendered,
		RawInternalLinks: d.InternalLinks.Raw, RenderedInternalLinks: d.InternalLinks.Rendered,
		RawImagesWithAlt: d.ImagesWithAlt.Raw, RenderedImagesWithAlt: d.ImagesWithAlt.Rendered,
		RawNavLinks: d.NavLinks.Raw, RenderedNavLinks: d.NavLinks.Rendered,
		RawJsonldBlocks: d.JSONLD.Raw, RenderedJsonldBlocks: d.JSONLD.Rendered, JsonldOnlyRendered: nonNilStrings(d.TypesOnlyRendered),
		RawTitle: d.Title.Raw, RenderedTitle: d.Title.Rendered,
		RawDescription: d.Description.Raw, RenderedDescription: d.Description.Rendered,
		RawCanonical: d.Canonical.Raw, RenderedCanonical: d.Canonical.Rendered,
		RawRobots: d.Robots.Raw, RenderedRobots: d.Robots.Rendered,
		TextNeedsJavascript: d.TextNeedsJS(), CanonicalChanged: d.CanonicalChanged(), RobotsChanged: d.RobotsChanged(),
	}
}
