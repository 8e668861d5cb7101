package checks

import (
	"sync"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// pageLevel are the checks that judge one page's content (its markup, text
// and structured data, the headers it was served with), so a whole-site
// audit runs them on every page it reads. The others judge the site once:
// robots.txt, sitemaps, llms.txt, TLS, the entity, the answer engines.
var pageLevel = map[string]bool{
	"meta_robots_indexable": true, "snippet_controls": true, "canonical_valid": true, "hreflang_valid": true, "crawlable_anchors": true,

	"ssr_text_content": true, "js_rendering_dependence": true, "text_html_ratio": true, "semantic_main": true, "image_alt_coverage": true,

	"single_h1": true, "heading_hierarchy": true, "answer_first_intro": true, "passage_chunking": true,
	"lists_tables": true, "question_headings": true, "facts_and_citations": true,

	"jsonld_valid": true, "schema_page_type_match": true, "schema_required_props": true, "schema_linked_graph": true, "schema_visible_match": true,

	"title_quality": true, "meta_description": true, "open_graph": true, "html_lang": true, "charset_declared": true,

	"author_attribution": true, "content_dates": true, "content_freshness": true,

	"hidden_prompt_injection": true, "negative_signals": true,
}

// byKind are the page-level checks that judge an article or product page
// against its kind: they read the pages the fetch sampled as articles and
// products (Input.Pages), not the homepage.
var byKind = map[string]bool{"author_attribution": true, "content_dates": true, "schema_page_type_match": true}

// PageLevel reports whether the check judges one page, and so runs on
// every page of a whole-site audit.
func (c *Check) PageLevel() bool { return pageLevel[c.ID] }

// RunPage evaluates the page-level checks on in, whose Home is the page
// judged, in catalog order and as safely as Run. kind is what the page is
// (fetch.Article, fetch.Product, or "" for neither): the checks that
// judge a page against its kind read it as a page of that purpose, and
// are na on a page of neither.
func RunPage(in *Input, kind fetch.Purpose) []Outcome {
	typed := *in
	typed.Site = &fetch.Site{Target: siteOf(in).Target}
	if r := siteOf(in).Home; kind != "" && r != nil && in.Home != nil {
		as := *r
		as.Purpose = kind
		typed.Site.Pages = []*fetch.Response{&as}
		typed.Site.Parsed = map[*fetch.Response]*page.Page{&as: in.Home}
	}
	cs := pageChecks()
	out := make([]Outcome, 0, len(cs))
	for _, c := range cs {
		if byKind[c.ID] {
			out = append(out, Outcome{Check: c, Result: safeEval(c, &typed)})
		} else {
			out = append(out, Outcome{Check: c, Result: safeEval(c, in)})
		}
	}
	return out
}

// pageChecks are the page-level checks in catalog order, taken from the
// catalog once: a whole-site audit runs them on every page.
var pageChecks = sync.OnceValue(func() []*Check {
	var out []*Check
	for _, c := range All() {
		if pageLevel[c.ID] {
			out = append(out, c)
		}
	}
	return out
})
