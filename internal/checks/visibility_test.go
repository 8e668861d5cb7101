package checks

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/fetch"
)

// Fixtures shared by the visibility and trust tests.

// fixtureProse returns at least n words of English sentences whose content
// words never repeat (so no term dominates) and that contain no digits.
func fixtureProse(n int, tag string) string {
	var b strings.Builder
	for i, words := 0, 0; words < n; i++ {
		w := fixtureIndex(i)
		fmt.Fprintf(&b, "The %s%s is the answer%s for you and your team%s on this day%s. ", tag, w, w, w, w)
		words += 13
	}
	return strings.TrimSpace(b.String())
}

// fixtureIndex spells i in letters: digits would count as facts.
func fixtureIndex(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i /= 26
		if i == 0 {
			return "q" + s
		}
	}
}

const fixtureYoastGraph = `<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
{"@type":"WebPage","@id":"https://example.com/#webpage","url":"https://example.com/","name":"Example – Accounting software","isPartOf":{"@id":"https://example.com/#website"},"about":{"@id":"https://example.com/#organization"},"dateModified":"2026-10-01T10:00:00+00:00"},
{"@type":"WebSite","@id":"https://example.com/#website","url":"https://example.com/","name":"Example","publisher":{"@id":"https://example.com/#organization"}},
{"@type":"Organization","@id":"https://example.com/#organization","name":"Example","url":"https://example.com/","logo":{"@type":"ImageObject","@id":"https://example.com/#logo","url":"https://example.com/logo.png","contentUrl":"https://example.com/logo.png"},"sameAs":["https://www.linkedin.com/company/example","https://github.com/example","https://x.com/example"],"contactPoint":{"@type":"ContactPoint","email":"hello@example.com","contactType":"customer support"}}
]}</script>`

const fixtureHead = `<meta name="description" content="Example is accounting software that helps small teams close their books faster, with bank sync and reports.">
<meta property="og:title" content="Example"><meta property="og:description" content="Accounting software for small teams.">
<meta property="og:image" content="https://example.com/og.png"><meta property="og:type" content="website">
<meta property="og:site_name" content="Example"><meta name="twitter:card" content="summary_large_image">`

const fixtureIntro = `Example is accounting software that helps small teams close their monthly books in 3 days instead of 10, with bank sync, invoicing and tax reports in one place for 49 dollars a month.`

// fixtureYoastHome is a WordPress/Yoast-style homepage: one @graph with
// WebPage, WebSite and Organization linked by @id, in a script tag with an
// extra class attribute.
func fixtureYoastHome() string {
	return `<!doctype html><html lang="en"><head><title>Example – Accounting software for small teams</title>` + fixtureHead + fixtureYoastGraph + `</head><body>
<header><nav><ul><li><a href="/about/">About</a></li><li><a href="/contact/">Contact</a></li><li><a href="/privacy/">Privacy</a></li><li><a href="/terms/">Terms</a></li></ul><img src="/logo.png" alt="Example logo"></nav></header>
<main>
<h1>Accounting software for small teams</h1>
<p>` + fixtureIntro + `</p>
<h2>What does Example do?</h2>
<p>In 2025 more than 1,200 teams used it. ` + fixtureProse(100, "feature") + `</p>
<ul><li>Bank sync</li><li>Invoices</li></ul>
<h2>Pricing</h2>
<p>` + fixtureProse(100, "price") + `</p>
<table><tr><th>Plan</th><th>Seats</th></tr><tr><td>Team</td><td>Five</td></tr></table>
<h2>Sources</h2>
<p>` + fixtureProse(100, "source") + ` See <a href="https://en.wikipedia.org/wiki/Accounting">accounting</a>.</p>
<img src="/shot.png" alt="Dashboard screenshot"><img src="/divider.png" alt="">
</main>
<footer><p>Write to <a href="mailto:hello@example.com">hello@example.com</a>.</p><p>© 2026 Example. All rights reserved.</p></footer>
</body></html>`
}

