package microdata_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/microdata"
)

const base = "https://example.com/shop/"

// read parses a document and reads its markup.
func read(t testing.TB, doc string) microdata.Found {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	require.NoError(t, err)
	u, err := url.Parse(base)
	require.NoError(t, err)
	return microdata.Read(root, u)
}

// graph is the schema.org graph of a document's microdata and RDFa.
func graph(t testing.TB, doc string) *jsonld.Graph {
	t.Helper()
	f := read(t, doc)
	g := jsonld.Parse(nil)
	g.AddMarkup(jsonld.Microdata, f.Microdata)
	g.AddMarkup(jsonld.RDFa, f.RDFa)
	g.Cut = f.Cut
	return g
}

func labels(es []*jsonld.Entity) []string {
	out := []string{}
	for _, e := range es {
		l := e.Label()
		if e.Nested {
			l = "  " + l
		}
		out = append(out, l)
	}
	return out
}

// TestMicrodataShapes reads microdata as themes and CMSs write it.
func TestMicrodataShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  string
		want []string // labels in order, nested ones indented
		// props are text values of the first entity of a type: "Type.prop" → value.
		props map[string]string
	}{
		{
			name: "WordPress theme: the page an item, the organisation in the header",
			doc: `<!doctype html><html><head><title>Acme</title></head><body itemscope itemtype="https://schema.org/WebPage">
<header itemscope itemtype="http://schema.org/Organization"><a itemprop="url" href="/"><img itemprop="logo" src="logo.png" alt="Acme"></a>
<span itemprop="name">Acme</span></header>
<div itemscope itemtype="https://schema.org/WebSite"><meta itemprop="name" content="Acme shop"><link itemprop="url" href="https://example.com/"></div>
</body></html>`,
			want:  []string{"WebPage", "Organization Acme", "WebSite Acme shop"},
			props: map[string]string{"Organization.url": "https://example.com/", "Organization.logo": "https://example.com/shop/logo.png", "WebSite.url": "https://example.com/"},
		},
		{
			name: "http and https, a trailing slash, several types in one itemtype",
			doc: `<div itemscope itemtype="https://schema.org/Organization/ https://schema.org/LocalBusiness"><span itemprop="name">Bäckerei Müller</span></div>
<div itemscope itemtype="http://schema.org/WebSite"><span itemprop="name">Bäckerei Müller</span></div>`,
			want: []string{"Organization/LocalBusiness Bäckerei Müller", "WebSite Bäckerei Müller"},
		},
		{
			name: "itemprop on the element of a nested itemscope",
			doc: `<article itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="headline">東京の天気</h1>
<div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">山田 太郎</span></div>
<div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">株式会社サンプル</span>
<div itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><img itemprop="url" src="/l.png"></div></div></article>`,
			want:  []string{"BlogPosting", "  Person 山田 太郎", "  Organization 株式会社サンプル", "  ImageObject"},
			props: map[string]string{"BlogPosting.headline": "東京の天気", "BlogPosting.author": "山田 太郎", "ImageObject.url": "https://example.com/l.png"},
		},
		{
			name: "itemref to elements elsewhere, in tree order whatever the itemref's order",
			doc: `<div itemscope itemtype="https://schema.org/LocalBusiness" itemref="phone addr"><h1 itemprop="name">Кафе «Ромашка»</h1></div>
<main><p>Меню</p></main>
<footer><p id="addr" itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">ул. Ленина, 1</span></p>
<span id="phone" itemprop="telephone">+7 495 123-45-67</span></footer>`,
			want:  []string{"LocalBusiness Кафе «Ромашка»", "  PostalAddress"},
			props: map[string]string{"LocalBusiness.telephone": "+7 495 123-45-67", "PostalAddress.streetAddress": "ул. Ленина, 1"},
		},
		{
			name: "an itemprop item no item claims is read as a top-level item",
			doc:  `<div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span></div>`,
			want: []string{"Organization Acme"},
		},
		{
			name: "itemid names the item",
			doc:  `<div itemscope itemtype="https://schema.org/Organization" itemid="#org"><span itemprop="name">Acme</span></div>`,
			want: []string{"Organization https://example.com/shop/#org"},
		},
		{
			name: "values: content, meta, time, data, meter, object, link, a text of blocks",
			doc: `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Tee<br>shirt<script>var x = 1</script><style>b{}</style></span>
<span itemprop="price" content="19.90">19,90 €</span><meta itemprop="priceCurrency" content="EUR">
<link itemprop="availability" href="https://schema.org/InStock"><time itemprop="releaseDate" datetime="2026-01-02">2. Januar</time>
<time itemprop="validThrough">2026</time><data itemprop="sku" value="T-1">Tee</data><meter itemprop="ratingValue" value="4.5">4,5</meter>
<object itemprop="subjectOf" data="/manual.pdf"></object><a itemprop="url" href="?ref=1#top">Tee</a></div>`,
			want: []string{"Product Tee shirt"},
			props: map[string]string{
				"Product.price": "19.90", "Product.priceCurrency": "EUR", "Product.availability": "https://schema.org/InStock",
				"Product.releaseDate": "2026-01-02", "Product.validThrough": "2026", "Product.sku": "T-1", "Product.ratingValue": "4.5",
				"Product.subjectOf": "https://example.com/manual.pdf", "Product.url": "https://example.com/shop/?ref=1#top",
			},
		},
		{
			name:  "an unclosed itemscope, closed by the parser at the end",
			doc:   `<body><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span><p><b itemprop="telephone">+44 20 7946 0000`,
			want:  []string{"Organization Acme"},
			props: map[string]string{"Organization.telephone": "+44 20 7946 0000"},
		},
		{
			name: "an itemscope across a table, its cells fostered out",
			doc: `<table><tr><td><div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ana Silva</span></td>` +
				`<td itemprop="jobTitle">Engenheira</td></tr></table>`,
			want: []string{"Person Ana Silva"},
		},
		{
			name: "other vocabularies, untyped items and templates are no entities",
			doc: `<div itemscope itemtype="http://data-vocabulary.org/Breadcrumb"><span itemprop="title">Home</span></div>
<div itemscope><span itemprop="name">untyped</span></div>
<template><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Later</span></div></template>`,
			want: []string{},
		},
		{
			name: "an itemref naming the item's own ancestor ends",
			doc: `<section id="s" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span>
<div itemprop="member" itemscope itemtype="https://schema.org/Person" itemref="s"><span itemprop="name">Jo</span></div></section>`,
			want: []string{"Organization Acme", "  Person Jo"},
		},
		{
			name:  "right-to-left names",
			doc:   `<div itemscope itemtype="https://schema.org/Organization" dir="rtl"><span itemprop="name">شركة المثال</span><a itemprop="sameAs" href="https://twitter.com/example_sa">X</a></div>`,
			want:  []string{"Organization شركة المثال"},
			props: map[string]string{"Organization.sameAs": "https://twitter.com/example_sa"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := graph(t, tc.doc)
			require.Equal(t, tc.want, labels(g.Entities))
			for _, e := range g.Entities {
				require.Equal(t, jsonld.Microdata, e.Syntax)
			}
			for key, want := range tc.props {
				typ, prop, _ := strings.Cut(key, ".")
				es := g.OfType(typ)
				require.NotEmpty(t, es, key)
				require.Equal(t, want, es[0].String(prop), key)
			}
			require.Empty(t, g.Cut)
		})
	}
}

