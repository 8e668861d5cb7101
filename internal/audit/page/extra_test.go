package page_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
)

// words repeats a short sentence until it holds at least n words.
func words(n int) string {
	return strings.TrimSpace(strings.Repeat("one two three four five ", (n+4)/5))
}

// TestReadingsOfNoDocument calls every on-demand reading on a page that
// was never parsed and on a nil page: checks meet both when a fetch failed.
func TestReadingsOfNoDocument(t *testing.T) {
	t.Parallel()
	for name, p := range map[string]*page.Page{"nil page": nil, "no document": {}} {
		require.Empty(t, p.Sections(), name)
		require.Empty(t, p.TextBlocks(), name)
		require.Empty(t, p.IntroParagraph(), name)
		landmark, n := p.Landmark()
		require.Empty(t, landmark, name)
		require.Zero(t, n, name)
		require.Equal(t, page.ImageAltStats{}, p.ImageAlts(), name)
		lists, tables := p.ContentBlocks()
		require.Zero(t, lists+tables, name)
		require.Empty(t, p.Mounts(), name)
		require.Empty(t, p.JavaScriptWall(), name)
		code, state := p.InlineScriptBytes()
		require.Zero(t, code+state, name)
		require.Empty(t, p.Frameworks(), name)
		require.Empty(t, p.HiddenTexts(), name)
		require.Empty(t, p.InsecureSubresources(), name)
		require.Empty(t, p.Byline(), name)
		require.Empty(t, p.ContactMethods(), name)
		micro, rdfa := p.StructuredMarkup()
		require.Zero(t, micro+rdfa, name)
	}
}

func TestSections(t *testing.T) {
	t.Parallel()
	p := parse(t, `<body><nav><h2>Menu</h2>skip me</nav>
<h1>Title</h1><p>Before any section.</p>
<h2>First <em>part</em></h2><p>one two three</p>
<h3>Detail</h3><p>four five</p><script>not words</script>
<h2>Empty</h2>
<h3>Under empty</h3><p>six</p>
<footer><h2>Footer</h2>ignored</footer>
<h4>Not a break</h4><p>seven</p></body>`)
	require.Equal(t, []page.Section{
		{Level: 2, Heading: "First part", Words: 3},
		{Level: 3, Heading: "Detail", Words: 2},
		{Level: 2, Heading: "Empty", Words: 0},
		{Level: 3, Heading: "Under empty", Words: 5},
	}, p.Sections())
	require.Empty(t, parse(t, `<p>No headings at all.</p>`).Sections())
}

func TestTextBlocks(t *testing.T) {
	t.Parallel()
	p := parse(t, `<body><header><nav><a href="/">Home</a></nav></header>
<main><h1>Wines</h1><p>Our <b>Rieslings</b> come from<br>steep slopes.</p>
<ul><li>Riesling <span>12,90 €</span></li><li>Silvaner 9,90 €</li></ul>
<figure><img src="a.jpg" alt=""><figcaption>Photo: LifeDaily.com</figcaption></figure>
<div>loose text<p>inner</p>tail</div><p hidden>secret</p><script>x()</script><p> </p></main>
<footer>© 2026</footer></body>`)
	require.Equal(t, []string{
		"Wines", "Our Rieslings come from", "steep slopes.", "Riesling 12,90 €", "Silvaner 9,90 €",
		"Photo: LifeDaily.com", "loose text", "inner", "tail",
	}, p.TextBlocks())
	require.Empty(t, parse(t, "").TextBlocks())
}

