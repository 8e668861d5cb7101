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
			}, Warn, "There is no JSON-LD on the page, only microdata (1 item),", ev("microdata_items", 1, "types", []string{})},
			{"microdata and RDFa only", func(t *testing.T) *Input { return inputOf(t, microdataHome()+rdfaHome()) }, Warn, "only microdata (3 items) and RDFa (4 items),", nil},
			{"JSON-LD beside microdata names only its own types", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"WebSite","name":"Example"}`)+
					`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Tee</span></div>`))
			}, Pass, "in 1 block, declaring WebSite.", ev("types", []string{"WebSite"}, "microdata_items", 1)},
			{"nothing parsed", noHomeInput, NA, "", nil},
		}},
		{id: "schema_site_entities", cases: []checkCase{
			{"website and organization", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "The homepage declares WebSite and Organization (in JSON-LD).", ev("website_syntax", []string{"JSON-LD"})},
			{
				"in microdata only", func(t *testing.T) *Input { return inputOf(t, microdataHome()) }, Pass,
				"The homepage declares WebSite and Organization (in microdata).", ev("website_syntax", []string{"microdata"}, "identity_syntax", []string{"microdata"}),
			},
			{
				"in RDFa only", func(t *testing.T) *Input { return inputOf(t, rdfaHome()) }, Pass,
				"The homepage declares WebSite and Bakery (in RDFa).", ev("identity_type", "Bakery", "identity_syntax", []string{"RDFa"}),
			},
			{
				"in JSON-LD and again in microdata", func(t *testing.T) *Input { return inputOf(t, yoastWithMicrodata()) }, Pass,
				"The homepage declares WebSite (in JSON-LD) and Organization (in JSON-LD and microdata).", ev("identity_syntax", []string{"JSON-LD", "microdata"}),
			},
			{"the site in RDFa, the organisation in microdata", func(t *testing.T) *Input {
				return inputOf(t, `<!doctype html><html lang="ru"><head><title>Ромашка</title></head><body>
<div vocab="http://schema.org/" typeof="WebSite"><span property="name">Ромашка</span></div>
<div itemscope itemtype="https://schema.org/Organization/"><span itemprop="name">ООО «Ромашка»</span></div></body></html>`)
			}, Pass, "The homepage declares WebSite (in RDFa) and Organization (in microdata).", nil},
			{"an organisation in microdata, no site", func(t *testing.T) *Input {
				return inputOf(t, simplePage("Müller", `<div itemscope itemtype="http://schema.org/LocalBusiness"><span itemprop="name">Müller</span></div>`))
			}, Warn, "The homepage declares LocalBusiness (in microdata) but no WebSite.", nil},
			{"website only", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}`)))
			}, Warn, "no Organization", nil},
			{"local business only", func(t *testing.T) *Input {
				return inputOf(t, withHead(ldBlock(`{"@context":"https://schema.org","@type":"Dentist","name":"Example Dental"}`)))
			}, Warn, "Dentist (in JSON-LD) but no WebSite", ev("identity_type", "Dentist")},
			{"neither", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, Fail, "neither", nil},
			{
				"the organisation beyond the first 1000 microdata items", func(t *testing.T) *Input {
					items := strings.Repeat(`<li itemscope itemtype="https://schema.org/Thing"><span itemprop="name">x</span></li>`, 1000)
					return inputOf(t, simplePage("Catalogue", "<ul>"+items+`</ul><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Late</span></div>`))
				}, Fail, "in JSON-LD, microdata or RDFa, as far as its markup could be read (microdata: items after the first 1000 left unread).",
				ev("markup_unread", []string{"microdata: items after the first 1000"}),
			},
			{"only vocabularies other than schema.org", func(t *testing.T) *Input {
				return inputOf(t, simplePage("Wiki", `<div itemscope itemtype="http://data-vocabulary.org/Organization"><span itemprop="name">Wiki</span></div>
<figure typeof="mw:File/Thumb"><img src="/a.jpg" alt=""></figure><div itemscope><span itemprop="name">Wiki</span></div>`))
			}, Fail, "neither WebSite nor an Organization, LocalBusiness or Person, in JSON-LD, microdata or RDFa.", ev("homepage_types", []string{})},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "schema_page_type_match", never: []Status{Fail}, cases: []checkCase{
			{"an article typed in microdata, its breadcrumbs in RDFa", func(t *testing.T) *Input {
				article := strings.Replace(fixtureArticle(""), "<article>", `<nav vocab="https://schema.org/" typeof="BreadcrumbList"><span property="itemListElement" typeof="ListItem"><a property="item" href="/blog/"><span property="name">Blog</span></a><meta property="position" content="1"></span></nav>`+
					`<article itemscope itemtype="https://schema.org/BlogPosting"><meta itemprop="headline" content="How to close your books in three days">`, 1)
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, article))
			}, Pass, "The markup declares the expected schema type and breadcrumbs on the article or product page.", nil},
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
			{
				"an organisation in JSON-LD and again in microdata is judged once", func(t *testing.T) *Input { return inputOf(t, yoastWithMicrodata()) }, Pass,
				"across 2 schema entities in JSON-LD and microdata (100%)", ev("entities", 2, "syntax", []string{"JSON-LD", "microdata"}),
			},
			{
				"microdata only", func(t *testing.T) *Input { return inputOf(t, microdataHome()) }, Pass,
				"3 of 3 expected properties are present across 2 schema entities in microdata (100%)", ev("entities", 2, "syntax", []string{"microdata"}),
			},
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