// TestMicrodataPropertyOrderAndLists reads repeated properties as a list
// in tree order, and the names of one itemprop each.
func TestMicrodataPropertyOrderAndLists(t *testing.T) {
	t.Parallel()
	g := graph(t, `<p id="tw"><a itemprop="sameAs" href="https://x.com/acme">X</a></p>
<div itemscope itemtype="https://schema.org/Organization" itemref="tw"><a itemprop="sameAs" href="https://www.linkedin.com/company/acme">in</a>
<span itemprop="name alternateName name">Acme</span></div>`)
	o := g.OfType("Organization")[0]
	require.Equal(t, []string{"https://x.com/acme", "https://www.linkedin.com/company/acme"}, o.Strings("sameAs"))
	require.Equal(t, "Acme", o.String("name"))
	require.Equal(t, "Acme", o.String("alternateName"))
	_, isList := o.Props["name"].([]any)
	require.False(t, isList, "a name written twice in one itemprop is one value")
}

// TestRDFaShapes reads RDFa as CMSs write it: RDFa Lite under a vocab,
// prefixed types, RDFa 1.0 namespace declarations.
func TestRDFaShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		doc   string
		want  []string
		props map[string]string
		edges int
	}{
		{
			name: "vocab on <html>",
			doc: `<!doctype html><html vocab="https://schema.org/" lang="de"><head><title>Müller GmbH</title></head><body>
<div typeof="Organization"><a href="/ueber-uns"><span property="name">Müller GmbH</span></a><a property="url" href="/">Start</a>
<img property="logo" src="/logo.svg" alt=""><span property="address" typeof="PostalAddress"><span property="streetAddress">Hauptstraße 5</span></span></div>
<div typeof="WebSite"><meta property="name" content="Müller"></div></body></html>`,
			want:  []string{"Organization Müller GmbH", "  PostalAddress", "WebSite Müller"},
			props: map[string]string{"Organization.url": "https://example.com/", "Organization.logo": "https://example.com/logo.svg", "PostalAddress.streetAddress": "Hauptstraße 5"},
		},
		{
			name: "a vocab without its trailing slash",
			doc:  `<div vocab="http://schema.org" typeof="Organization"><span property="name">Acme</span></div>`,
			want: []string{"Organization Acme"},
		},
		{
			name: "typeof with the initial schema: prefix, and with a declared one",
			doc: `<div typeof="schema:Organization"><span property="schema:name">Acme</span></div>
<div prefix="s: https://schema.org/ og: http://ogp.me/ns#" typeof="s:WebSite"><span property="s:name">Acme</span><span property="og:title">Ignored</span></div>`,
			want: []string{"Organization Acme", "WebSite Acme"},
		},
		{
			name: "RDFa 1.0 namespace declarations",
			doc:  `<html xmlns:sdo="http://schema.org/"><body><div typeof="sdo:Person" about="/team/li"><span property="sdo:name">李 明</span></div></body></html>`,
			want: []string{"Person https://example.com/team/li"},
		},
		{
			name: "resource names a node that others reference",
			doc: `<body vocab="https://schema.org/"><div typeof="Organization" resource="https://example.com/#org"><span property="name">Acme</span></div>
<div typeof="WebSite" resource="https://example.com/#site"><link property="publisher" href="https://example.com/#org"><span property="name">Acme</span></div></body>`,
			want:  []string{"Organization https://example.com/#org", "WebSite https://example.com/#site"},
			edges: 1,
		},
		{
			name: "about sets the subject of the properties inside",
			doc: `<body vocab="https://schema.org/"><div about="#org" typeof="Organization"></div>
<p about="#org"><span property="name">Acme</span> · <span property="telephone">+34 912 345 678</span></p></body>`,
			want:  []string{"Organization https://example.com/shop/#org"},
			props: map[string]string{"Organization.name": "Acme", "Organization.telephone": "+34 912 345 678"},
		},
		{
			name: "rel with prefixed names; bare ones are link types",
			doc: `<div vocab="https://schema.org/" typeof="Organization"><span property="name">Acme</span>
<a rel="schema:sameAs nofollow" href="https://github.com/acme">GitHub</a><a rel="nofollow" href="https://example.net/">ad</a>
<time property="foundingDate" datetime="1999">long ago</time></div>`,
			want:  []string{"Organization Acme"},
			props: map[string]string{"Organization.sameAs": "https://github.com/acme", "Organization.foundingDate": "1999"},
		},
		{
			name: "MediaWiki's own RDFa, Open Graph and bare property names are no schema.org nodes",
			doc: `<html prefix="og: http://ogp.me/ns#"><head><meta property="og:title" content="Lighthouse"><meta property="description" content="x"></head>
<body><figure typeof="mw:File/Thumb"><a href="/f.jpg"><img src="/f.jpg"></a></figure><span typeof="Person" property="name">No vocab</span></body></html>`,
			want: []string{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := graph(t, tc.doc)
			require.Equal(t, tc.want, labels(g.Entities))
			for _, e := range g.Entities {
				require.Equal(t, jsonld.RDFa, e.Syntax)
			}
			for key, want := range tc.props {
				typ, prop, _ := strings.Cut(key, ".")
				es := g.OfType(typ)
				require.NotEmpty(t, es, key)
				require.Equal(t, want, es[0].String(prop), key)
			}
			require.Equal(t, tc.edges, g.Edges())
			require.Empty(t, g.Cut)
		})
	}
}

