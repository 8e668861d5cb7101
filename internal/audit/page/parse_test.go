package page_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/page"
)

var base, _ = url.Parse("https://www.example.com/blog/post/")

func parse(t *testing.T, html string) *page.Page {
	t.Helper()
	p, err := page.Parse([]byte(html), base)
	require.NoError(t, err)
	return p
}

func TestParseDocumentShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, html string
		title      string
		lang       string
		text       string // visible text of <body>
		main       string // MainText
		words      int
	}{
		{
			name:  "ordinary document",
			html:  `<!doctype html><html lang="en-GB"><head><title> Example  – Home </title></head><body><p>Hello world.</p></body></html>`,
			title: "Example – Home", lang: "en-GB", text: "Hello world.", main: "Hello world.", words: 2,
		},
		{
			name:  "no head, no html, no body",
			html:  `<title>T</title><meta name=description content=d><p>Hello world</p>`,
			title: "T", text: "Hello world", main: "Hello world", words: 2,
		},
		{
			name:  "title outside the head",
			html:  `<html><body><title>Late</title><p>x</p></body></html>`,
			title: "Late", text: "Late x", main: "Late x", words: 2,
		},
		{name: "bare text", html: "just some text", text: "just some text", main: "just some text", words: 3},
		{name: "empty body", html: "", text: "", main: ""},
		{
			name: "boilerplate landmarks stay out of MainText",
			html: "<body>\n<header>Brand</header>\n<nav><a href=\"/\">Home</a></nav>\n<main><p>The answer.</p></main>\n<aside>Ads</aside>\n<footer>© 2026</footer>\n</body>",
			text: "Brand Home The answer. Ads © 2026", main: "The answer.", words: 2,
		},
		{
			name: "invisible elements",
			html: `<body><script>var a="script";</script><style>p{}</style><noscript>Enable JS</noscript><template><p>tpl</p></template><svg><text>svg</text></svg><iframe>frame</iframe><div hidden>secret</div><p>Shown</p></body>`,
			text: "Shown", main: "Shown", words: 1,
		},
		{
			name: "block elements separate words, inline ones do not",
			html: `<table><tr><td>a</td><td>b</td></tr></table><p>x<br>y</p><b>a</b>b<li>one</li><li>two</li>`,
			text: "a b x y ab one two", main: "a b x y ab one two", words: 7,
		},
		{
			name:  "CR and CRLF line endings",
			html:  "<title>A\rB</title>\r\n<p>one\rtwo\r\nthree</p>",
			title: "A B", text: "one two three", main: "one two three", words: 3,
		},
		{
			name:  "NUL bytes",
			html:  "<title>a\x00b</title><p>a\x00b c</p>",
			title: "a\ufffdb", text: "ab c", main: "ab c", words: 2,
		},
		{
			name:  "non-UTF-8 leftovers",
			html:  "<title>Caf\xe9</title><p>hello \xff world</p>",
			title: "Caf\xe9", text: "hello \xff world", main: "hello \xff world", words: 2,
		},
		{
			name: "unclosed and misnested tags",
			html: `<p>one <b>two <i>three</b> four</i><p>five<div>six`,
			text: "one two three four five six", main: "one two three four five six", words: 6,
		},
		{
			name: "deep nesting within the parser's limit",
			html: strings.Repeat("<div>", 400) + "deep words" + strings.Repeat("</div>", 400),
			text: "deep words", main: "deep words", words: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := parse(t, tc.html)
			require.Equal(t, tc.title, p.Title)
			require.Equal(t, tc.lang, p.Lang)
			require.Equal(t, tc.text, p.Text)
			require.Equal(t, tc.main, p.MainText)
			require.Equal(t, tc.words, p.Words)
			require.Equal(t, len(tc.html), p.HTMLBytes)
			require.NotNil(t, p.Graph)
			require.NotContains(t, p.Text, "\x00")
		})
	}
}

