package render_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
)

const pageURL = "https://shop.example/"

// parse reads an HTML document at pageURL.
func parse(t *testing.T, doc string) *page.Page {
	t.Helper()
	u, _ := url.Parse(pageURL)
	p, err := page.Parse([]byte(doc), u)
	require.NoError(t, err)
	return p
}

// prose is n distinct words that read as text: no run of four repeats.
func prose(n int, tag string) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("%s%d", tag, i)
	}
	return strings.Join(words, " ")
}

func doc(head, body string) string {
	return `<!doctype html><html lang="en"><head>` + head + `</head><body>` + body + `</body></html>`
}

// TestCompare holds the comparison to the shapes real pages take.
func TestCompare(t *testing.T) {
	t.Parallel()
	appHead := `<title>Shop</title>`
	app := doc(appHead, `<div id="root"></div><script src="/app.js"></script>`)
	body := `<nav><a href="/">Home</a><a href="/shoes">Shoes</a><a href="/bags">Bags</a></nav><main><h1>Shoes</h1><h2>Leather</h2><h2>Canvas</h2><h3>Care</h3><p>` + prose(500, "w") +
		`</p><img src="/a.jpg" alt="A brown shoe"><a href="/shoes/brown">Brown</a></main>`
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Shoe"}</script>`
	meta := `<title>Shop</title><meta name="description" content="Shoes and bags."><link rel="canonical" href="https://shop.example/"><meta name="robots" content="index, follow">`
	ssr := doc(meta+ld, body+`<script src="/app.js"></script>`)

	t.Run("a client-rendered app shows everything only after JavaScript", func(t *testing.T) {
		t.Parallel()
		d := render.Compare(parse(t, app), parse(t, ssr))
		require.Equal(t, render.Count{Raw: 0, Rendered: 505, OnlyRendered: 505}, d.Words)
		require.Equal(t, render.Count{Raw: 0, Rendered: 4, OnlyRendered: 4}, d.Headings)
		require.Equal(t, 3, d.NavLinks.Rendered)
		require.True(t, d.TextNeedsJS())
		require.True(t, d.JSONLDOnlyRendered())
		require.True(t, d.NavOnlyRendered())
		require.True(t, d.Canonical.OnlyRendered())
		require.Equal(t, []string{"Product"}, d.TypesOnlyRendered)
		require.Equal(t, "505 of 505 words, 4 of 4 headings, the Product JSON-LD, the meta description, the canonical, the meta robots tag, "+
			"the navigation (3 of 3 links), 4 of 4 internal links and 1 of 1 image with alt text appear only after JavaScript.", d.Summary())
	})

	t.Run("a server-rendered twin carries it all", func(t *testing.T) {
		t.Parallel()
		d := render.Compare(parse(t, ssr), parse(t, ssr))
		require.Equal(t, render.Count{Raw: 505, Rendered: 505}, d.Words)
		require.False(t, d.TextNeedsJS())
		require.False(t, d.JSONLDOnlyRendered())
		require.False(t, d.NavOnlyRendered())
		require.False(t, d.CanonicalChanged())
		require.False(t, d.RobotsChanged())
		require.Equal(t, "The HTML carries what a browser shows of the page: 505 words and 4 headings.", d.Summary())
	})

	t.Run("hydration that holds the text twice adds no words", func(t *testing.T) {
		t.Parallel()
		hydrated := doc(meta+ld, body+`<div id="app-copy">`+body+`</div><script>window.__STATE__={"text":"`+prose(50, "s")+`"}</script><style>.a{color:red}</style>`)
		d := render.Compare(parse(t, ssr), parse(t, hydrated))
		require.Equal(t, 505, d.Words.Raw)
		require.Equal(t, 1010, d.Words.Rendered)
		require.Zero(t, d.Words.OnlyRendered, "the duplicate is the server's text")
		require.False(t, d.TextNeedsJS())
	})

	t.Run("a partial app: words counted by text, not by total", func(t *testing.T) {
		t.Parallel()
		// The HTML has 300 words of boilerplate; the browser replaces
		// them with 300 other words. The totals are equal; the text is
		// not.
		raw := doc(appHead, `<main><p>`+prose(300, "skeleton")+`</p></main>`)
		rendered := doc(appHead, `<main><p>`+prose(300, "content")+`</p></main>`)
		d := render.Compare(parse(t, raw), parse(t, rendered))
		require.Equal(t, render.Count{Raw: 300, Rendered: 300, OnlyRendered: 300, Removed: 300}, d.Words)
		require.True(t, d.TextNeedsJS())
		require.Contains(t, d.Summary(), "300 of 300 words appear only after JavaScript. 300 of 300 words of the HTML are gone after JavaScript.")
	})

	t.Run("whitespace, inline markup and case differ, the text does not", func(t *testing.T) {
		t.Parallel()
		text := prose(250, "w")
		raw := doc(appHead, "<main><p>\n\t"+strings.ReplaceAll(text, " ", "\n   ")+"\n</p></main>")
		words := strings.Fields(text)
		words[10] = "<b>" + strings.ToUpper(words[10]) + "</b>"
		words[20] = "<a href=\"/x\">" + words[20] + "</a>"
		rendered := doc(appHead, `<main><div><p>`+strings.Join(words, " ")+`</p></div></main><style>p{margin:0}</style>`)
		d := render.Compare(parse(t, raw), parse(t, rendered))
		require.Equal(t, render.Count{Raw: 250, Rendered: 250}, d.Words)
	})

	t.Run("a date a script writes is no content", func(t *testing.T) {
		t.Parallel()
		raw := doc(appHead, `<main><p>`+prose(300, "w")+` Updated <span id="d"></span></p></main>`)
		rendered := doc(appHead, `<main><p>`+prose(300, "w")+` Updated <span id="d">yesterday</span></p></main>`)
		d := render.Compare(parse(t, raw), parse(t, rendered))
		require.Equal(t, 1, d.Words.OnlyRendered)
		require.False(t, d.TextNeedsJS())
		require.Equal(t, "The HTML carries what a browser shows of the page: 302 words and no headings.", d.Summary())
	})

	t.Run("JavaScript removes content", func(t *testing.T) {
		t.Parallel()
		raw := doc(appHead, `<main><p>`+prose(400, "w")+`</p></main>`)
		rendered := doc(appHead, `<main><p>`+prose(100, "w")+`</p></main>`)
		d := render.Compare(parse(t, raw), parse(t, rendered))
		require.Equal(t, render.Count{Raw: 400, Rendered: 100, Removed: 300}, d.Words)
		require.False(t, d.TextNeedsJS())
		require.Equal(t, "300 of 400 words of the HTML are gone after JavaScript.", d.Summary())
	})

	t.Run("Chinese text is compared character by character", func(t *testing.T) {
		t.Parallel()
		zh := strings.Repeat("我们的商店出售手工制作的皮鞋和包袋，每一件都由工匠精心缝制。", 12)
		raw := doc(appHead, `<main><p>欢迎</p></main>`)
		rendered := doc(appHead, `<main><p>欢迎</p><p>`+zh+`</p></main>`)
		d := render.Compare(parse(t, raw), parse(t, rendered))
		require.Equal(t, page.CountWords("欢迎 "+zh), d.Words.Rendered)
		require.Equal(t, 2, d.Words.Raw)
		require.Greater(t, d.Words.OnlyRendered, 200)
		require.True(t, d.TextNeedsJS())
	})

	t.Run("hydration changes the canonical", func(t *testing.T) {
		t.Parallel()
		changed := strings.Replace(ssr, `href="https://shop.example/"`, `href="https://shop.example/?ref=app"`, 1)
		d := render.Compare(parse(t, ssr), parse(t, changed))
		require.True(t, d.CanonicalChanged())
		require.Equal(t, "https://shop.example/", d.Canonical.Raw)
		require.Equal(t, "https://shop.example/?ref=app", d.Canonical.Rendered)
		require.Equal(t, "JavaScript changes the canonical from https://shop.example/ to https://shop.example/?ref=app.", d.Summary())
	})

	t.Run("a canonical written another way is the same", func(t *testing.T) {
		t.Parallel()
		other := strings.Replace(ssr, `href="https://shop.example/"`, `href="HTTPS://Shop.Example#top"`, 1)
		d := render.Compare(parse(t, ssr), parse(t, other))
		require.False(t, d.CanonicalChanged(), "%q → %q", d.Canonical.Raw, d.Canonical.Rendered)
	})

	t.Run("JavaScript adds noindex", func(t *testing.T) {
		t.Parallel()
		changed := strings.Replace(ssr, `content="index, follow"`, `content="NoIndex,Follow"`, 1)
		d := render.Compare(parse(t, ssr), parse(t, changed))
		require.True(t, d.RobotsChanged())
		require.False(t, d.NoindexRaw)
		require.True(t, d.NoindexRendered)
		require.Equal(t, "JavaScript adds noindex to the meta robots tag.", d.Summary())

		same := strings.Replace(ssr, `content="index, follow"`, `content="Index,Follow"`, 1)
		d = render.Compare(parse(t, ssr), parse(t, same))
		require.False(t, d.RobotsChanged(), "the same directives written another way")
	})

	t.Run("JavaScript removes noindex", func(t *testing.T) {
		t.Parallel()
		noindex := strings.Replace(ssr, `content="index, follow"`, `content="noindex"`, 1)
		d := render.Compare(parse(t, noindex), parse(t, ssr))
		require.True(t, d.RobotsChanged())
		require.Equal(t, "JavaScript removes the noindex of the meta robots tag.", d.Summary())
	})

	t.Run("a tag manager injects JSON-LD", func(t *testing.T) {
		t.Parallel()
		raw := doc(meta, body)
		d := render.Compare(parse(t, raw), parse(t, ssr))
		require.True(t, d.JSONLDOnlyRendered())
		require.Equal(t, render.Count{Rendered: 1, OnlyRendered: 1}, d.JSONLD)
		require.Equal(t, "The Product JSON-LD appears only after JavaScript.", d.Summary())
	})

	t.Run("JSON-LD on both sides with other types", func(t *testing.T) {
		t.Parallel()
		org := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Shop"}</script>`
		raw := doc(meta+org, body)
		d := render.Compare(parse(t, raw), parse(t, ssr))
		require.True(t, d.JSONLDOnlyRendered())
		require.Equal(t, []string{"Product"}, d.TypesOnlyRendered)
		require.Equal(t, []string{"Organization"}, d.TypesRemoved)
		require.Equal(t, "The Product JSON-LD appears only after JavaScript. JavaScript removes the Organization JSON-LD.", d.Summary())
	})

	t.Run("no page at all", func(t *testing.T) {
		t.Parallel()
		d := render.Compare(nil, nil)
		require.Equal(t, render.Count{}, d.Words)
		require.False(t, d.TextNeedsJS())
	})
}