// TestBothSyntaxesInOneDocument reads microdata and RDFa side by side:
// each node keeps its own syntax.
func TestBothSyntaxesInOneDocument(t *testing.T) {
	t.Parallel()
	f := read(t, `<html vocab="https://schema.org/"><body>
<div typeof="WebSite"><span property="name">Acme</span></div>
<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span></div></body></html>`)
	require.Len(t, f.Microdata, 1)
	require.Len(t, f.RDFa, 1)
	g := graph(t, `<html vocab="https://schema.org/"><body>
<div typeof="WebSite"><span property="name">Acme</span></div>
<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span></div></body></html>`)
	require.Equal(t, jsonld.RDFa, g.DeclaredIn("WebSite"))
	require.Equal(t, jsonld.Microdata, g.DeclaredIn("Organization"))
}

// TestHugeDocumentsAreBounded reads documents built to make the
// algorithms work hard: every limit holds, what was left is named, and
// what was read before it stays.
func TestHugeDocumentsAreBounded(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	many.WriteString(`<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">First</span></div>`)
	for i := range 3000 {
		fmt.Fprintf(&many, `<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">P%d</span></div>`, i)
	}
	// Many items that all itemref one large subtree: each crawl would walk
	// it again.
	var fan strings.Builder
	fan.WriteString(`<div id="big">`)
	for range 20000 {
		fan.WriteString(`<span><i>x</i></span>`)
	}
	fan.WriteString(`</div>`)
	for range 900 {
		fan.WriteString(`<div itemscope itemtype="https://schema.org/Thing" itemref="big"></div>`)
	}
	// Items nested far deeper than any page nests them.
	deep := strings.Repeat(`<div itemprop="subOrganization" itemscope itemtype="https://schema.org/Organization">`, 200)
	// RDFa nodes by the thousand.
	var rdfa strings.Builder
	rdfa.WriteString(`<body vocab="https://schema.org/">`)
	for i := range 3000 {
		fmt.Fprintf(&rdfa, `<div typeof="Person"><span property="name">R%d</span></div>`, i)
	}
	for _, tc := range []struct {
		name, doc, cut string
	}{
		{"thousands of items", many.String(), "microdata: items after the first 1000"},
		{"itemref fan-out", fan.String(), "microdata: elements after the first 400000 visits"},
		{"deep nesting", `<div itemscope itemtype="https://schema.org/Organization">` + deep, "microdata: items nested deeper than 64"},
		{"thousands of RDFa nodes", rdfa.String(), "RDFa: items after the first 1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			f := read(t, tc.doc)
			t.Logf("read in %v", time.Since(start))
			require.Contains(t, f.Cut, tc.cut)
			require.LessOrEqual(t, len(f.Microdata)+len(f.RDFa), 2000)
			g := graph(t, tc.doc)
			require.NotEmpty(t, g.Entities, "what was read before the limit stays")
		})
	}
}

