package report_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// A report whose pages a browser rendered shows each side by side: the
// HTML's facts and the rendered page's, and why a page was not rendered.
func TestRenderPDFRenderingSection(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("https://millbrook-bakery.test/")
	parse := func(doc string) *page.Page {
		p, err := page.Parse([]byte(doc), u)
		require.NoError(t, err)
		return p
	}
	words := strings.Repeat("Fresh sourdough loaves baked every morning in Millbrook since 1998 by our family. ", 30)
	raw := parse(`<html><head><title>Millbrook Bakery</title></head><body><div id="root"></div></body></html>`)
	shown := parse(`<html><head><title>Millbrook Bakery</title><link rel="canonical" href="https://millbrook-bakery.test/"><script type="application/ld+json">{"@context":"https://schema.org","@type":"Bakery","name":"Millbrook Bakery"}</script></head>` +
		`<body><nav><a href="/bread">Bread</a></nav><main><h1>Our bread</h1><p>` + words + `</p></main></body></html>`)
	d := render.Compare(raw, shown)

	site := built(t, testsite.Bakery, "")
	report.AttachRendering(&site.report, report.RenderingInput{Mode: "rendered", Unsampled: 7, Pages: []report.RenderedPage{
		{URL: "https://millbrook-bakery.test/", Rendered: true, Diff: &d},
		{URL: "https://millbrook-bakery.test/bread/rye", Group: "/bread/{slug}", Reason: "timed out after 15s"},
	}})
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		text := pdfText(t, site.pdf(t, aud))
		require.Contains(t, text, "What AI crawlers see and what people see")
		require.Contains(t, text, "GeoScan loaded 2 pages in a browser and compared the two. The other 7 pages of the site were judged from their HTML alone.")
		require.Contains(t, text, "In the HTML (AI crawlers)")
		require.Contains(t, text, "After JavaScript (people)")
		require.Contains(t, text, "Bakery only here")
		require.Contains(t, text, "appear only after JavaScript")
		require.Contains(t, text, "Template /bread/{slug}")
		require.Contains(t, text, "Not rendered: timed out after 15s. What JavaScript adds to this page was not measured.")
		require.Less(t, strings.Index(text, "What AI crawlers see"), strings.Index(text, "Site Triage"), "before the dossier")
	}

	off := built(t, testsite.Bakery, "")
	report.AttachRendering(&off.report, report.RenderingInput{Mode: "off"})
	requireAbsent(t, pdfText(t, off.pdf(t, scoring.Marketing)), "What AI crawlers see")
}
