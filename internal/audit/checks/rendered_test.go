package checks

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
)

// renderedInput is the input of a homepage whose HTML is raw and which a
// browser rendered as rendered.
func renderedInput(t *testing.T, raw, rendered string) *Input {
	t.Helper()
	in := inputOf(t, raw)
	u, _ := url.Parse(testOrigin)
	p, err := page.Parse([]byte(rendered), u)
	require.NoError(t, err)
	d := render.Compare(in.Home, p)
	in.Rendered = &d
	return in
}

// distinctWords is n words, none of them repeated: text that shares no
// phrase with any other.
func distinctWords(n int, tag string) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("%s%d", tag, i)
	}
	return strings.Join(words, " ")
}

// renderFailed is the input of a homepage the browser could not render.
func renderFailed(t *testing.T, raw, reason string) *Input {
	t.Helper()
	in := inputOf(t, raw)
	in.RenderErr = reason
	return in
}

// The shapes of the rendering tests: a client-rendered app and its
// server-rendered twin, with the metadata, structured data and navigation
// of a shop.
var (
	renderedHead = `<title>Example shoes – handmade leather shoes</title><meta name="description" content="Example makes leather shoes by hand in Porto, sold online and in two shops in Lisbon and Porto."><link rel="canonical" href="https://example.com/"><meta name="robots" content="index, follow">`
	productLD    = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Oxford","offers":{"@type":"Offer","price":"180","priceCurrency":"EUR"}}</script>`
	orgLD        = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Example","url":"https://example.com/"}</script>`
	renderedNav  = `<header><nav><a href="/shoes/">Shoes</a><a href="/bags/">Bags</a><a href="/about/">About</a></nav></header>`
	renderedBody = renderedNav + `<main><h1>Handmade shoes</h1><h2>Oxfords</h2><h2>Boots</h2><h3>Care</h3><p>` + fixtureProse(500, "shoe") + `</p></main>`
	csrApp       = `<!doctype html><html lang="en"><head><title>Example shoes – handmade leather shoes</title></head><body><div id="root"></div><script src="/static/js/main.js"></script></body></html>`
	ssrTwin      = `<!doctype html><html lang="en"><head>` + renderedHead + orgLD + productLD + `</head><body>` + renderedBody + `<script src="/static/js/main.js"></script></body></html>`
)