// TestLongTextIsCut keeps at most 4 KiB of one value, cut between
// characters.
func TestLongTextIsCut(t *testing.T) {
	t.Parallel()
	g := graph(t, `<div itemscope itemtype="https://schema.org/Article"><div itemprop="articleBody">`+strings.Repeat("日本語の文章。", 2000)+`</div></div>`)
	body := g.OfType("Article")[0].String("articleBody")
	require.LessOrEqual(t, len(body), 4096)
	require.Greater(t, len(body), 4000)
	require.True(t, strings.HasSuffix(body, "日") || strings.HasSuffix(body, "本") || strings.HasSuffix(body, "語") ||
		strings.HasSuffix(body, "の") || strings.HasSuffix(body, "文") || strings.HasSuffix(body, "章") || strings.HasSuffix(body, "。"))
}

func TestNoDocument(t *testing.T) {
	t.Parallel()
	f := microdata.Read(nil, nil)
	require.Empty(t, f.Microdata)
	require.Empty(t, f.RDFa)
	// Without a base, URLs stay as written.
	root, err := html.Parse(strings.NewReader(`<div itemscope itemtype="https://schema.org/Organization"><a itemprop="url" href="/about">About</a></div>`))
	require.NoError(t, err)
	f = microdata.Read(root, nil)
	require.Len(t, f.Microdata, 1)
	require.Equal(t, jsonld.Prop{Name: "url", Value: "/about"}, f.Microdata[0].Props[0])
}
