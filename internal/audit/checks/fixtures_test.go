package checks

// Sites and pages the pillar tests share: responses of the search ring's
// fetches, and realistic pages (a WordPress/Yoast homepage, an article, a
// product page) for the visibility and trust rings.

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// robotsURL is where the test site's robots.txt lives.
const robotsURL = "https://example.com/robots.txt"

// robotsTxt is a fetched robots.txt.
func robotsTxt(status int, body string) *fetch.Response {
	return resp(fetch.Robots, robotsURL, status, body)
}

// withSite builds an input around a homepage and extra responses.
func withSite(html string, extra ...*fetch.Response) func(t *testing.T) *Input {
	return func(t *testing.T) *Input { return input(site(t, html, extra...)) }
}

// withEdit builds an input and lets the case adjust the site.
func withEdit(html string, edit func(s *fetch.Site), extra ...*fetch.Response) func(t *testing.T) *Input {
	return func(t *testing.T) *Input {
		s := site(t, html, extra...)
		edit(s)
		return input(s)
	}
}

// failedFetch is a fetch that got no answer.
func failedFetch(purpose fetch.Purpose, rawURL string, err error) *fetch.Response {
	return &fetch.Response{Purpose: purpose, URL: rawURL, FinalURL: rawURL, Method: http.MethodGet, Header: http.Header{}, Err: err}
}

// errRefused is how a closed port answers.
var errRefused = errors.New("dial tcp 203.0.113.1:80: connect: connection refused")

// htmlPage is an English document with a title and the given head and
// body markup.
func htmlPage(head, body string) string {
	return "<!doctype html><html lang=en><head><title>Example</title>" + head + "</head><body>" + body + "</body></html>"
}

// linksTo is one anchor per href.
func linksTo(hrefs ...string) string {
	var b strings.Builder
	for i, h := range hrefs {
		fmt.Fprintf(&b, `<a href="%s">Link %d</a> `, h, i)
	}
	return b.String()
}

// hubHome links to the four hubs and to enough other pages.
var hubHome = htmlPage("", "<nav>"+linksTo("/about", "/contact", "/services", "/blog", "/a", "/b", "/c", "/d", "/e", "/f", "/g")+"</nav><main><p>Hello world.</p></main>")

// ldBlock wraps JSON-LD in its script element.
func ldBlock(js string) string { return `<script type="application/ld+json">` + js + `</script>` }

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