func TestIntroParagraph(t *testing.T) {
	t.Parallel()
	long := "Example is accounting software that helps small teams close their books."
	for _, tc := range []struct{ name, html, want string }{
		{"first long paragraph after the h1", `<p>` + long + ` Before.</p><h1>Title</h1><p>By Jane</p><p>` + long + `</p>`, long},
		{"no h1: from the start of the body", `<p>Short kicker.</p><p>` + long + `</p>`, long},
		{"navigation and footers are skipped", `<h1>T</h1><nav><p>` + long + ` nav</p></nav><footer><p>` + long + ` foot</p></footer><p>` + long + `</p>`, long},
		{"hidden paragraphs are skipped", `<h1>T</h1><div hidden><p>` + long + ` hidden</p></div><p>` + long + `</p>`, long},
		{"nothing long enough", `<h1>T</h1><p>Too short.</p>`, ""},
		{"a logo image as the only h1", `<header><h1><a href="/"><img src="/logo.svg" alt="Acme"></a></h1></header><main><p>` + long + `</p></main>`, long},
		{"an empty h1 before the real one", `<h1> </h1><p>` + long + ` Early.</p><h1>Title</h1><p>` + long + `</p>`, long},
	} {
		require.Equal(t, tc.want, parse(t, tc.html).IntroParagraph(), tc.name)
	}
}

func TestLandmark(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, html, landmark string
		words                int
	}{
		{"main", `<main><p>` + words(10) + `</p></main><p>outside</p>`, "main", 10},
		{"role=main", `<div role="main"><p>` + words(5) + `</p></div>`, "main", 5},
		{"nested main counted once", `<main><main><p>` + words(5) + `</p></main></main>`, "main", 5},
		{"articles add up", `<article><p>` + words(5) + `</p></article><article><p>` + words(5) + `</p></article>`, "article", 10},
		{"article inside main counts for main", `<main><article><p>` + words(5) + `</p></article></main>`, "main", 5},
		{"navigation inside main is part of it", `<main><nav>a b c</nav><p>` + words(5) + `</p></main>`, "main", 8},
		{"no landmark", `<div><p>` + words(5) + `</p></div>`, "", 0},
	} {
		landmark, n := parse(t, tc.html).Landmark()
		require.Equal(t, tc.landmark, landmark, tc.name)
		require.Equal(t, tc.words, n, tc.name)
	}
}

func TestImageAlts(t *testing.T) {
	t.Parallel()
	p := parse(t, `<img src="/a.png" alt="A photo">
<img src="/b.png" alt="">
<img src="/c.png" aria-hidden="TRUE">
<img src="/d.png" role="presentation"><img src="/e.png" role="none">
<img src="/f.png"><img data-src="lazy.png">
<img src="/pixel.gif" width="1" height="1"><img src="/p2.gif" width="0px" height="0">
<img src="/wide.png" width="1" height="100">
<img src="/alt-space.png" alt="  ">`)
	require.Equal(t, page.ImageAltStats{
		Images: 9, WithAlt: 1, Decorative: 5,
		Missing: []string{"https://www.example.com/f.png", "https://www.example.com/blog/post/lazy.png", "https://www.example.com/wide.png"},
	}, p.ImageAlts())
}

func TestContentBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		html          string
		lists, tables int
	}{
		{"list and table in the content", `<main><ul><li>a</li><li>b</li></ul><table><tr><th>h</th></tr><tr><td>d</td></tr></table></main>`, 1, 1},
		{"menus are not content", `<nav><ul><li>a</li><li>b</li></ul></nav><header><ol><li>a</li><li>b</li></ol></header><footer><table><tr><td>a</td></tr><tr><td>b</td></tr></table></footer>`, 0, 0},
		{"one item is no list, one row no table", `<ul><li>a</li></ul><table><tr><td>a</td></tr></table>`, 0, 0},
		{"layout tables", `<table role="presentation"><tr><td>a</td></tr><tr><td>b</td></tr></table>`, 0, 0},
		{"definition lists, also grouped in divs", `<dl><dt>a</dt><dd>1</dd><dt>b</dt><dd>2</dd></dl><dl><div><dt>a</dt><dd>1</dd></div><div><dt>b</dt><dd>2</dd></div></dl>`, 2, 0},
		{"nested lists count each", `<ul><li>a<ol><li>x</li><li>y</li></ol></li><li>b</li></ul>`, 2, 0},
		{"hidden content", `<div hidden><ul><li>a</li><li>b</li></ul></div>`, 0, 0},
	} {
		lists, tables := parse(t, tc.html).ContentBlocks()
		require.Equal(t, tc.lists, lists, tc.name)
		require.Equal(t, tc.tables, tables, tc.name)
	}
}

