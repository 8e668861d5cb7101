package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestStructuredData covers the structured_data pillar.
func TestStructuredData(t *testing.T) {
	t.Parallel()
	withHead := func(head string) string {
		return `<!doctype html><html lang="en"><head><title>Example</title>` + head + `</head><body><main><h1>Example</h1><p>Hello.</p></main></body></html>`
	}
	faqHome := withHead(ldBlock(`{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Hello?","acceptedAnswer":{"@type":"Answer","text":"Hi"}}]}`))
	productNoOffer := strings.Replace(fixtureProductGraph, `,"offers":{"@type":"Offer","price":"49.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}`, "", 1)
	wrongAuthor := strings.Replace(fixtureArticleGraph, `"name":"Jane Doe"`, `"name":"Max Mustermann"`, 1)
	wrongProduct := strings.Replace(strings.Replace(fixtureProductGraph, `"price":"49.00"`, `"price":"99.00"`, 1), `"name":"Example Team Plan"`, `"name":"Enterprise Suite"`, 1)
	testPillar(t, pillarStructuredData, []pillarCheck{
		{id: "jsonld_valid", cases: []checkCase{
			{"yoast graph", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "WebSite", ev("blocks", 1, "valid_blocks", 1)},
			{"one broken block", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}`)+ldBlock(`{"@type":"Organization",}`)))
			}, Warn, "1 of 2", nil},
			{
				"what browsers and Google read past", func(t *testing.T) *Input {
					return inputOf(t, withHead(`<script type="application/ld+json; charset=utf-8">`+"\ufeff"+`{"@context":"https://schema.org","@type":"WebSite","name":"Example"};</script>`+
						`<script type="application/ld+json">//<![CDATA[`+"\n"+`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`+"\n"+`//]]></script>`+
						`<script type="application/ld+json"></script>`))
				}, Pass, "JSON-LD parses without errors in 2 blocks, declaring WebSite, Organization; read past as search engines do, though strict validators may not: starts with a byte-order mark, ends with a semicolon, wrapped in CDATA markers, empty.",
				ev("blocks", 3, "valid_blocks", 2, "empty_blocks", 1),
			},
			{"all broken", func(t *testing.T) *Input { return inputOf(t, withHead(ldBlock(`{"@type": "Organization"`))) }, Fail, "No JSON-LD block parses", nil},
			{"only an empty block", func(t *testing.T) *Input { return inputOf(t, withHead(ldBlock("\n  "))) }, Fail, "The only JSON-LD on the page is 1 empty script block", nil},
			{"none", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, Fail, "no JSON-LD, microdata or RDFa on the page", nil},
			{"microdata only", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Example</span></div>`))
			}, Warn, "microdata", ev("microdata_items", 1)},
			{"nothing parsed", noHomeInput, NA, "", nil},
		}},
		{id: "schema_site_entities", cases: []checkCase{
			{"website and organization", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "WebSite and Organization", nil},
			{"website only", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}`)))
			}, Warn, "no Organization", nil},
			{"local business only", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Dentist","name":"Example Dental"}`)))
			}, Warn, "Dentist but no WebSite", ev("identity_type", "Dentist")},
			{"neither", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, Fail, "neither", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "schema_page_type_match", never: []Status{Fail}, cases: []checkCase{
			{"article and product typed", func(t *testing.T) *Input {
				return inputOf(t, faqHome, resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)), resp(fetch.Product, productURL, 200, fixtureProduct(fixtureProductGraph)))
			}, Pass, "on all 2 article and product pages", ev("notes", []string{"FAQPage found on https://example.com/: valid schema.org that describes the content; Google no longer shows rich results for it."})},
			{"product without offer, article without breadcrumb", func(t *testing.T) *Input {
				noCrumb := ldBlock(`{"@context":"https://schema.org","@type":"Article","headline":"How to close your books in three days"}`)
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(noCrumb)), resp(fetch.Product, productURL, 200, fixtureProduct(productNoOffer)))
			}, Warn, "0 of 2 article and product pages declare the expected schema type and breadcrumbs; e.g. https://example.com/blog/close-books/ lacks BreadcrumbList.", nil},
			{"an article that lacks only breadcrumbs", func(t *testing.T) *Input {
				noCrumb := ldBlock(`{"@context":"https://schema.org","@type":"BlogPosting","headline":"How to close your books in three days"}`)
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(noCrumb)))
			}, Warn, "0 of 1 article or product page declares the expected schema type and breadcrumbs; https://example.com/blog/close-books/ lacks BreadcrumbList.", nil},
			{"homepage only, faq noted", func(t *testing.T) *Input { return inputOf(t, faqHome) }, NA, "No article or product page", ev("notes", []string{"FAQPage found on https://example.com/: valid schema.org that describes the content; Google no longer shows rich results for it."})},
		}},
		{id: "schema_required_props", cases: []checkCase{
			{"complete", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)))
			}, Pass, "100%", ev("completeness_pct", 100)},
			{"organization without sameAs and contact", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example","url":"https://example.com/","logo":"https://example.com/l.png"}`)))
			}, Warn, "3 of 5", nil},
			{"bare article", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Article","headline":"Hi"}`)))
			}, Fail, "1 of 6", nil},
			{"no schema", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, NA, "No schema.org entity", nil},
		}},
		{id: "schema_linked_graph", never: []Status{Fail}, cases: []checkCase{
			{"yoast graph", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "one connected graph", nil},
			{"single entity", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`)))
			}, Pass, "", nil},
			{"separate blocks", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`)+ldBlock(`{"@context":"https://schema.org","@type":"WebSite","name":"Example"}`)))
			}, Warn, "1 of 1", nil},
			{"no schema", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, NA, "", nil},
		}},
		{id: "schema_visible_match", cases: []checkCase{
			{"headline, author and price visible", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)), resp(fetch.Product, productURL, 200, fixtureProduct(fixtureProductGraph)))
			}, Pass, "Every value taken from the markup (4)", nil},
			{"author not visible", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(wrongAuthor)))
			}, Warn, "1 of 2", nil},
			{"product name and price differ", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Product, productURL, 200, fixtureProduct(wrongProduct)))
			}, Fail, "2 of 2", nil},
			{"nothing to compare", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, "No headline", nil},
		}},
	})
}