const fixtureArticleGraph = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"BlogPosting","@id":"https://example.com/blog/close-books/#article","headline":"How to close your books in three days","author":{"@id":"https://example.com/#/person/jane"},"datePublished":"2026-09-01T08:00:00Z","dateModified":"2026-10-15T08:00:00Z","image":"https://example.com/a.png","publisher":{"@id":"https://example.com/#organization"},"isPartOf":{"@id":"https://example.com/blog/close-books/#webpage"}},
{"@type":"WebPage","@id":"https://example.com/blog/close-books/#webpage","breadcrumb":{"@id":"https://example.com/blog/close-books/#breadcrumb"}},
{"@type":"BreadcrumbList","@id":"https://example.com/blog/close-books/#breadcrumb","itemListElement":[{"@type":"ListItem","position":1,"name":"Blog","item":"https://example.com/blog/"}]},
{"@type":"Person","@id":"https://example.com/#/person/jane","name":"Jane Doe","url":"https://example.com/author/jane/","sameAs":["https://www.linkedin.com/in/janedoe"]}
]}</script>`

// fixtureArticle is a well-attributed blog post; graph replaces its JSON-LD.
func fixtureArticle(graph string) string {
	return `<!doctype html><html lang="en"><head><title>How to close your books in three days | Example</title>
<meta property="article:published_time" content="2026-09-01T08:00:00Z">` + graph + `</head><body>
<main><article>
<h1>How to close your books in three days</h1>
<p class="byline">By <a rel="author" href="/author/jane/">Jane Doe</a></p>
<p>Closing the books is the monthly routine of reconciling every account, so that the ledger matches the bank and the reports for the month are final and correct for 12 months of audits.</p>
<h2>Reconcile the bank</h2><p>` + fixtureProse(80, "bank") + `</p>
<h2>Review invoices</h2><p>` + fixtureProse(80, "invoice") + `</p>
<h2>Why does closing matter?</h2><p>About 60% of teams close late. ` + fixtureProse(60, "close") + ` See <a href="https://www.irs.gov/businesses">the IRS guide</a>.</p>
</article></main></body></html>`
}

const fixtureProductGraph = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"WebPage","@id":"https://example.com/pricing/#webpage","mainEntity":{"@id":"https://example.com/pricing/#product"},"breadcrumb":{"@id":"https://example.com/pricing/#breadcrumb"}},
{"@type":"Product","@id":"https://example.com/pricing/#product","name":"Example Team Plan","image":"https://example.com/p.png","description":"Accounting for teams.","brand":{"@type":"Brand","name":"Example"},"offers":{"@type":"Offer","price":"49.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}},
{"@type":"BreadcrumbList","@id":"https://example.com/pricing/#breadcrumb","itemListElement":[{"@type":"ListItem","position":1,"name":"Pricing","item":"https://example.com/pricing/"}]}
]}</script>`

func fixtureProduct(graph string) string {
	return `<!doctype html><html lang="en"><head><title>Example Team Plan pricing | Example</title>` + graph + `</head><body>
<main><h1>Example Team Plan</h1><p>The Example Team Plan costs $49 per month for up to five people, billed monthly, with every feature included and no setup fee at all.</p>
<h2>Included</h2><p>` + fixtureProse(60, "plan") + `</p></main></body></html>`
}

// simplePage wraps body markup in a minimal English document.
func simplePage(title, body string) string {
	return `<!doctype html><html lang="en"><head><title>` + title + `</title></head><body>` + body + `</body></html>`
}

const (
	articleURL = "https://example.com/blog/close-books/"
	productURL = "https://example.com/pricing/"
)

// noHomeInput is a scan whose homepage could not be parsed and where no
// other page was fetched.
func noHomeInput(t *testing.T) *Input {
	s := site(t, "")
	s.HomePage = nil
	s.Parsed = nil
	s.Home = &fetch.Response{Purpose: fetch.Homepage, URL: testOrigin, FinalURL: testOrigin, Status: 500}
	in := input(s)
	in.Home = nil
	return in
}

func inputOf(t *testing.T, home string, extra ...*fetch.Response) *Input {
	return input(site(t, home, extra...))
}

// checkCase is one expected verdict of one check.
type checkCase struct {
	name    string
	in      func(t *testing.T) *Input
	status  Status
	summary string         // substring of the summary
	ev      map[string]any // evidence values, compared by their printed form
}

