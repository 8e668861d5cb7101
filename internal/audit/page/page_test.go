package page

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func parse(t *testing.T, pageURL, body string) *Page {
	t.Helper()
	u, err := url.Parse(pageURL)
	require.NoError(t, err)
	p, err := Parse([]byte(body), u)
	require.NoError(t, err)
	return p
}

func words(n int, word string) string {
	return strings.TrimSpace(strings.Repeat(word+" ", n))
}

func TestBaseHrefResolvesLinks(t *testing.T) {
	p := parse(t, "https://www.example.com/news/2026/story.html", `<html><head>
		<base href="https://static.example.net/en/">
		<link rel="canonical" href="story.html">
		</head><body><a href="about/">About</a><a href="/contact">Contact</a><a href="#top">Top</a>
		<img src="img/logo.png"></body></html>`)
	require.Equal(t, "https://static.example.net/en/", p.Base.String())
	require.Equal(t, "https://static.example.net/en/about/", p.Links[0].Href)
	require.False(t, p.Links[0].Internal, "the base moved the link to another host")
	require.Equal(t, "https://static.example.net/contact", p.Links[1].Href)
	require.Equal(t, "https://static.example.net/en/story.html", p.Canonicals[0])
	require.Equal(t, "https://static.example.net/en/img/logo.png", p.Images[0].Src)

	// A relative base resolves against the page; only the first counts.
	p = parse(t, "https://www.example.com/a/b/page", `<html><head><base href="/blog/"><base href="/other/"></head><body><a href="post-1/">Post</a></body></html>`)
	require.Equal(t, "https://www.example.com/blog/post-1/", p.Links[0].Href)
	require.True(t, p.Links[0].Internal)

	// A base that is no http(s) URL is ignored.
	p = parse(t, "https://www.example.com/a/", `<html><head><base href="javascript:void(0)"></head><body><a href="b">B</a></body></html>`)
	require.Equal(t, "https://www.example.com/a/b", p.Links[0].Href)
}

func TestMetaPropertyDescriptionIsNotTheMetaDescription(t *testing.T) {
	p := parse(t, "https://example.com/", `<html><head>
		<meta property="description" content="Property, not name">
		<meta property="og:description" content="For social cards">
		<meta name="twitter:description" content="For X">
		<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
		</head></html>`)
	require.Empty(t, p.MetaContent("description"))
	require.Equal(t, "For social cards", p.MetaContent("og:description"))
	require.Equal(t, "For X", p.MetaContent("twitter:description"))
	require.Equal(t, "text/html; charset=utf-8", p.MetaContent("content-type"))
	require.Equal(t, []string{"Property, not name"}, p.Properties["description"])

	p = parse(t, "https://example.com/", `<html><head><meta name="description" content="The real one"><meta property="description" content="Other"></head></html>`)
	require.Equal(t, "The real one", p.MetaContent("description"))
}

func TestOnlyTopLevelLandmarksAreChrome(t *testing.T) {
	story := words(923, "harvest")
	p := parse(t, "https://example.com/", `<html><body>
		<header><a href="/">Site name</a> <nav><ul><li>Home</li><li>News</li></ul></nav></header>
		<div role="navigation"><ul><li>Menu one</li><li>Menu two</li></ul></div>
		<article>
			<header><h1>The vintage</h1><p>`+story+`</p><ul><li>Grapes</li><li>Weather</li></ul></header>
			<footer>Filed under wine</footer>
		</article>
		<main><aside>Related reading here</aside><nav>Table of contents</nav></main>
		<aside>Advertisement block</aside>
		<footer>Copyright footer text</footer>
		</body></html>`)
	require.Contains(t, p.MainText, story, "an article's own header is content")
	require.Contains(t, p.MainText, "Filed under wine")
	require.Contains(t, p.MainText, "Related reading here", "an aside inside main is content")
	require.Contains(t, p.MainText, "Table of contents")
	for _, chrome := range []string{"Site name", "Menu one", "Advertisement block", "Copyright footer text", "News"} {
		require.NotContains(t, p.MainText, chrome)
		require.Contains(t, p.Text, chrome)
	}
	require.Equal(t, 2+923+2+3+3+3, p.Words)
	lists, _ := p.ContentBlocks()
	require.Equal(t, 1, lists, "the article's list counts; the menus do not")
	secs := p.Sections()
	require.Empty(t, secs)

	// A section scopes its landmarks too.
	p = parse(t, "https://example.com/", `<html><body><section><header><h2>Prices</h2><p>`+words(40, "fee")+`</p></header></section></body></html>`)
	require.Equal(t, 41, p.Words)
}

func TestNoscriptNoticesHaveContext(t *testing.T) {
	p := parse(t, "https://example.com/", `<html><head>
		<noscript><img height="1" width="1" src="https://www.facebook.com/tr?id=1&ev=PageView&noscript=1"></noscript></head>
		<body><main><h1>Story</h1><p>`+words(400, "text")+`</p></main>
		<div id="disqus_thread"></div>
		<noscript>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments powered by Disqus.</a></noscript>
		<section class="c-comments"><noscript>Enable JavaScript to take part.</noscript></section>
		<div class="store-locator"><noscript>You need JavaScript to see this map.</noscript></div>
		</body></html>`)
	ns := p.Noscripts()
	require.Len(t, ns, 4)
	require.Equal(t, NoscriptTracking, ns[0].Scope)
	require.Equal(t, "head", ns[0].Context)
	require.Equal(t, Noscript{Text: "Please enable JavaScript to view the comments powered by Disqus.", Wall: true, Scope: NoscriptWidget, Context: "body", Widget: "Disqus"}, ns[1])
	require.Equal(t, NoscriptWidget, ns[2].Scope, "by the class around it")
	require.Equal(t, "comments", ns[2].Widget)
	require.Equal(t, "section.c-comments", ns[2].Context)
	require.Equal(t, "map", ns[3].Widget)
	require.Empty(t, p.JavaScriptWall(), "widget notices are no wall around the page")

	p = parse(t, "https://example.com/", `<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`)
	require.Equal(t, "You need to enable JavaScript to run this app.", p.JavaScriptWall())
	require.Equal(t, NoscriptPage, p.Noscripts()[0].Scope)
}