// TestParseReadsAbsurdNesting: golang.org/x/net/html stops at 512 open
// elements, where browsers read on. Parse reads such a page flattened: its
// text, links and headings are all there, and the tree it builds stays
// under the parser's limit however deep the input nests.
func TestParseReadsAbsurdNesting(t *testing.T) {
	t.Parallel()
	const million = 1000000
	var distinct strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&distinct, `<div><b class="c%d">w%d</div>`, i, i)
	}
	for _, tc := range []struct {
		name, html string
		title      string
		words      int
		links      int
		headings   int
		contains   []string
	}{
		{
			name: "a body nested a million deep",
			html: `<html><head><title>Deep</title><meta name="description" content="d"></head><body><header><a href="/">Home</a></header>` +
				strings.Repeat("<div>", million) + `<h1>Deep title</h1><p>deep words <a href="/deep">here</a></p>` + strings.Repeat("</div>", million) +
				`<footer><a href="/about">About</a></footer></body></html>`,
			title: "Deep", words: 7, links: 3, headings: 1, contains: []string{"Home Deep title deep words here About"},
		},
		{
			name:  "a million unclosed divs",
			html:  "<p>start</p>" + strings.Repeat("<div class=x>", million) + "<p>end of the page</p>",
			words: 5, contains: []string{"start end of the page"},
		},
		{
			name:  "thousands of unclosed <b><i>",
			html:  "<main><p>intro</p>" + strings.Repeat("<b><i>", 5000) + "never closed</main><p>after</p>",
			words: 4, contains: []string{"intro never closed after"},
		},
		{
			name:  "distinct formatting elements the parser keeps reopening",
			html:  distinct.String(),
			words: 5000, contains: []string{"w0 w1 w2", "w4998 w4999"},
		},
		{
			name:  "nested tables",
			html:  strings.Repeat("<table><tr><td>", 20000) + "cell text" + strings.Repeat("</td></tr></table>", 20000),
			words: 2, contains: []string{"cell text"},
		},
		{
			name:  "scripts deep down stay scripts",
			html:  strings.Repeat("<span>", 3000) + `<script>var hidden = "code";</script><style>p{color:red}</style>visible`,
			words: 1, contains: []string{"visible"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := parse(t, tc.html)
			require.Equal(t, tc.words, page.CountWords(p.Text), p.Text)
			for _, c := range tc.contains {
				require.Contains(t, p.Text, c)
			}
			require.NotContains(t, p.Text, "hidden")
			require.Len(t, p.Links, tc.links)
			require.Len(t, p.Headings, tc.headings)
			require.Equal(t, tc.title, p.Title)
			require.LessOrEqual(t, treeDepth(p.Doc.Nodes[0]), 512)
		})
	}
}

// treeDepth is the deepest nesting of a parsed tree, counted without
// recursion.
func treeDepth(root *html.Node) int {
	deepest := 0
	type item struct {
		n     *html.Node
		depth int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.depth)
		for c := it.n.FirstChild; c != nil; c = c.NextSibling {
			stack = append(stack, item{c, it.depth + 1})
		}
	}
	return deepest
}

func TestParseHugeDocument(t *testing.T) {
	t.Parallel()
	p := parse(t, "<main>"+strings.Repeat("<p>ten words of plain text to make the page large.</p>", 20000)+"</main>")
	require.Equal(t, 200000, p.Words)
	require.Equal(t, 200000, p.MainWords)
	require.Len(t, p.Paragraphs, 20000)
}

func TestParseMeta(t *testing.T) {
	t.Parallel()
	p := parse(t, `<head>
<meta name="Description" content=" First ">
<meta name="description" content="Second">
<meta property="og:title" content="OG">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'">
<meta name="robots" content="noindex"><meta name="robots" content="nofollow">
<meta charset="utf-8"><meta content="orphan">
</head><body><meta name="late" content="in body"></body>`)
	require.Equal(t, []string{"First", "Second"}, p.Meta["description"])
	require.Equal(t, "First", p.MetaContent("DESCRIPTION"))
	require.Equal(t, "OG", p.MetaContent("og:title"))
	require.Equal(t, "default-src 'self'", p.MetaContent("content-security-policy"))
	require.Equal(t, []string{"noindex", "nofollow"}, p.Meta["robots"])
	require.Equal(t, "in body", p.MetaContent("late"))
	require.Empty(t, p.MetaContent("missing"))
	require.Len(t, p.Meta, 5, "meta tags without a name, property or http-equiv are left out")
}