func TestRenderingSignals(t *testing.T) {
	t.Parallel()
	shell := parse(t, `<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><div id="app"><p>`+words(20)+`</p></div>
<script src="/static/js/main.js"></script></body>`)
	require.Equal(t, []string{"#root"}, shell.Mounts())
	require.Equal(t, "You need to enable JavaScript to run this app.", shell.JavaScriptWall())

	for _, wall := range []string{
		`<noscript><p>This site requires JavaScript.</p></noscript>`,
		`<noscript>JavaScript is disabled in your browser.</noscript>`,
		`<noscript><div>Please <b>turn on</b> JavaScript</div></noscript>`,
	} {
		require.NotEmpty(t, parse(t, wall).JavaScriptWall(), wall)
	}
	require.Empty(t, parse(t, `<noscript><img src="/pixel?noscript=1"></noscript>`).JavaScriptWall(), "a tracking pixel is no wall")

	next := parse(t, `<div id="__next"><main>`+words(30)+`</main></div><script id="__NEXT_DATA__" type="application/json">{}</script><script src="/_next/static/chunks/main.js"></script>`)
	require.Equal(t, []string{"Next.js"}, next.Frameworks())
	require.Empty(t, next.Mounts(), "a filled mount point is server-rendered")
	for html, want := range map[string][]string{
		`<div id="__nuxt"></div><script>window.__NUXT__={}</script>`:   {"Nuxt"},
		`<div id="___gatsby"></div>`:                                   {"Gatsby"},
		`<script>window.__remixContext = {}</script>`:                  {"Remix"},
		`<div data-svelte-h="x"></div>`:                                {"SvelteKit"},
		`<astro-island></astro-island>`:                                {"Astro"},
		`<app-root ng-version="17.0.0"></app-root>`:                    {"Angular"},
		`<div data-server-rendered="true"></div>`:                      {"Vue"},
		`<div data-reactroot=""></div>`:                                {"React"},
		`<script>self.__next_f.push([1,""])</script><div id="__nuxt">`: {"Next.js", "Nuxt"},
		`<p>plain</p>`: nil,
	} {
		require.Equal(t, want, parse(t, html).Frameworks(), html)
	}
}

func TestInlineScriptBytes(t *testing.T) {
	t.Parallel()
	state := `window.__NUXT__={"a":1}`
	code := `console.log("hi")`
	mod := `import x from "/x.js"`
	p := parse(t, `<script>`+state+`</script><script>  `+code+`</script><script type="module">`+mod+`</script>
<script type="application/json">{"big":"data"}</script><script type="application/ld+json">{"@type":"Thing"}</script>
<script type="text/template"><p>tpl</p></script><script src="/ext.js">ignored</script>`)
	gotCode, gotState := p.InlineScriptBytes()
	require.Equal(t, len(code)+2+len(mod), gotCode)
	require.Equal(t, len(state), gotState)
}

func TestHiddenTexts(t *testing.T) {
	t.Parallel()
	p := parse(t, `<body>
<div style="display: none">Display none</div>
<p style="Visibility:Hidden">Visibility hidden</p>
<span style="opacity:0;">Transparent</span>
<span style="opacity:0.5">Half visible</span>
<span style="font-size:0">Zero font</span>
<span style="font-size: 1px !important">One pixel</span>
<span style="font-size:.5pt">Half point</span>
<span style="font-size:1rem">Ordinary size</span>
<span style="font-size:10px">Ten pixels</span>
<div hidden id="h"><p style="display:none">Inner text</p></div>
<section aria-hidden="true" class="promo banner">Aria hidden</section>
<div aria-hidden="false">Shown</div>
<div style="display:none"></div>
</body>`)
	require.Equal(t, []page.HiddenText{
		{Selector: "div", Reason: "style display:none", Text: "Display none"},
		{Selector: "p", Reason: "style visibility:hidden", Text: "Visibility hidden"},
		{Selector: "span", Reason: "style opacity:0", Text: "Transparent"},
		{Selector: "span", Reason: "style font-size:0", Text: "Zero font"},
		{Selector: "span", Reason: "style font-size:1px", Text: "One pixel"},
		{Selector: "span", Reason: "style font-size:.5pt", Text: "Half point"},
		{Selector: "div#h", Reason: "hidden attribute", Text: "Inner text"},
		{Selector: "section.promo", Reason: `aria-hidden="true"`, Text: "Aria hidden"},
	}, p.HiddenTexts())
}