func runCheckCases(t *testing.T, list []*Check, id string, cases []checkCase) {
	t.Helper()
	var c *Check
	for _, x := range list {
		if x.ID == id {
			c = x
		}
	}
	require.NotNil(t, c, "check %s", id)
	for _, tc := range cases {
		t.Run(id+"/"+tc.name, func(t *testing.T) {
			r := c.Eval(tc.in(t))
			require.Equal(t, tc.status, r.Status, "summary: %s\nevidence: %v", r.Summary, r.Evidence)
			require.NotEmpty(t, r.Summary)
			if tc.summary != "" {
				require.Contains(t, r.Summary, tc.summary)
			}
			for k, want := range tc.ev {
				require.Contains(t, r.Evidence, k)
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(r.Evidence[k]), "evidence %s", k)
			}
			requireEvidenceShape(t, r.Evidence)
		})
	}
}

// requireEvidenceShape holds evidence to what reports can render: strings,
// finite numbers, bools, string lists and lists of rows, serialisable.
func requireEvidenceShape(t *testing.T, evidence map[string]any) {
	t.Helper()
	for k, v := range evidence {
		switch x := v.(type) {
		case string, bool, int, int64, []string, []map[string]any:
		case float64:
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "evidence %s is not finite", k)
		default:
			require.Failf(t, "evidence type", "evidence %s has type %T", k, v)
		}
	}
	_, err := json.Marshal(evidence)
	require.NoError(t, err)
}

func TestVisibilityCatalog(t *testing.T) {
	want := []string{
		"ssr_text_content", "js_rendering_dependence", "text_html_ratio", "semantic_main", "image_alt_coverage",
		"single_h1", "heading_hierarchy", "answer_first_intro", "passage_chunking", "lists_tables", "question_headings", "facts_and_citations",
		"jsonld_valid", "schema_site_entities", "schema_page_type_match", "schema_required_props", "schema_linked_graph", "schema_visible_match",
		"title_quality", "meta_description", "open_graph", "html_lang", "llms_txt_valid", "markdown_alternates",
	}
	var got []string
	for _, c := range visibilityRing() {
		got = append(got, c.ID)
		requireCheckComplete(t, c, RingVisibility)
	}
	require.Equal(t, want, got)
}

func requireCheckComplete(t *testing.T, c *Check, ring string) {
	t.Helper()
	require.Equal(t, ring, c.Ring, c.ID)
	require.NotEmpty(t, c.Pillar, c.ID)
	require.Positive(t, c.Weight, c.ID)
	require.Contains(t, []Level{Low, Medium, High}, c.Effort, c.ID)
	require.NotNil(t, c.Eval, c.ID)
	for _, txt := range []Text{c.Marketing, c.Engineering} {
		require.NotEmpty(t, txt.Title, c.ID)
		require.NotEmpty(t, txt.Why, c.ID)
		require.NotEmpty(t, txt.Fix, c.ID)
	}
	require.NotEqual(t, c.Marketing.Why, c.Engineering.Why, c.ID)
	require.NotEqual(t, c.Marketing.Fix, c.Engineering.Fix, c.ID)
}

// TestChecksSurviveMissingData runs every visibility and trust check on
// degenerate scans without the panic guard: none may panic, and every
// result must serialise.
func TestChecksSurviveMissingData(t *testing.T) {
	scans := map[string]func(t *testing.T) *Input{
		"no homepage": noHomeInput,
		"nil site": func(t *testing.T) *Input {
			return &Input{Now: testNow}
		},
		"empty html": func(t *testing.T) *Input { return inputOf(t, "") },
		"failed pages": func(t *testing.T) *Input {
			failed := resp(fetch.Article, articleURL, 0, "")
			failed.Err = fmt.Errorf("connection reset")
			return inputOf(t, "<html><body><p>hi</p></body></html>", failed, resp(fetch.About, "https://example.com/about/", 404, "nope"),
				resp(fetch.LLMsTxt, "https://example.com/llms.txt", 404, ""), resp(fetch.LLMsLink, "https://example.com/x.md", 0, ""))
		},
		"full": func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)),
				resp(fetch.Product, productURL, 200, fixtureProduct(fixtureProductGraph)))
		},
	}
	for name, mk := range scans {
		for _, c := range slicesConcat(visibilityRing(), trustRing()) {
			r := c.Eval(mk(t))
			require.NotEmpty(t, r.Summary, "%s/%s", name, c.ID)
			require.Contains(t, []Status{Pass, Warn, Fail, NA, Info}, r.Status, "%s/%s", name, c.ID)
			requireEvidenceShape(t, r.Evidence)
		}
	}
}

