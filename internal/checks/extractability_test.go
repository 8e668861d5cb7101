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
			{"thin", func(t *testing.T) *Input {
				return inputOf(t, simplePage("T", "<main><p>"+fixtureProse(150, "w")+"</p></main>"))
			}, Warn, "only 156", ev("words", 156)},
			{"spa shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "almost empty", ev("words", 0)},
			{"no homepage", noHomeInput, NA, "not an HTML document", nil},
		}},
		{id: "js_rendering_dependence", cases: []checkCase{
			{"next.js ssr with hydration markers", func(t *testing.T) *Input { return inputOf(t, nextSSR) }, Pass, "Next.js", ev("frameworks", []string{"Next.js"})},
			{"nuxt state payload is not code", func(t *testing.T) *Input { return inputOf(t, nuxtSSR) }, Pass, "Nuxt", ev("inline_js_bytes", 0)},
			{"heavy inline js", func(t *testing.T) *Input { return inputOf(t, heavyJS) }, Warn, "outweighs", nil},
			{"noscript wall with content", func(t *testing.T) *Input { return inputOf(t, wall) }, Warn, "enable JavaScript", nil},
			{"empty shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "#root", ev("empty_mounts", []string{"#root"}, "external_scripts", 1)},
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