// TestRenderedMetadata covers the checks that revise their finding by the
// rendered page: JSON-LD a tag manager injects, a canonical hydration
// changes, a noindex JavaScript adds, navigation only scripts build; and
// that without a renderer they say they judged the HTML alone.
func TestRenderedMetadata(t *testing.T) {
	t.Parallel()
	noProduct := strings.Replace(ssrTwin, productLD, "", 1)
	cases := []struct {
		name, check string
		in          func(t *testing.T) *Input
		status      Status
		summary     string
		ev          map[string]any
	}{
		{
			"JSON-LD in the HTML", "jsonld_valid", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass, "JSON-LD parses without errors in 2 blocks",
			ev("judged_with", "rendering", "raw_jsonld_blocks", 2, "rendered_jsonld_blocks", 2, "jsonld_only_rendered", []string{}),
		},
		{
			"a tag manager injects the Product JSON-LD", "jsonld_valid", func(t *testing.T) *Input { return renderedInput(t, noProduct, ssrTwin) }, Warn,
			"In a browser, the Product and Offer JSON-LD appears only after JavaScript", ev("jsonld_only_rendered", []string{"Product", "Offer"}, "raw_types", []string{"Organization"}),
		},
		{
			"all JSON-LD injected", "jsonld_valid", func(t *testing.T) *Input { return renderedInput(t, csrApp, ssrTwin) }, Fail,
			"There is no JSON-LD, microdata or RDFa on the page. In a browser, the Organization, Product and Offer JSON-LD appears only after JavaScript", ev("raw_jsonld_blocks", 0, "rendered_jsonld_blocks", 2),
		},
		{"JSON-LD without a renderer", "jsonld_valid", func(t *testing.T) *Input { return inputOf(t, ssrTwin) }, Pass, "JSON-LD parses", ev("judged_with", "heuristics")},

		{
			"the canonical in the HTML", "canonical_valid", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass, "declares itself",
			ev("raw_canonical", "https://example.com/", "rendered_canonical", "https://example.com/", "canonical_changed", false),
		},
		{"hydration changes the canonical", "canonical_valid", func(t *testing.T) *Input {
			return renderedInput(t, ssrTwin, strings.Replace(ssrTwin, `href="https://example.com/"`, `href="https://example.com/home"`, 1))
		}, Fail, "JavaScript changes the homepage's canonical from https://example.com/ to https://example.com/home", ev("canonical_changed", true, "judged_with", "rendering")},
		{
			"the canonical only after JavaScript", "canonical_valid", func(t *testing.T) *Input { return renderedInput(t, csrApp, ssrTwin) }, Warn,
			"declares no canonical URL, so engines choose one among its variants themselves. A canonical (https://example.com/) appears only after JavaScript", nil,
		},
		{"JavaScript removes the canonical", "canonical_valid", func(t *testing.T) *Input {
			return renderedInput(t, ssrTwin, strings.Replace(ssrTwin, `<link rel="canonical" href="https://example.com/">`, "", 1))
		}, Warn, "JavaScript removes the canonical link afterwards", nil},

		{"JavaScript adds noindex", "meta_robots_indexable", func(t *testing.T) *Input {
			return renderedInput(t, ssrTwin, strings.Replace(ssrTwin, `content="index, follow"`, `content="noindex"`, 1))
		}, Fail, `JavaScript sets its meta robots tag to "noindex"; Google, which runs scripts, then drops the page`, ev("robots_changed", true, "rendered_meta_robots", "noindex")},
		{"JavaScript removes noindex", "meta_robots_indexable", func(t *testing.T) *Input {
			return renderedInput(t, strings.Replace(ssrTwin, `content="index, follow"`, `content="noindex"`, 1), ssrTwin)
		}, Fail, "not to index it: meta robots: noindex. JavaScript removes the noindex afterwards, but Google does not render a page whose HTML says noindex", nil},
		{"JavaScript changes other directives", "meta_robots_indexable", func(t *testing.T) *Input {
			return renderedInput(t, ssrTwin, strings.Replace(ssrTwin, `content="index, follow"`, `content="index, nofollow"`, 1))
		}, Warn, `JavaScript changes the meta robots tag from "index, follow" to "index, nofollow"`, nil},
		{"robots unchanged", "meta_robots_indexable", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass, "allows indexing", ev("robots_changed", false)},

		{"navigation only after JavaScript", "crawlable_anchors", func(t *testing.T) *Input {
			return renderedInput(t, strings.Replace(ssrTwin, renderedNav, `<header><nav></nav></header><a href="/contact/">Contact</a>`, 1), ssrTwin)
		}, Warn, "In a browser, the navigation (3 of 3 links) appears only after JavaScript", ev("nav_only_rendered", true, "raw_nav_links", 0, "rendered_nav_links", 3)},
		{"navigation in the HTML", "crawlable_anchors", func(t *testing.T) *Input { return renderedInput(t, ssrTwin, ssrTwin) }, Pass, "crawlable href", ev("nav_only_rendered", false)},

		{"a title only after JavaScript", "title_quality", func(t *testing.T) *Input {
			return renderedInput(t, strings.Replace(csrApp, "<title>Example shoes – handmade leather shoes</title>", "", 1), ssrTwin)
		}, Fail, `The homepage has no <title>. A title ("Example shoes – handmade leather shoes") appears only after JavaScript`, ev("rendered_title", "Example shoes – handmade leather shoes", "raw_title", "")},
		{
			"a description only after JavaScript", "meta_description", func(t *testing.T) *Input { return renderedInput(t, csrApp, ssrTwin) }, Fail,
			"The homepage has no meta description. One appears only after JavaScript", nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.check+"/"+tc.name, func(t *testing.T) {
			t.Parallel()
			r := Lookup(tc.check).Eval(tc.in(t))
			t.Log(r.Summary)
			require.Equal(t, tc.status, r.Status, r.Summary)
			require.Contains(t, r.Summary, tc.summary)
			for k, want := range tc.ev {
				require.Contains(t, r.Evidence, k)
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(r.Evidence[k]), "evidence %s", k)
			}
			requireResult(t, r)
		})
	}
}