func slicesConcat(a, b []*Check) []*Check { return append(append([]*Check{}, a...), b...) }

func TestVisibilityYoastGraph(t *testing.T) {
	in := inputOf(t, fixtureYoastHome())
	for _, id := range []string{"jsonld_valid", "schema_site_entities", "schema_linked_graph"} {
		var c *Check
		for _, x := range visibilityRing() {
			if x.ID == id {
				c = x
			}
		}
		r := c.Eval(in)
		require.Equal(t, Pass, r.Status, "%s: %s", id, r.Summary)
	}
}

func TestExtractabilityChecks(t *testing.T) {
	list := visibilityRing()
	spa := `<!doctype html><html lang="en"><head><title>React App</title></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>`
	runCheckCases(t, list, "ssr_text_content", []checkCase{
		{"server-rendered", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "visible words", nil},
		{"thin", func(t *testing.T) *Input {
			return inputOf(t, simplePage("T", "<main><p>"+fixtureProse(150, "w")+"</p></main>"))
		}, Warn, "only 156", ev("words", 156)},
		{"spa shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "almost empty", ev("words", 0)},
		{"no homepage", noHomeInput, NA, "not an HTML document", nil},
	})
	nextSSR := `<!doctype html><html lang="en"><head><title>Next</title></head><body><div id="__next"><main><p>` + fixtureProse(400, "n") +
		`</p></main></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}}}</script><script src="/_next/static/chunks/main.js"></script></body></html>`
	nuxtSSR := `<!doctype html><html lang="en"><head><title>Nuxt</title></head><body><div id="__nuxt"><main><p>` + fixtureProse(300, "n") +
		`</p></main></div><script>window.__NUXT__=` + strings.Repeat(`{"a":"state"},`, 10000) + `</script></body></html>`
	heavyJS := simplePage("Heavy", "<main><p>"+fixtureProse(300, "h")+"</p></main><script>var app="+strings.Repeat("x", 100000)+";</script>")
	wall := simplePage("Wall", "<noscript>Please enable JavaScript to use this site.</noscript><main><p>"+fixtureProse(300, "w")+"</p></main>")
	runCheckCases(t, list, "js_rendering_dependence", []checkCase{
		{"next.js ssr with hydration markers", func(t *testing.T) *Input { return inputOf(t, nextSSR) }, Pass, "Next.js", ev("frameworks", []string{"Next.js"})},
		{"nuxt state payload is not code", func(t *testing.T) *Input { return inputOf(t, nuxtSSR) }, Pass, "Nuxt", ev("inline_js_bytes", 0)},
		{"heavy inline js", func(t *testing.T) *Input { return inputOf(t, heavyJS) }, Warn, "outweighs", nil},
		{"noscript wall with content", func(t *testing.T) *Input { return inputOf(t, wall) }, Warn, "enable JavaScript", nil},
		{"empty shell", func(t *testing.T) *Input { return inputOf(t, spa) }, Fail, "#root", ev("empty_mounts", []string{"#root"}, "external_scripts", 1)},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	text := fixtureProse(100, "r")
	padded := func(ratio float64) string {
		base := simplePage("Ratio", "<p>"+text+"</p>")
		total := int(float64(len(text)) / ratio)
		return strings.Replace(base, "</head>", "<style>"+strings.Repeat(" ", max(total-len(base)-15, 0))+"</style></head>", 1)
	}
	runCheckCases(t, list, "text_html_ratio", []checkCase{
		{"mostly text", func(t *testing.T) *Input { return inputOf(t, padded(0.5)) }, Pass, "Visible text is", nil},
		{"seven percent", func(t *testing.T) *Input { return inputOf(t, padded(0.07)) }, Warn, "7.0%", ev("ratio_pct", 7)},
		{"two percent", func(t *testing.T) *Input { return inputOf(t, padded(0.02)) }, Fail, "2.0%", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	noLandmark := simplePage("Divs", "<div><h1>Title</h1><p>"+fixtureProse(200, "d")+"</p></div>")
	runCheckCases(t, list, "semantic_main", []checkCase{
		{"main element", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "on the page", nil},
		{"only divs", func(t *testing.T) *Input { return inputOf(t, noLandmark) }, Warn, "0 of 1", nil},
		{"too little text", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Hello there</p>")) }, NA, "enough text", nil},
	})
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
	runCheckCases(t, list, "image_alt_coverage", []checkCase{
		{"alt and decorative", func(t *testing.T) *Input { return inputOf(t, imgs(3, 2, 0)) }, Pass, "5 of 5", ev("decorative", 2, "images", 5)},
		{"some missing", func(t *testing.T) *Input { return inputOf(t, imgs(2, 1, 1)) }, Warn, "3 of 4", ev("missing_sources", []string{"https://example.com/m0.png"})},
		{"mostly missing", func(t *testing.T) *Input { return inputOf(t, imgs(1, 0, 3)) }, Fail, "1 of 4", nil},
		{"no images", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>text</p>")) }, NA, "No images", nil},
	})
}

func TestAnswerStructureChecks(t *testing.T) {
	list := visibilityRing()
	withArticle := func(t *testing.T) *Input {
		return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)))
	}
	runCheckCases(t, list, "single_h1", []checkCase{
		{"one each", withArticle, Pass, "on all 2 pages", nil},
		{"two h1", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<h1>Logo</h1><h1>Welcome</h1><p>"+fixtureProse(30, "h")+"</p>"))
		}, Warn, "0 of 1", nil},
		{"empty app shell is not judged twice", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", `<div id="root"></div><script src="/app.js"></script>`))
		}, NA, "readable text", nil},
		{"no pages", noHomeInput, NA, "", nil},
	})
	runCheckCases(t, list, "heading_hierarchy", []checkCase{
		{"clean outline", withArticle, Pass, "nest without skipped levels", nil},
		{"skipped level", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<h1>Top</h1><h3>Deep</h3><h2>Back</h2><p>"+fixtureProse(30, "h")+"</p>"))
		}, Warn, "1 of 1", nil},
		{"article with one h2", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, simplePage("a", "<h1>A</h1><h2>Only</h2><p>"+fixtureProse(30, "h")+"</p>")))
		}, Warn, "1 of 2", nil},
		{"no pages", noHomeInput, NA, "", nil},
	})
	runCheckCases(t, list, "answer_first_intro", []checkCase{
		{"definition first", withArticle, Pass, "opens the page", nil},
		{"long story first", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<h1>Story</h1><p>"+fixtureProse(120, "s")+"</p>"))
		}, Warn, "0 of 1", nil},
		{"no pages", noHomeInput, NA, "", nil},
	})
	mixed := simplePage("x", "<h1>Mixed</h1><h2>A</h2><p>"+fixtureProse(80, "a")+"</p><h2>B</h2><p>"+fixtureProse(80, "b")+
		"</p><h2>C</h2><p>Too short.</p><h2>D</h2><p>"+fixtureProse(400, "d")+"</p>")
	runCheckCases(t, list, "passage_chunking", []checkCase{
		{"sections in range", withArticle, Pass, "3 of 3", nil},
		{"half in range", func(t *testing.T) *Input { return inputOf(t, mixed) }, Warn, "2 of 4", ev("share_pct", 50)},
		{"wall of text", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<h1>Wall</h1><p>"+fixtureProse(400, "w")+"</p>"))
		}, Fail, "0 of 1", nil},
		{"short page", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Short page.</p>")) }, NA, "too little text", nil},
	})
	runCheckCases(t, list, "lists_tables", []checkCase{
		{"list and table", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "1 list and 1 table", ev("lists", 1, "tables", 1)},
		{"only a nav menu", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<nav><ul><li>A</li><li>B</li></ul></nav><p>"+fixtureProse(30, "l")+"</p>"))
		}, Warn, "main content of the page holds no list", nil},
		{"no pages", noHomeInput, NA, "", nil},
	})
	runCheckCases(t, list, "question_headings", []checkCase{
		{"question heading", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, `"What does Example do?"`, ev("count", 1)},
		{"statements only", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<h1>Top</h1><h2>How we work</h2><h2>Pricing</h2><p>"+fixtureProse(30, "q")+"</p>"))
		}, Info, "None of the 2 subheadings", nil},
		{"no pages", noHomeInput, NA, "", nil},
	})
	runCheckCases(t, list, "facts_and_citations", []checkCase{
		{"numbers and sources", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "1 link", ev("source_links", []string{"https://en.wikipedia.org/wiki/Accounting"})},
		{"numbers without sources", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", "<main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. "+fixtureProse(150, "n")+"</p></main>"))
		}, Warn, "0 links", nil},
		{"neither", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", `<main><p>`+fixtureProse(200, "v")+` <a href="https://twitter.com/example">us</a></p></main>`))
		}, Fail, "0.0 numbers", ev("outbound_links", 1)},
		{"too short", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Hi 5</p>")) }, NA, "too little", nil},
	})
}