// microdataHome is a Japanese homepage whose theme declares the site and
// its organisation in microdata only, as many WordPress and Shopify
// themes and older CMSs do: the page an item, the organisation a property
// of it, its phone number in the footer by itemref.
func microdataHome() string {
	return `<!doctype html><html lang="ja"><head><title>株式会社サンプル – 会計ソフト</title></head>
<body itemscope itemtype="http://schema.org/WebPage">
<header><div itemscope itemtype="https://schema.org/WebSite"><meta itemprop="name" content="サンプル"><link itemprop="url" href="/"></div>
<div itemprop="publisher" itemscope itemtype="http://schema.org/Organization" itemref="tel">
<a itemprop="url" href="/"><img itemprop="logo" src="/logo.png" alt="サンプル ロゴ"></a><span itemprop="name">株式会社サンプル</span></div></header>
<main><h1>会計ソフト</h1><p>小さなチームのための会計ソフトです。</p></main>
<footer><p>電話: <span id="tel" itemprop="telephone">03-1234-5678</span></p></footer></body></html>`
}

// rdfaHome is a German bakery's homepage in RDFa Lite: the vocab on
// <html>, the site pointing at the bakery by its resource.
func rdfaHome() string {
	return `<!doctype html><html lang="de" vocab="https://schema.org/"><head><title>Müller Bäckerei – Brot aus Leipzig</title></head><body>
<div typeof="WebSite" resource="https://example.com/#website"><meta property="name" content="Müller Bäckerei"><link property="url" href="/">
<link property="publisher" href="https://example.com/#bakery"></div>
<header typeof="Bakery" resource="https://example.com/#bakery"><a property="url" href="/"><img property="logo" src="/logo.svg" alt="Müller Bäckerei"></a>
<span property="name">Müller Bäckerei</span>
<p property="address" typeof="PostalAddress"><span property="streetAddress">Hauptstraße 5</span>, <span property="postalCode">04109</span> <span property="addressLocality">Leipzig</span></p></header>
<main><h1>Brot aus Leipzig</h1><p>Seit 1950 backen wir Brot.</p></main></body></html>`
}

// yoastWithMicrodata is the Yoast homepage on a theme that declares the
// same organisation again in microdata.
func yoastWithMicrodata() string {
	return strings.Replace(fixtureYoastHome(), "<main>", `<div itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="Example">`+
		`<link itemprop="url" href="https://example.com"><link itemprop="sameAs" href="https://www.youtube.com/@example"></div><main>`, 1)
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