func TestParseLinkElements(t *testing.T) {
	t.Parallel()
	p := parse(t, `<head>
<link rel="canonical" href="/blog/post/">
<link rel="Canonical" href=" https://other.example/x ">
<link rel="alternate" hreflang="de" href="../../de/">
<link rel="alternate" type="Application/RSS+XML" title="Feed" href="/feed.xml">
<link rel="stylesheet" href="/a.css"><link rel="preload stylesheet" href="/b.css"><link rel="stylesheet" media="print" href="/p.css">
</head><body><link rel="stylesheet" href="/late.css"></body>`)
	require.Equal(t, []string{"https://www.example.com/blog/post/", "https://other.example/x"}, p.Canonicals)
	require.Equal(t, []page.Alternate{
		{Href: "https://www.example.com/de/", Hreflang: "de"},
		{Href: "https://www.example.com/feed.xml", Type: "application/rss+xml", Title: "Feed"},
	}, p.Alternates)
	require.Equal(t, 2, p.HeadCSS, "print stylesheets and stylesheets in the body do not block")
}

func TestParseLinks(t *testing.T) {
	t.Parallel()
	p := parse(t, `<body>
<a href="/about">About <b>us</b></a>
<a href="https://example.com/contact#form">Contact</a>
<a href="https://other.example/">Other</a>
<a href="#top">Top</a><a href="JavaScript:void(0)">Menu</a><a href="mailto:a@example.com">Mail</a>
<a href="tel:+1555">Call</a><a href="data:text/plain,x">Data</a><a>No href</a>
<a href="/x" aria-label="Labelled"></a><a href="/y"><img src="/i.png" alt="Image text"></a>
<a href=" relative/page ">Relative</a>
</body>`)
	type link struct {
		raw, href, text string
		internal        bool
	}
	var got []link
	for _, l := range p.Links {
		got = append(got, link{l.RawHref, l.Href, l.Text, l.Internal})
	}
	require.Equal(t, []link{
		{"/about", "https://www.example.com/about", "About us", true},
		{"https://example.com/contact#form", "https://example.com/contact#form", "Contact", true},
		{"https://other.example/", "https://other.example/", "Other", false},
		{"#top", "", "Top", false},
		{"JavaScript:void(0)", "", "Menu", false},
		{"mailto:a@example.com", "", "Mail", false},
		{"tel:+1555", "", "Call", false},
		{"data:text/plain,x", "", "Data", false},
		{"", "", "No href", false},
		{"/x", "https://www.example.com/x", "Labelled", true},
		{"/y", "https://www.example.com/y", "Image text", true},
		{" relative/page ", "https://www.example.com/blog/post/relative/page", "Relative", true},
	}, got)
	require.Equal(t, []string{
		"https://www.example.com/about", "https://example.com/contact", "https://www.example.com/x",
		"https://www.example.com/y", "https://www.example.com/blog/post/relative/page",
	}, p.InternalLinks(), "distinct, fragments removed, other hosts left out")
}

func TestParseWithoutURL(t *testing.T) {
	t.Parallel()
	p, err := page.Parse([]byte(`<link rel=canonical href="/c"><a href="/a">A</a><img src="i.png">`), nil)
	require.NoError(t, err)
	require.Equal(t, []string{"/c"}, p.Canonicals, "nothing to resolve against")
	require.Equal(t, "/a", p.Links[0].Href)
	require.False(t, p.Links[0].Internal)
	require.Empty(t, p.InternalLinks())
	require.Equal(t, "i.png", p.Images[0].Src)
	require.Equal(t, "x", p.Resolve(" x "))
}

func TestResolve(t *testing.T) {
	t.Parallel()
	p := parse(t, "")
	for href, want := range map[string]string{
		"":                       "",
		"/a":                     "https://www.example.com/a",
		"a":                      "https://www.example.com/blog/post/a",
		"../../b?q=1#f":          "https://www.example.com/b?q=1#f",
		"//cdn.example.net/x.js": "https://cdn.example.net/x.js",
		"HTTP://Other.example/":  "http://Other.example/",
		"http://[::1":            "http://[::1",
	} {
		require.Equal(t, want, p.Resolve(href), href)
	}
}