func TestInsecureSubresources(t *testing.T) {
	t.Parallel()
	p := parse(t, `<head><link rel="stylesheet" href="http://cdn.example.net/a.css"><link rel="icon" href="HTTP://cdn.example.net/i.ico">
<link rel="alternate" href="http://example.com/feed"><link rel="modulepreload" href="http://cdn.example.net/m.js"></head><body>
<script src="http://cdn.example.net/a.js"></script><script src="https://cdn.example.net/ok.js"></script>
<img src="http://cdn.example.net/a.png" srcset="http://cdn.example.net/a-2x.png 2x, https://cdn.example.net/ok.png 3x,  http://cdn.example.net/a-4x.png 4x">
<picture><source srcset="http://cdn.example.net/s.webp"></picture>
<iframe src="http://video.example/embed"></iframe><video src="http://cdn.example.net/v.mp4"></video><object data="http://cdn.example.net/o.swf"></object>
<img src="http://cdn.example.net/a.png"><a href="http://other.example/">a link is no subresource</a><img src="/relative.png">
</body>`)
	require.Equal(t, []string{
		"http://cdn.example.net/a.css", "HTTP://cdn.example.net/i.ico", "http://cdn.example.net/m.js", "http://cdn.example.net/a.js",
		"http://cdn.example.net/a.png", "http://cdn.example.net/a-2x.png", "http://cdn.example.net/a-4x.png", "http://cdn.example.net/s.webp",
		"http://video.example/embed", "http://cdn.example.net/v.mp4", "http://cdn.example.net/o.swf",
	}, p.InsecureSubresources())
}

func TestByline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, html, want string }{
		{"rel=author link", `<p>By <a rel="author" href="/jane">Jane Doe</a></p>`, "Jane Doe"},
		{"byline class", `<div class="post-byline">By Jane Doe</div>`, "By Jane Doe"},
		{"itemprop with content only", `<meta itemprop="author" content="Jane Doe"><p>x</p>`, "Jane Doe"},
		{"author meta tag", `<head><meta name="author" content="Max Mustermann"></head><p>x</p>`, "Max Mustermann"},
		{"footer and authority classes are not bylines", `<footer><span class="author">Site Admin</span></footer><div class="authority-badge">Trusted</div>`, ""},
		{"a whole bio box is too long", `<div class="author-box">` + words(30) + ` ` + strings.Repeat("x", 100) + `</div>`, ""},
	} {
		require.Equal(t, tc.want, parse(t, tc.html).Byline(), tc.name)
	}
}

func TestContactMethods(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, html string
		want       []string
	}{
		{"everything", `<a href="mailto:hi@example.com">Mail</a><a href=" TEL:+1555">Call</a><form action="/send"><textarea></textarea></form><address>1 Main St</address>`, []string{"email", "phone", "form", "address"}},
		{"email in the text", `<p>Write to hello@example.co.uk today.</p>`, []string{"email"}},
		{"email form field", `<form><input type="email" name="e"></form>`, []string{"form"}},
		{"search forms are not contact", `<form role="search"><textarea></textarea></form><form action="/search"><input type=email></form><form><input name=q><textarea></textarea></form>`, nil},
		{"a form without a message field", `<form><input type="text" name="coupon"></form>`, nil},
		{"postal address microdata", `<div itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">1 Main St</span></div>`, []string{"address"}},
		{"nothing", `<p>Welcome.</p>`, nil},
	} {
		require.Equal(t, tc.want, parse(t, tc.html).ContactMethods(), tc.name)
	}
}

