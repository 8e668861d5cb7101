package checks

import (
	"fmt"
	"strings"
	"testing"
)

// TestExtractability covers the extractability pillar.
func TestExtractability(t *testing.T) {
	t.Parallel()
	spa := `<!doctype html><html lang="en"><head><title>React App</title></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>`
	nextSSR := `<!doctype html><html lang="en"><head><title>Next</title></head><body><div id="__next"><main><p>` + fixtureProse(400, "n") +
		`</p></main></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}}}</script><script src="/_next/static/chunks/main.js"></script></body></html>`
	nuxtSSR := `<!doctype html><html lang="en"><head><title>Nuxt</title></head><body><div id="__nuxt"><main><p>` + fixtureProse(300, "n") +
		`</p></main></div><script>window.__NUXT__=` + strings.Repeat(`{"a":"state"},`, 10000) + `</script></body></html>`
	heavyJS := simplePage("Heavy", "<main><p>"+fixtureProse(300, "h")+"</p></main><script>var app="+strings.Repeat("x", 100000)+";</script>")
	wall := simplePage("Wall", "<noscript>Please enable JavaScript to use this site.</noscript><main><p>"+fixtureProse(300, "w")+"</p></main>")
	// A complete news story with a comment widget whose <noscript> asks
	// for JavaScript: the notice is the widget's, not the page's.
	disqus := simplePage("Story", "<main><article><h1>Ferry timetable</h1><p>"+fixtureProse(400, "s")+`</p></article></main><div id="disqus_thread"></div>`+
		`<noscript>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments powered by Disqus.</a></noscript><script src="https://example.disqus.com/embed.js"></script>`)
	// Thin pages: an opening-hours page with analytics, and the same with a
	// comment widget; the HTML simply has little text.
	hours := simplePage("Opening hours", `<h1>Opening hours</h1><p>Monday to Friday nine to five, Saturday ten to two.</p><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script><script async src="https://www.googletagmanager.com/gtag/js"></script>`)
	hoursDisqus := strings.Replace(hours, "</body>", `<div id="disqus_thread"></div><noscript>Please enable JavaScript to view the comments powered by Disqus.</noscript></body>`, 1)
	thinHome := simplePage("T", "<main><p>"+fixtureProse(150, "w")+"</p></main>")
	// Text that waits for scripts: an app root beside some copy, and a
	// story shipped in a state blob for a script to render.
	halfApp := simplePage("Half", "<main><p>"+fixtureProse(150, "w")+`</p><div id="app"></div></main><script src="/app.js"></script>`)
	story := fixtureProse(200, "story")
	stateOnly := simplePage("News", `<h1>News</h1><div class="post"></div><script type="application/json" id="state">{"post":{"body":"`+story+`"}}</script><script src="/render.js"></script>`)
	bigState := simplePage("Mixed", "<main><p>"+fixtureProse(120, "m")+`</p></main><script type="application/json" id="state">{"more":"`+fixtureProse(400, "more")+`"}</script>`)
	sparseWall := simplePage("Wall", "<noscript>This site requires JavaScript.</noscript><p>Loading</p>")
	text := fixtureProse(100, "r")
	padded := func(ratio float64) string {
		base := simplePage("Ratio", "<p>"+text+"</p>")
		total := int(float64(len(text)) / ratio)
		return strings.Replace(base, "</head>", "<style>"+strings.Repeat(" ", max(total-len(base)-15, 0))+"</style></head>", 1)
	}
	noLandmark := simplePage("Divs", "<div><h1>Title</h1><p>"+fixtureProse(200, "d")+"</p></div>")
	imgs := func(withAlt, decorative, missing int) string {
		var b strings.Builder
		for i := range withAlt {
			fmt.Fprintf(&b, `<img src="/a%d.png" alt="Photo %d">`, i, i)
		}
		for i := range decorative {
			fmt.Fprintf(&b, `<img src="/d%d.png" alt="">`, i)
		}
		for i := range missing {
			fmt.Fprintf(&b, `<img src="/m%d.png">`, i)
		}
		b.WriteString(`<img src="/pixel.gif" width="1" height="1">`)
		return simplePage("Images", b.String())
	}
	testPillar(t, pillarExtractability, []pillarCheck{
		{id: "ssr_text_content", cases: []checkCase{
			{"server-rendered", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "visible words", nil},
			{"thin", func(t *testing.T) *Input { return inputOf(t, thinHome) }, Warn, "only 156 visible words of main content (300 or more is the target); the page itself has little text, nothing in it waits for JavaScript", ev("words", 156, "cause", "little_text")},
			{"part of the text waits for an app root", func(t *testing.T) *Input { return inputOf(t, halfApp) }, Warn, "it has an empty #app for scripts to fill, so more of its text appears only with JavaScript", ev("cause", "needs_javascript")},
			{"spa shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "no visible words of main content; it has an empty #root for scripts to fill and a <noscript> notice", ev("words", 0, "cause", "needs_javascript")},
			{"story in a state blob", func(t *testing.T) *Input { return inputOf(t, stateOnly) }, Fail, "words of text that sit only in its scripts, so crawlers that run no JavaScript see an almost empty page", ev("cause", "needs_javascript")},
			{"an opening-hours page is thin, not script-built", func(t *testing.T) *Input { return inputOf(t, hours) }, Fail, "nothing in it waits for JavaScript: the page itself has almost no text to read", ev("cause", "little_text", "script_signs", "[]")},
			{"a comment widget's noscript is no cause", func(t *testing.T) *Input { return inputOf(t, hoursDisqus) }, Fail, "nothing in it waits for JavaScript", ev("cause", "little_text")},
			{"no homepage", noHomeInput, NA, "not an HTML document", nil},
		}},
		{id: "js_rendering_dependence", cases: []checkCase{
			{"next.js ssr with hydration markers", func(t *testing.T) *Input { return inputOf(t, nextSSR) }, Pass, "Next.js", ev("frameworks", []string{"Next.js"})},
			{"nuxt state payload is not code", func(t *testing.T) *Input { return inputOf(t, nuxtSSR) }, Pass, "Nuxt", ev("inline_js_bytes", 0)},
			{"heavy inline js on a complete page", func(t *testing.T) *Input { return inputOf(t, heavyJS) }, Pass, "content is in the HTML", nil},
			{"a comment widget's noscript on a complete page", func(t *testing.T) *Input { return inputOf(t, disqus) }, Pass, "the <noscript> notice of Disqus only stands in for that widget", ev("noscript_wall", "", "widget_noscript_notices", []string{"Disqus"})},
			{"a thin page that waits for nothing", func(t *testing.T) *Input { return inputOf(t, hours) }, Pass, "does not wait for JavaScript: its HTML has only", ev("cause", "little_text")},
			{"noscript wall with content", func(t *testing.T) *Input { return inputOf(t, wall) }, Warn, "page-wide <noscript> notice asking to enable JavaScript", nil},
			{"more text in scripts than in the HTML", func(t *testing.T) *Input { return inputOf(t, bigState) }, Warn, "more words of text sit only in its scripts", nil},
			{"empty shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "an empty #root for scripts to fill", ev("empty_mounts", []string{"#root"}, "external_scripts", 1)},
			{"wall around a sparse page", func(t *testing.T) *Input { return inputOf(t, sparseWall) }, Fail, `a <noscript> notice "This site requires JavaScript."`, nil},
			{"story in a state blob", func(t *testing.T) *Input { return inputOf(t, stateOnly) }, Fail, "The homepage's text needs JavaScript", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "text_html_ratio", cases: []checkCase{
			{"mostly text", func(t *testing.T) *Input { return inputOf(t, padded(0.5)) }, Pass, "Visible text is", nil},
			{"seven percent", func(t *testing.T) *Input { return inputOf(t, padded(0.07)) }, Warn, "7.0%", ev("ratio_pct", 7)},
			{"two percent", func(t *testing.T) *Input { return inputOf(t, padded(0.02)) }, Fail, "2.0%", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "semantic_main", never: []Status{Fail}, cases: []checkCase{
			{"main element", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "on the page", nil},
			{"only divs", func(t *testing.T) *Input { return inputOf(t, noLandmark) }, Warn, "0 of 1", nil},
			{"too little text", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Hello there</p>")) }, NA, "enough text", nil},
		}},
		{id: "image_alt_coverage", cases: []checkCase{
			{"alt and decorative", func(t *testing.T) *Input { return inputOf(t, imgs(3, 2, 0)) }, Pass, "5 of 5", ev("decorative", 2, "images", 5)},
			{"some missing", func(t *testing.T) *Input { return inputOf(t, imgs(2, 1, 1)) }, Warn, "3 of 4", ev("missing_sources", []string{"https://example.com/m0.png"})},
			{"mostly missing", func(t *testing.T) *Input { return inputOf(t, imgs(1, 0, 3)) }, Fail, "1 of 4", nil},
			{"no images", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>text</p>")) }, NA, "No images", nil},
		}},
	})
}
