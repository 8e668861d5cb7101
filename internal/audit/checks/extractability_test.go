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
	// A thin German shop page whose scripts carry a consent banner, a
	// translation table and teasers of blog posts: sentences, none of
	// them the page's, so the page is thin, not waiting for JavaScript.
	consentDE := "Wir verwenden Cookies und ähnliche Technologien, um Ihnen das beste Erlebnis auf unserer Website zu bieten, unseren Datenverkehr zu analysieren und Werbung zu personalisieren. Mit einem Klick auf „Alle akzeptieren“ stimmen Sie der Speicherung von Cookies auf Ihrem Gerät zu. Ihre Auswahl können Sie jederzeit in den Cookie-Einstellungen ändern."
	noteDE := "Mit Ihrer Anmeldung erklären Sie sich einverstanden, unseren wöchentlichen Newsletter mit Rezepten, Neuigkeiten aus der Backstube und gelegentlichen Angeboten zu erhalten. Sie können sich jederzeit über den Link am Ende jeder E-Mail abmelden."
	teaserDE := "Der Sauerteig, den wir seit Jahren jeden Morgen füttern, hat seine eigene Geschichte, und in diesem Beitrag erklärt unsere Bäckermeisterin, wie sie ihn über Urlaube, Hitzewellen und vergessene Wochenenden im Kühlschrank am Leben hält."
	scriptNoise := `<!doctype html><html lang="de"><head><title>Laden</title></head><body><h1>Unser Laden</h1><p>Montag bis Freitag von sieben bis achtzehn Uhr geöffnet.</p>
<script>window.cookieconsent.initialise({content:{message:"` + consentDE + `",dismiss:"OK"}});
window.__I18N__ = {"newsletter.note":"` + noteDE + `","newsletter.title":"Newsletter","cart.add":"In den Warenkorb","cart.remove":"Entfernen","cart.empty":"Leer","form.email":"E-Mail","form.required":"Pflichtfeld","footer.about":"Über uns"};</script>
<script type="application/json" id="blog-data">{"posts":[{"title":"Sauerteig","summary":"` + teaserDE + `","url":"/blog/sauerteig/"},{"title":"Roggen","summary":"` + teaserDE + ` Roggen.","url":"/blog/roggen/"}]}</script></body></html>`
	// A Spanish story that only a Nuxt payload carries.
	storyES := "La autoridad portuaria aprobó el lunes el nuevo horario de los transbordadores tras una larga consulta con los isleños y las navieras. A partir de mayo, el primer barco saldrá del continente a las seis de la mañana, una hora antes que ahora, y el último regresará a las once de la noche."
	nuxtCSR := `<!doctype html><html lang="es"><head><title>Noticias</title></head><body><div id="__nuxt"></div><script type="application/json" id="__NUXT_DATA__" data-ssr="false">[["ShallowReactive",1],{"data":2},["ShallowReactive",3],{"post":4},{"title":5,"body":6},"Transbordadores","` + storyES + `"]</script><script type="module" src="/_nuxt/entry.js"></script></body></html>`
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
			{"consent, translations and teasers in scripts are no page text", func(t *testing.T) *Input { return inputOf(t, scriptNoise) }, Fail, "nothing in it waits for JavaScript", ev("cause", "little_text", "script_only_words", 0)},
			{"a story only in a Nuxt payload", func(t *testing.T) *Input { return inputOf(t, nuxtCSR) }, Fail, "an empty #__nuxt for scripts to fill and 53 words of text that sit only in its scripts", ev("cause", "needs_javascript", "script_only_words", 53)},
			{"no homepage", noHomeInput, NA, "not an HTML document", nil},
			{"without a renderer the finding says so", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "Judged from the raw HTML without a browser.", ev("judged_with", "heuristics", "confidence", "high")},
			{
				"rendered: a client-rendered app", func(t *testing.T) *Input { return renderedInput(t, csrApp, ssrTwin) }, Fail,
				"The homepage HTML carries 0 of the 512 words of main content a browser shows (0%); the other 512 appear only after JavaScript",
				ev("judged_with", "rendering", "raw_words", 0, "rendered_words", 512, "raw_headings", 0, "rendered_headings", 4, "confidence", "high", "cause", "needs_javascript"),
			},
			{"rendered: an app whose HTML carries part of the text", func(t *testing.T) *Input {
				return renderedInput(t, strings.Replace(ssrTwin, fixtureProse(500, "shoe"), fixtureProse(500, "shoe")[:1800], 1), strings.Replace(ssrTwin, "</main>", "<p>"+distinctWords(300, "late")+"</p></main>", 1))
			}, Warn, "appear only after JavaScript, so crawlers that run no JavaScript miss them", ev("judged_with", "rendering")},
			{
				"rendered: the server-rendered twin", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass,
				"The homepage HTML carries 512 visible words of main content before any script runs; a browser shows 512 words, 100% of them without JavaScript.",
				ev("judged_with", "rendering", "raw_words", 512, "rendered_words", 512, "words_only_rendered", 0),
			},
			{"rendered: a thin page is thin in a browser too", func(t *testing.T) *Input { return renderedInput(t, hours, hours) }, Fail, "JavaScript adds little", ev("judged_with", "rendering", "rendered_words", 12, "cause", "little_text")},
			{
				"rendered: the app did not run in the browser", func(t *testing.T) *Input { return renderedInput(t, csrApp, csrApp) }, Fail,
				"it has an empty #root for scripts to fill, so crawlers that run no JavaScript see an almost empty page. In a browser the page showed no words of main text, as when its scripts fail or the requests they make are refused, so this was judged from signs in the HTML.",
				ev("judged_with", "heuristics", "render_inconclusive", true, "rendered_words", 0, "cause", "needs_javascript"),
			},
			{
				"rendering failed", func(t *testing.T) *Input { return renderFailed(t, csrApp, "timed out after 15s") }, NA,
				"Not measured: the page could not be rendered in a browser (timed out after 15s), so whether its text waits for JavaScript is unknown; not scored.", ev("render_error", "timed out after 15s"),
			},
			{"rendering failed on a page whose HTML has the words", func(t *testing.T) *Input { return renderFailed(t, ssrTwin, "the renderer crashed") }, Pass, "visible words", ev("judged_with", "heuristics", "render_error", "the renderer crashed")},
		}},
		{id: "js_rendering_dependence", cases: []checkCase{
			{"next.js ssr with hydration markers", func(t *testing.T) *Input { return inputOf(t, nextSSR) }, Pass, "Next.js", ev("frameworks", []string{"Next.js"})},
			{"nuxt state payload is not code", func(t *testing.T) *Input { return inputOf(t, nuxtSSR) }, Pass, "Nuxt", ev("inline_js_bytes", 0)},
			{"heavy inline js on a complete page", func(t *testing.T) *Input { return inputOf(t, heavyJS) }, Pass, "content is in the HTML", nil},
			{"a comment widget's noscript on a complete page", func(t *testing.T) *Input { return inputOf(t, disqus) }, Pass, "the <noscript> notice of Disqus only stands in for that widget", ev("noscript_wall", "", "widget_noscript_notices", []string{"Disqus"})},
			{"a thin page that waits for nothing", func(t *testing.T) *Input { return inputOf(t, hours) }, Pass, "does not wait for JavaScript: its HTML has only", ev("cause", "little_text")},
			{"a thin page whose scripts carry only interface text", func(t *testing.T) *Input { return inputOf(t, scriptNoise) }, Pass, "does not wait for JavaScript: its HTML has only", ev("script_only_words", 0, "script_signs", "[]")},
			{"noscript wall with content", func(t *testing.T) *Input { return inputOf(t, wall) }, Warn, "page-wide <noscript> notice asking to enable JavaScript", nil},
			{"more text in scripts than in the HTML", func(t *testing.T) *Input { return inputOf(t, bigState) }, Warn, "more words of text sit only in its scripts", nil},
			{"empty shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "an empty #root for scripts to fill", ev("empty_mounts", []string{"#root"}, "external_scripts", 1)},
			{"wall around a sparse page", func(t *testing.T) *Input { return inputOf(t, sparseWall) }, Fail, `a <noscript> notice "This site requires JavaScript."`, nil},
			{"story in a state blob", func(t *testing.T) *Input { return inputOf(t, stateOnly) }, Fail, "The homepage's text needs JavaScript", nil},
			{"no homepage", noHomeInput, NA, "", nil},
			{"without a renderer the finding says so", func(t *testing.T) *Input { return inputOf(t, nextSSR) }, Pass, "Judged from the raw HTML without a browser.", ev("judged_with", "heuristics", "confidence", "high")},
			{
				"rendered: a client-rendered app", func(t *testing.T) *Input { return renderedInput(t, csrApp, ssrTwin) }, Fail,
				"The homepage's text needs JavaScript: its HTML carries 0 of the 512 words a browser shows (0%). 512 of 512 words, 4 of 4 headings, the Organization, Product and Offer JSON-LD",
				ev("judged_with", "rendering", "raw_words", 0, "rendered_words", 512, "only_after_javascript", []string{"the Organization, Product and Offer JSON-LD", "the canonical", "the meta robots tag", "the navigation"}),
			},
			{
				"rendered: JSON-LD a tag manager injects", func(t *testing.T) *Input {
					return renderedInput(t, strings.Replace(ssrTwin, productLD, "", 1), ssrTwin)
				}, Warn,
				"The homepage's text is in its HTML (512 of the 512 words a browser shows), but scripts add or change what engines read about it. The Product and Offer JSON-LD appears only after JavaScript.",
				ev("jsonld_only_rendered", []string{"Product", "Offer"}),
			},
			{"rendered: hydration changes the canonical", func(t *testing.T) *Input {
				return renderedInput(t, ssrTwin, strings.Replace(ssrTwin, `href="https://example.com/"`, `href="https://example.com/?v=2"`, 1))
			}, Warn, "JavaScript changes the canonical from https://example.com/ to https://example.com/?v=2.", ev("canonical_changed", true)},
			{
				"rendered: the server-rendered twin", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass,
				"The homepage does not depend on JavaScript: its HTML carries 512 of the 512 words a browser shows", ev("judged_with", "rendering", "raw_headings", 4, "rendered_headings", 4),
			},
			{
				"rendered: the app did not run in the browser", func(t *testing.T) *Input { return renderedInput(t, csrApp, csrApp) }, Fail,
				"The homepage's text needs JavaScript: its HTML has no words, with an empty #root for scripts to fill. In a browser the page showed no words of main text",
				ev("judged_with", "heuristics", "render_inconclusive", true),
			},
			{
				"rendering failed", func(t *testing.T) *Input { return renderFailed(t, csrApp, "the DOM is larger than 20 MB") }, NA,
				"Not measured: the page could not be rendered in a browser (the DOM is larger than 20 MB), so what JavaScript adds to the page is unknown; not scored.", ev("judged_with", "none"),
			},
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