// TestCompareRendered parses the rendered DOM against its final URL.
func TestCompareRendered(t *testing.T) {
	t.Parallel()
	raw := parse(t, doc(`<title>A</title>`, `<div id="root"></div>`))
	d, err := render.CompareRendered(raw, render.Page{URL: pageURL, FinalURL: pageURL + "home", HTML: []byte(doc(`<title>A</title>`, `<nav><a href="x">X</a></nav>`))})
	require.NoError(t, err)
	require.Equal(t, pageURL+"home", d.URL)
	require.Equal(t, render.Count{Rendered: 1, OnlyRendered: 1}, d.NavLinks, "the nav link resolved against the final URL")

	_, err = render.CompareRendered(raw, render.Page{URL: pageURL, Err: "timed out after 15s"})
	require.ErrorContains(t, err, "timed out after 15s")
}

// TestWordsCountAsThePageCounts holds Words to page.CountWords.
func TestWordsCountAsThePageCounts(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "   ", "Hello, world!", "cafe\u0301 au lait", "東京タワーは高い", "mixed English 和 日本語 text", "한국어 문장입니다",
		"e-mail 3.14 don't", "ภาษาไทย ไม่มีช่องว่าง", "\u0301 lone mark", "tab\tand\nnewline",
	} {
		require.Len(t, render.Words(s), page.CountWords(s), "%q", s)
	}
	require.Equal(t, []string{"hello", "world", "東", "京"}, render.Words("Hello WORLD東京"))
}

// FuzzCompare holds the comparison's counts to their bounds on any two
// documents, and its summary to one or two sentences.
func FuzzCompare(f *testing.F) {
	f.Add(`<div id="root"></div>`, `<main><h1>A</h1><p>one two three four five six</p></main>`)
	f.Add(`<p>東京タワー</p><nav><a href="/a">A</a></nav>`, `<p>東京タワーは高い</p><script type="application/ld+json">{"@type":"Thing"}</script>`)
	f.Add(`<meta name="robots" content="noindex"><link rel="canonical" href="/a">`, `<link rel="canonical" href="/b">`)
	f.Fuzz(func(t *testing.T, raw, rendered string) {
		d := render.Compare(parse(t, raw), parse(t, rendered))
		for _, c := range []render.Count{d.Words, d.Headings, d.InternalLinks, d.ImagesWithAlt, d.NavLinks, d.JSONLD} {
			require.LessOrEqual(t, c.OnlyRendered, c.Rendered)
			require.LessOrEqual(t, c.Removed, c.Raw)
			require.True(t, c.RawShare() >= 0 && c.RawShare() <= 1)
		}
		s := d.Summary()
		require.True(t, strings.HasSuffix(s, "."), s)
	})
}
