package checks

import (
	"fmt"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
)

// What the checks about JavaScript read when the page was rendered in a
// browser (Input.Rendered), and how they say what they judged with.
// Evidence names which side a count is of: raw_* is the HTML the server
// sent, as AI crawlers read it; rendered_* the page after scripts ran.

// The ways a finding about JavaScript was judged, for the evidence key
// judged_with.
const (
	judgedRendering  = "rendering"
	judgedHeuristics = "heuristics"
)

// withoutBrowser ends the summary of a finding about JavaScript judged
// from signs in the HTML because no browser rendered the page.
const withoutBrowser = " Judged from the raw HTML without a browser."

// judgedWith records in the evidence how a finding was judged, and when
// rendering was tried and failed, why.
func judgedWith(in *Input, e map[string]any) {
	if in.Rendered != nil {
		e["judged_with"] = judgedRendering
		e["rendered_url"] = in.Rendered.URL
		return
	}
	e["judged_with"] = judgedHeuristics
	if in.RenderErr != "" {
		e["render_error"] = in.RenderErr
	}
}

// renderInconclusive reports a rendered page that shows almost no text
// although its HTML shows scripts are there to fill it (an empty app
// root, a <noscript> wall, prose in scripts): the app did not run in the
// browser, as when a script fails or the requests it makes are refused,
// so the comparison says nothing of what it shows people, and the
// findings about text judge from those signs instead.
func renderInconclusive(h *page.Page, d *render.Diff) bool {
	return d.Words.Rendered < sparseSSRWords && len(scriptSigns(h, h.Rendering())) > 0
}

// judgedFromSigns records in the evidence a finding judged from signs in
// the HTML: without a browser, or with one whose page was inconclusive.
func judgedFromSigns(in *Input, e map[string]any) {
	judgedWith(in, e)
	if d := in.Rendered; d != nil {
		e["judged_with"] = judgedHeuristics
		e["rendered_words"] = d.Words.Rendered
		e["render_inconclusive"] = true
	}
}

// heuristicsNote ends the summary of a finding judged from signs in the
// HTML, saying why no browser judged it.
func heuristicsNote(in *Input) string {
	if d := in.Rendered; d != nil {
		return fmt.Sprintf(" In a browser the page showed %s of main text, as when its scripts fail or the requests they make are refused, so this was judged from signs in the HTML.",
			plural(d.Words.Rendered, "word", "words"))
	}
	return withoutBrowser
}

// notRendered is the finding of a check that judges from the rendered
// page when the page could not be rendered: not measured, never a fail.
// what is what stays unknown ("what scripts add to its text").
func notRendered(in *Input, what string, e map[string]any) Result {
	e["judged_with"] = "none"
	e["render_error"] = in.RenderErr
	return na(fmt.Sprintf("Not measured: the page could not be rendered in a browser (%s), so %s is unknown; not scored.", excerpt(in.RenderErr, 120), what), e)
}

// renderedCounts adds both sides' counts of the comparison to the
// evidence.
func renderedCounts(e map[string]any, d *render.Diff) {
	e["raw_words"] = d.Words.Raw
	e["rendered_words"] = d.Words.Rendered
	e["words_only_rendered"] = d.Words.OnlyRendered
	e["words_removed"] = d.Words.Removed
	e["raw_share_pct"] = roundTenth(100 * d.Words.RawShare())
	e["raw_headings"] = d.Headings.Raw
	e["rendered_headings"] = d.Headings.Rendered
	e["headings_only_rendered"] = d.Headings.OnlyRendered
	e["raw_internal_links"] = d.InternalLinks.Raw
	e["rendered_internal_links"] = d.InternalLinks.Rendered
	e["raw_nav_links"] = d.NavLinks.Raw
	e["rendered_nav_links"] = d.NavLinks.Rendered
	e["raw_jsonld_blocks"] = d.JSONLD.Raw
	e["rendered_jsonld_blocks"] = d.JSONLD.Rendered
	e["jsonld_only_rendered"] = nonNil(d.TypesOnlyRendered)
	e["rendering_summary"] = d.Summary()
}

// onlyAfterJS lists the key facts of a page that only JavaScript adds or
// changes, for a sentence: "the Product JSON-LD", "the canonical", "the
// navigation".
func onlyAfterJS(d *render.Diff) []string {
	var out []string
	switch {
	case len(d.TypesOnlyRendered) > 0:
		out = append(out, "the "+andList(firstN(d.TypesOnlyRendered, 4))+" JSON-LD")
	case d.JSONLDOnlyRendered():
		out = append(out, "the JSON-LD")
	}
	if d.Canonical.OnlyRendered() {
		out = append(out, "the canonical")
	}
	if d.Robots.OnlyRendered() {
		out = append(out, "the meta robots tag")
	}
	if d.NavOnlyRendered() {
		out = append(out, "the navigation")
	}
	return out
}

// withRendering is a check that judges the HTML, as AI crawlers read it,
// and then, when the page was rendered, lets adjust revise the finding by
// what only JavaScript adds or changes. A finding that does not apply
// (na, info) is left as it is.
func withRendering(judge func(*Input) Result, adjust func(r *Result, d *render.Diff)) func(*Input) Result {
	return func(in *Input) Result {
		r := judge(in)
		if r.Status == NA || r.Status == Info {
			return r
		}
		if r.Evidence == nil {
			r.Evidence = ev()
		}
		judgedWith(in, r.Evidence)
		if in.Rendered != nil {
			adjust(&r, in.Rendered)
		}
		return r
	}
}

// atLeastWarn lowers a pass to warn: the finding holds for the HTML, but
// something the page shows in a browser differs.
func atLeastWarn(r *Result) {
	if r.Status == Pass {
		r.Status = Warn
	}
}