// TestStructuredDataIsStable runs the pillar's checks again and again on
// an article whose JSON-LD nests many typed nodes: the summaries and the
// evidence must not change from run to run.
func TestStructuredDataIsStable(t *testing.T) {
	t.Parallel()
	graph := ldBlock(`{"@context":"https://schema.org","@type":"NewsArticle","headline":"How to close your books in three days",
		"author":[{"@type":"Person","name":"Jane Doe"},{"@type":"Person","name":"Max Roe"}],
		"publisher":{"@type":"NewsMediaOrganization","name":"Example","logo":{"@type":"ImageObject","url":"https://example.com/l.png"}},
		"about":{"@type":"Thing","name":"Bookkeeping"},"mentions":[{"@type":"Organization","name":"Other"},{"@type":"Place","name":"Leeds"}],
		"image":{"@type":"ImageObject","url":"https://example.com/a.png"},"isPartOf":{"@type":"WebPage","@id":"https://example.com/blog/close-books/"}}`)
	first := map[string]string{}
	for run := range 30 {
		// Parsed again every run: the order of nested nodes is the parser's.
		in := inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(graph)))
		for _, c := range structuredDataChecks() {
			r := c.Eval(in)
			got := r.Summary + " " + fmt.Sprint(r.Evidence)
			if run == 0 {
				first[c.ID] = got
				continue
			}
			require.Equal(t, first[c.ID], got, "%s changed on run %d", c.ID, run)
		}
	}
}