func TestStructuredMarkup(t *testing.T) {
	t.Parallel()
	p := parse(t, `<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">A</span><div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"></div></div>
<div vocab="https://schema.org/" typeof="Person"><span property="name">B</span><span typeof="Place"></span></div>`)
	micro, rdfa := p.StructuredMarkup()
	require.Equal(t, 2, micro)
	require.Equal(t, 2, rdfa)
}

// The lead is found as a reader finds it: past datelines, bylines in
// other languages, captions, breadcrumbs, share bars and date lines.
func TestIntroIsTheLeadAReaderFinds(t *testing.T) {
	t.Parallel()
	en := "The Bank of England held interest rates at 4 per cent on Thursday, saying inflation was falling more slowly than it had expected in the summer."
	de := "Die Europäische Zentralbank hat den Leitzins am Donnerstag unverändert gelassen, weil die Inflation im Euroraum langsamer sinkt als erwartet."
	es := "El Banco de España ha revisado al alza su previsión de crecimiento para este año, impulsada por el consumo de los hogares y el turismo."
	for _, tc := range []struct{ name, html, want string }{
		{"an agency dateline", `<h1>Rates held</h1><p>LONDON, Nov 5 (Reuters) — ` + en + `</p>`, en},
		{"a German dateline", `<h1>Zinsen</h1><p>FRANKFURT (dpa) - ` + de + `</p>`, de},
		{"a German byline", `<h1>Zinsen</h1><p>Von Anna Berg und Jonas Keller, Korrespondenten in Frankfurt am Main</p><p>` + de + `</p>`, de},
		{"a Spanish byline", `<h1>Previsión</h1><p>Por Ana Ruiz García, corresponsal económica en Madrid, con información de agencias</p><p>` + es + `</p>`, es},
		{"a Russian byline", `<h1>Ставка</h1><p>Автор: Иван Петров, обозреватель отдела экономики и финансов нашего издания</p><p>` + en + `</p>`, en},
		{"a date line", `<h1>Rates held</h1><p>Updated on Thursday, 5 November 2026 at 12:04 GMT · 4 min read</p><p>` + en + `</p>`, en},
		{"a caption", `<h1>Rates held</h1><figure><img src="/a.jpg"><p>The governor of the Bank of England speaking at a press conference in London on Thursday afternoon.</p></figure><p>` + en + `</p>`, en},
		{"a WordPress caption", `<h1>Rates held</h1><div class="wp-caption"><img src="/a.jpg"><p class="wp-caption-text">The governor of the Bank of England speaking at a press conference on Thursday.</p></div><p>` + en + `</p>`, en},
		{"a breadcrumb trail", `<h1>Rates held</h1><p class="breadcrumbs">Home › News › Economy › Central banks › Bank of England holds interest rates steady again</p><p>` + en + `</p>`, en},
		{"a share bar", `<h1>Rates held</h1><div class="share-bar"><p>Share this article on Facebook, on X, on LinkedIn or by email with your friends</p></div><p>` + en + `</p>`, en},
		{"a class that only contains a word", `<h1>Rates held</h1><div class="shared-content"><p>` + en + `</p></div>`, en},
		{
			"a sentence that names a year is no date line", `<h1>Bakery</h1><p>Founded in 2009, Millbrook is a family bakery in Hebden Bridge that bakes sourdough every morning.</p>`,
			"Founded in 2009, Millbrook is a family bakery in Hebden Bridge that bakes sourdough every morning.",
		},
		{
			"an acronym opening a sentence is no dateline", `<h1>NASA</h1><p>NASA - the American space agency - launched its first crewed lunar flight in fifty years this week, carrying four astronauts.</p>`,
			"NASA - the American space agency - launched its first crewed lunar flight in fifty years this week, carrying four astronauts.",
		},
	} {
		require.Equal(t, tc.want, parse(t, tc.html).IntroParagraph(), tc.name)
	}
}