func TestParseElements(t *testing.T) {
	t.Parallel()
	p := parse(t, `<html><head>
<script src="/a.js"></script><script type="module" src="/m.js"></script><script async src="https://cdn.example.net/x.js"></script>
<script>var code = 1;</script><script type="application/json" id="data">{"a":1}</script>
<script type="application/ld+json">{"@type":"Organization","name":"Example"}</script>
<script type=" Application/LD+JSON ">{"@type":"WebSite","name":"Example"}</script>
<script type="application/ld+json; charset=utf-8">{"@type":"Person","name":"Jane"}</script>
</head><body>
<!-- a comment --><h1> Title </h1><h2>Section <span>one</span></h2><h6>Small</h6>
<p>First.</p><p>   </p><p>Second.</p>
<img src="/a.png" alt=" A " width="10" height="20"><img data-src="/lazy.png" loading="LAZY"><img src="/b.png" alt="">
<time datetime="2026-01-02">Jan 2</time><time>no datetime</time>
<script defer src="/late.js"></script>
</body></html>`)
	require.Equal(t, []page.Heading{{Level: 1, Text: "Title"}, {Level: 2, Text: "Section one"}, {Level: 6, Text: "Small"}}, p.Headings)
	require.Equal(t, []string{"Title"}, p.H1s())
	require.Equal(t, []string{"First.", "Second."}, p.Paragraphs)
	require.Equal(t, []page.Image{
		{Src: "https://www.example.com/a.png", Alt: "A", HasAlt: true, Width: "10", Height: "20"},
		{Src: "https://www.example.com/lazy.png", Lazy: true},
		{Src: "https://www.example.com/b.png", HasAlt: true},
	}, p.Images)
	require.Equal(t, []page.Script{
		{Src: "https://www.example.com/a.js", InHead: true},
		{Src: "https://www.example.com/m.js", Type: "module", InHead: true, Defer: true},
		{Src: "https://cdn.example.net/x.js", InHead: true, Async: true},
		{Type: "", InHead: true, InlineBytes: len("var code = 1;")},
		{Type: "application/json", InHead: true, InlineBytes: len(`{"a":1}`), ID: "data"},
		{Src: "https://www.example.com/late.js", Defer: true},
	}, p.Scripts)
	require.Equal(t, len("var code = 1;"), p.InlineJSBytes, "JSON data is not JavaScript")
	require.Len(t, p.JSONLDTexts, 3)
	require.Equal(t, []string{"Organization", "WebSite", "Person"}, p.Graph.Types())
	require.Equal(t, []string{" a comment "}, p.Comments)
	require.Equal(t, []string{"2026-01-02"}, p.TimeValues)
}

func TestParseWordCounts(t *testing.T) {
	t.Parallel()
	p := parse(t, `<body><nav>Menu items here</nav>
<main><p>Five words in the main.</p><article><p>Two more.</p></article></main>
<div data-nosnippet>hidden from snippets</div><p data-nosnippet>and this</p></body>`)
	require.Equal(t, 12, p.Words)
	require.Equal(t, 7, p.MainWords)
	require.Equal(t, 5, p.NoSnippetWords)

	nested := parse(t, `<div data-nosnippet>outer words <p data-nosnippet>inner <span data-nosnippet>innermost</span></p></div><p>shown</p>`)
	require.Equal(t, 4, nested.NoSnippetWords, "nested data-nosnippet elements count once")

	noMain := parse(t, `<p>Just a paragraph.</p>`)
	require.Zero(t, noMain.MainWords)
	roleMain := parse(t, `<div role="main"><p>Role main.</p></div>`)
	require.Equal(t, 2, roleMain.MainWords)
}

func TestCountWords(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int{
		"":                   0,
		"one":                1,
		"  two   words  ":    2,
		"don't stop-now":     4,
		"émigré café naïve":  3,
		"in 2025, 40% grew":  4,
		"... — !!":           0,
		"x\x00y":             2,
		"hello \xff world":   2,
		"line\rbreak\r\nend": 3,
		"Ünïcödé ÄÖÜ ß":      3,
		// Chinese and Japanese have no spaces between words: each
		// character counts; Korean is written with spaces.
		"东京是日本的首都":        8,
		"東京は日本の首都です。":     10,
		"カタカナ":            4,
		"iPhone15を買った":    5,
		"서울은 한국의 수도입니다":   3,
		"Tokyo (東京) 2026": 4,
		// Combining marks belong to their word: decomposed accents (as
		// text pasted from some editors arrives) and Devanagari and Thai
		// vowel signs.
		"cafe\u0301 nai\u0308ve": 2,
		"नमस्ते दुनिया":          2,
		// Thai has no spaces between words and no dictionary here: a run
		// between spaces is one word (docs/SCORING.md).
		"ภาษาไทย ง่ายมาก": 2,
	} {
		require.Equal(t, want, page.CountWords(s), "%q", s)
	}
}