func TestRenderingTellsThinFromScriptBuilt(t *testing.T) {
	article := "The harbour authority approved the new ferry timetable on Monday after a long consultation with islanders and operators."
	spa := parse(t, "https://example.com/", `<html><head><title>App</title></head><body><div id="root"></div>
		<script id="__STATE__" type="application/json">{"post":{"title":"Ferry timetable","body":"<p>`+article+`</p>"}}</script>
		<script>import('./main.js').then(m => { const root = ReactDOM.createRoot(document.getElementById('root')); root.render(m.App) })</script>
		</body></html>`)
	r := spa.Rendering()
	require.Equal(t, []Mount{{Selector: "#root", Words: 0, Elements: 0}}, r.Mounts)
	require.Equal(t, []string{"createRoot"}, r.ClientRender)
	require.Equal(t, 18, r.ScriptOnlyWords, "the story is in the scripts, not in the HTML")
	require.Equal(t, article, r.ScriptOnlySample)

	thin := parse(t, "https://example.com/", `<html><head><title>Opening hours</title></head><body><h1>Opening hours</h1><p>Mon–Fri 9–17.</p><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script></body></html>`)
	r = thin.Rendering()
	require.Empty(t, r.Mounts)
	require.Empty(t, r.ClientRender)
	require.Zero(t, r.ScriptWords, "nothing for scripts to render: the HTML simply has little text")

	ssr := parse(t, "https://example.com/", `<html><body><div id="__next"><article><h1>Ferry timetable</h1><p>`+article+`</p></article></div>
		<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"body":"`+article+`"}}}</script>
		<script>ReactDOM.hydrateRoot(document.getElementById('__next'), App)</script></body></html>`)
	r = ssr.Rendering()
	require.Equal(t, 18, r.ScriptWords)
	require.Zero(t, r.ScriptOnlyWords, "a hydration copy of visible text")
	require.Equal(t, []string{"hydrateRoot"}, r.Hydrate)
	require.False(t, r.Mounts[0].Empty())
}

func TestStringLiterals(t *testing.T) {
	var got []string
	stringLiterals(`var a = "x\"y"; // 'comment'
		/* "also a comment" */ b = 'it\'s'; c = `+"`tmpl`"+`; d = "caf\u00e9 \/ bar"; e = "unterminated`, func(s string) { got = append(got, s) })
	require.Equal(t, []string{`x"y`, "it's", "tmpl", "café / bar"}, got)
}

func TestInPageAnchorsAndForeignRDFa(t *testing.T) {
	p := parse(t, "https://wiki.example/wiki/Main_Page", `<html><body>
		<a href="#bodyContent">Jump to content</a><a href="#cite_note-1">[1]</a><a href="#">Menu</a><a href="#missing">x</a>
		<a name="top"></a><a href="#top">Top</a><a href="#TOP">Back to top</a>
		<div id="bodyContent"><figure typeof="mw:File/Thumb"><img src="a.jpg" alt=""></figure>
		<ol><li id="cite_note-1">Source</li></ol>
		<div vocab="https://schema.org/" typeof="Person"><span property="name">Ada</span></div>
		<div prefix="schema: https://schema.org/" typeof="schema:Place"></div>
		<div itemscope itemtype="https://schema.org/Organization"></div></div></body></html>`)
	var inPage []bool
	for _, l := range p.Links {
		inPage = append(inPage, l.InPage)
		require.Empty(t, l.Href)
	}
	require.Equal(t, []bool{true, true, false, false, false, true, true}, inPage, "the named anchor itself is a link without href; #top needs no target")
	microdata, rdfa := p.StructuredMarkup()
	require.Equal(t, 1, microdata)
	require.Equal(t, 2, rdfa, "MediaWiki's mw:File is not schema markup")
}

func TestIntroSkipsTheByline(t *testing.T) {
	answer := "A sourdough starter is a mix of flour and water in which wild yeasts and lactic acid bacteria live together, and fed regularly it stays active for years."
	for _, byline := range []string{
		`<p class="byline">By <a href="/about/" rel="author">Priya Shah</a>, head baker · <time datetime="2026-08-05">5 August 2026</time></p>`,
		`<p>By Priya Shah, head baker, 5 August 2026 in Hebden Bridge</p>`,
		`<p class="entry-meta">Posted on 5 August 2026 by Priya Shah in Baking, Sourdough</p>`,
	} {
		p := parse(t, "https://example.com/journal/starter/", `<html><body><article><h1>How to keep a sourdough starter alive</h1>`+byline+`<p>`+answer+`</p></article></body></html>`)
		require.Equal(t, answer, p.IntroParagraph(), byline)
	}
}