func TestStructuredDataChecks(t *testing.T) {
	list := visibilityRing()
	block := func(js string) string { return `<script type="application/ld+json">` + js + `</script>` }
	withHead := func(head string) string {
		return `<!doctype html><html lang="en"><head><title>Example</title>` + head + `</head><body><main><h1>Example</h1><p>Hello.</p></main></body></html>`
	}
	runCheckCases(t, list, "jsonld_valid", []checkCase{
		{"yoast graph", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "WebSite", ev("blocks", 1, "valid_blocks", 1)},
		{"one broken block", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}`)+block(`{"@type":"Organization",}`)))
		}, Warn, "1 of 2", nil},
		{"all broken", func(t *testing.T) *Input { return inputOf(t, withHead(block(`{"@type": "Organization"`))) }, Fail, "No JSON-LD block parses", nil},
		{"none", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, Fail, "no JSON-LD, microdata or RDFa on the page", nil},
		{"microdata only", func(t *testing.T) *Input {
			return inputOf(t, simplePage("x", `<div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Example</span></div>`))
		}, Warn, "microdata", ev("microdata_items", 1)},
		{"nothing parsed", noHomeInput, NA, "", nil},
	})
	runCheckCases(t, list, "schema_site_entities", []checkCase{
		{"website and organization", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "WebSite and Organization", nil},
		{"website only", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}`)))
		}, Warn, "no Organization", nil},
		{"local business only", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"Dentist","name":"Example Dental"}`)))
		}, Warn, "Dentist but no WebSite", ev("identity_type", "Dentist")},
		{"neither", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, Fail, "neither", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	faqHome := withHead(block(`{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Hello?","acceptedAnswer":{"@type":"Answer","text":"Hi"}}]}`))
	productNoOffer := strings.Replace(fixtureProductGraph, `,"offers":{"@type":"Offer","price":"49.00","priceCurrency":"USD","availability":"https://schema.org/InStock"}`, "", 1)
	runCheckCases(t, list, "schema_page_type_match", []checkCase{
		{"article and product typed", func(t *testing.T) *Input {
			return inputOf(t, faqHome, resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)), resp(fetch.Product, productURL, 200, fixtureProduct(fixtureProductGraph)))
		}, Pass, "on all 2 article and product pages", ev("notes", []string{"FAQPage found on https://example.com/: valid schema.org that describes the content; Google no longer shows rich results for it."})},
		{"product without offer, article without breadcrumb", func(t *testing.T) *Input {
			noCrumb := block(`{"@context":"https://schema.org","@type":"Article","headline":"How to close your books in three days"}`)
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(noCrumb)), resp(fetch.Product, productURL, 200, fixtureProduct(productNoOffer)))
		}, Warn, "0 of 2", nil},
		{"homepage only, faq noted", func(t *testing.T) *Input { return inputOf(t, faqHome) }, NA, "No article or product page", ev("notes", []string{"FAQPage found on https://example.com/: valid schema.org that describes the content; Google no longer shows rich results for it."})},
	})
	runCheckCases(t, list, "schema_required_props", []checkCase{
		{"complete", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)))
		}, Pass, "100%", ev("completeness_pct", 100)},
		{"organization without sameAs and contact", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"Organization","name":"Example","url":"https://example.com/","logo":"https://example.com/l.png"}`)))
		}, Warn, "3 of 5", nil},
		{"bare article", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"Article","headline":"Hi"}`)))
		}, Fail, "1 of 6", nil},
		{"no schema", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, NA, "No schema.org entity", nil},
	})
	runCheckCases(t, list, "schema_linked_graph", []checkCase{
		{"yoast graph", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "one connected graph", nil},
		{"single entity", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`)))
		}, Pass, "", nil},
		{"separate blocks", func(t *testing.T) *Input {
			return inputOf(t, withHead(block(`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`)+block(`{"@context":"https://schema.org","@type":"WebSite","name":"Example"}`)))
		}, Warn, "1 of 1", nil},
		{"no schema", func(t *testing.T) *Input { return inputOf(t, withHead("")) }, NA, "", nil},
	})
	wrongAuthor := strings.Replace(fixtureArticleGraph, `"name":"Jane Doe"`, `"name":"Max Mustermann"`, 1)
	wrongProduct := strings.Replace(strings.Replace(fixtureProductGraph, `"price":"49.00"`, `"price":"99.00"`, 1), `"name":"Example Team Plan"`, `"name":"Enterprise Suite"`, 1)
	runCheckCases(t, list, "schema_visible_match", []checkCase{
		{"headline, author and price visible", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)), resp(fetch.Product, productURL, 200, fixtureProduct(fixtureProductGraph)))
		}, Pass, "Every value taken from the markup (4)", nil},
		{"author not visible", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(wrongAuthor)))
		}, Warn, "1 of 2", nil},
		{"product name and price differ", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.Product, productURL, 200, fixtureProduct(wrongProduct)))
		}, Fail, "2 of 2", nil},
		{"nothing to compare", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, "No headline", nil},
	})
}

func TestMachineMetadataChecks(t *testing.T) {
	list := visibilityRing()
	withTitle := func(title string) string { return simplePage(title, "<p>Hello.</p>") }
	runCheckCases(t, list, "title_quality", []checkCase{
		{"descriptive with brand", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "names the brand", ev("includes_brand", true)},
		{"generic", func(t *testing.T) *Input { return inputOf(t, withTitle("Home")) }, Warn, "generic wording", nil},
		{"brandless", func(t *testing.T) *Input { return inputOf(t, withTitle("Accounting software for small teams")) }, Warn, `brand "Example" missing`, nil},
		{"domain as brand", func(t *testing.T) *Input {
			in := inputOf(t, withTitle("EXAMPLE accounting for small teams"))
			in.BrandName = "example.com"
			return in
		}, Pass, "", nil},
		{"missing", func(t *testing.T) *Input { return inputOf(t, "<html><body><p>x</p></body></html>") }, Fail, "no <title>", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	withDesc := func(d string) string {
		return `<html lang="en"><head><title>x</title><meta name="description" content="` + d + `"></head><body></body></html>`
	}
	runCheckCases(t, list, "meta_description", []checkCase{
		{"good length", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "characters", nil},
		{"too short", func(t *testing.T) *Input { return inputOf(t, withDesc("Accounting.")) }, Warn, "11 characters", ev("length", 11)},
		{"missing", func(t *testing.T) *Input { return inputOf(t, withTitle("x")) }, Fail, "no meta description", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	withMeta := func(meta string) string {
		return `<html lang="en"><head><title>x</title>` + meta + `</head><body></body></html>`
	}
	runCheckCases(t, list, "open_graph", []checkCase{
		{"complete", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "absolute https og:image", nil},
		{"partial", func(t *testing.T) *Input { return inputOf(t, withMeta(`<meta property="og:title" content="x">`)) }, Warn, "lacks og:description", nil},
		{"relative image", func(t *testing.T) *Input {
			return inputOf(t, withMeta(strings.Replace(fixtureHead, "https://example.com/og.png", "/og.png", 1)))
		}, Warn, "not an absolute https URL", ev("og_image_absolute_https", false)},
		{"none", func(t *testing.T) *Input { return inputOf(t, withMeta("")) }, Fail, "none of", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	langPage := func(lang, text string) string {
		return `<html lang="` + lang + `"><head><title>x</title></head><body><p>` + text + `</p></body></html>`
	}
	german := strings.Repeat("Die Software ist für kleine Teams und wir helfen mit der Buchhaltung, auch von zu Hause. ", 8)
	runCheckCases(t, list, "html_lang", []checkCase{
		{"english", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "matching", ev("detected_language", "en")},
		{"regional tag", func(t *testing.T) *Input { return inputOf(t, langPage("de-DE", german)) }, Pass, "", ev("detected_language", "de")},
		{"underscore", func(t *testing.T) *Input { return inputOf(t, langPage("en_US", fixtureProse(60, "x"))) }, Warn, "not a valid BCP 47", nil},
		{"wrong language", func(t *testing.T) *Input { return inputOf(t, langPage("fr", german)) }, Warn, `reads as "de"`, nil},
		{"missing", func(t *testing.T) *Input { return inputOf(t, "<html><body><p>x</p></body></html>") }, Fail, "no lang", nil},
		{"no homepage", noHomeInput, NA, "", nil},
	})
	goodLLMs := "# Example\n\n> Accounting software for small teams.\n\nSome notes.\n\n## Docs\n\n- [Quick start](https://example.com/docs/start.md): first steps\n- [API](https://example.com/docs/api/)\n\n## Optional\n\n- [Blog](https://example.com/blog/)\n"
	llms := func(body string, links ...*fetch.Response) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			extra := append([]*fetch.Response{resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, body)}, links...)
			return inputOf(t, fixtureYoastHome(), extra...)
		}
	}
	ok := func(u string) *fetch.Response { return resp(fetch.LLMsLink, u, 200, "") }
	gone := func(u string) *fetch.Response { return resp(fetch.LLMsLink, u, 404, "") }
	runCheckCases(t, list, "llms_txt_valid", []checkCase{
		{"well formed", llms(goodLLMs, ok("https://example.com/docs/start.md"), ok("https://example.com/docs/api/"),
			resp(fetch.LLMsFullTxt, "https://example.com/llms-full.txt", 200, "")), Pass, "llms-full.txt exists", ev("optional_section", true, "links", 3)},
		{"relative links, no summary", llms("# Example\n\n## Docs\n\n- [Start](/docs/start)\nSome prose line.\n### Deep\n"), Warn, "relative links", nil},
		{"html catch-all", llms("<!doctype html><html><body>app</body></html>"), NA, "catch-all", ev("html_catch_all", true)},
		{"no title first", llms("Welcome to Example\n# Example\n"), Fail, "first line is not an H1", nil},
		{"broken links", llms(goodLLMs, gone("https://example.com/docs/start.md"), gone("https://example.com/docs/api/")), Fail, "2 of 2", nil},
		{"absent", func(t *testing.T) *Input {
			return inputOf(t, fixtureYoastHome(), resp(fetch.LLMsTxt, "https://example.com/llms.txt", 404, "not found"))
		}, NA, "no /llms.txt", ev("status", 404)},
	})
	runCheckCases(t, list, "markdown_alternates", []checkCase{
		{"link alternate", func(t *testing.T) *Input {
			return inputOf(t, `<html><head><link rel="alternate" type="text/markdown" href="/index.md"></head><body></body></html>`)
		}, Pass, "https://example.com/index.md", nil},
		{"md links in llms.txt", llms(goodLLMs), Pass, "https://example.com/docs/start.md", nil},
		{"none", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Info, "No Markdown alternates", nil},
		{"nothing fetched", noHomeInput, NA, "", nil},
	})
}
