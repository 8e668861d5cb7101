package page_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
)

// cited is what a test says about one citation.
type cited struct {
	url  string
	role page.CitationRole
}

func citationsOf(t *testing.T, html string) []cited {
	t.Helper()
	var out []cited
	for _, c := range parse(t, html).Citations() {
		out = append(out, cited{c.URL, c.Role})
	}
	return out
}

// doc wraps body markup in a blog page of www.example.com with the
// site's header, menu and footer around it.
func doc(lang, body string) string {
	return `<!doctype html><html lang="` + lang + `"><head><title>Post</title></head><body>
<header><a href="/"><img src="/logo.png" alt="Example"></a><nav><ul><li><a href="/blog/">Blog</a></li><li><a href="https://shop.example.com/">Shop</a></li>
<li><a href="https://status.hosting.example.net/">Status</a></li></ul></nav></header>
<main><article>` + body + `</article></main>
<footer><p>Powered by <a href="https://wordpress.org/">WordPress</a> and hosted by <a href="https://hosting.example.net/">Hosting Co</a> since the year we started.</p>
<a href="https://www.facebook.com/example">Facebook</a> <a href="https://x.com/example">X</a></footer></body></html>`
}

func TestCitationsInRunningTextNeedNoReferenceHost(t *testing.T) {
	t.Parallel()
	// An essay citing its sources in its sentences: blogs, papers,
	// newspapers. None is .gov, .edu or Wikipedia.
	var b strings.Builder
	var want []cited
	for i := range 16 {
		u := fmt.Sprintf("https://blog%d.example.org/posts/on-attention-%d", i, i)
		fmt.Fprintf(&b, `<p>As <a href="%s">one careful essay on attention</a> argued, the habit of reading in fragments changes what we remember of a text.</p>`, u)
		want = append(want, cited{u, page.CiteRunningText})
	}
	require.Equal(t, want, citationsOf(t, doc("en", "<h1>On attention</h1>"+b.String())))
}

func TestCitationsOfThePrimaryParty(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, body, url string }{
		{"en", `<p>Acme announced on Tuesday that it will close its Leeds plant by March, cutting 400 jobs (<a href="https://www.acme.com/press/2026/leeds">press release</a>).</p>`, "https://www.acme.com/press/2026/leeds"},
		{"de", `<p>Die Crumb &amp; Kettle GmbH hat am Dienstag <a href="https://crumb-and-kettle.de/presse/filialen">angekündigt</a>, drei neue Filialen zu eröffnen.</p>`, "https://crumb-and-kettle.de/presse/filialen"},
		{"fr", `<p>Selon <a href="https://presse.renault.fr/communique-2026">le communiqué de Renault</a>, la production reprendra en juin dans l'usine de Flins.</p>`, "https://presse.renault.fr/communique-2026"},
		{"es", `<p>Telefónica confirmó los resultados en <a href="https://www.telefonica.com/es/sala-comunicacion/resultados/">su nota de prensa</a> del jueves por la tarde.</p>`, "https://www.telefonica.com/es/sala-comunicacion/resultados/"},
	} {
		got := citationsOf(t, doc(tc.lang, "<h1>News</h1>"+tc.body))
		require.Equal(t, []cited{{tc.url, page.CitePrimary}}, got, tc.lang)
	}
	// The same link in a sentence that names someone else only runs in
	// the text.
	got := citationsOf(t, doc("en", `<p>The union said the plan was rushed, and <a href="https://www.acme.com/press/2026/leeds">the statement</a> gives no reasons at all.</p>`))
	require.Equal(t, []cited{{"https://www.acme.com/press/2026/leeds", page.CiteRunningText}}, got)
}

func TestCitationsInFootnotes(t *testing.T) {
	t.Parallel()
	// MediaWiki: markers in <sup>, notes in ol.references; a book cited
	// without a link is still a source.
	wiki := doc("en", `<h1>Ferry</h1><p>The ferry first sailed in 1894.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup>
It carried 200 passengers.<sup class="reference"><a href="#cite_note-2">[2]</a></sup> Its engines came from Glasgow.<sup class="reference"><a href="#cite_note-3">[3]</a></sup></p>
<h2>References</h2><div class="reflist"><ol class="references">
<li id="cite_note-1"><a href="#cite_ref-1">^</a> <cite>Smith, J. (1998). <i>Ferries of the North</i>. Harbour Press. p. 12. ISBN 978-0-00-000000-0.</cite></li>
<li id="cite_note-2"><a href="#cite_ref-2">^</a> <a rel="nofollow" class="external text" href="https://archive.example.org/ferry-1894.pdf">"Passenger lists 1894"</a>. Harbour Archive.</li>
<li id="cite_note-3"><a href="#cite_ref-3">^</a> <a href="/wiki/Glasgow">Glasgow</a> engine works ledger, 1893, vol. 4.</li>
</ol></div>`)
	cs := parse(t, wiki).Citations()
	require.Len(t, cs, 3)
	require.Equal(t, page.CiteFootnote, cs[0].Role)
	require.Empty(t, cs[0].URL, "a book cited by title, year and ISBN")
	require.Contains(t, cs[0].Text, "Ferries of the North")
	require.Equal(t, cited{"https://archive.example.org/ferry-1894.pdf", page.CiteFootnote}, cited{cs[1].URL, cs[1].Role}, "nofollow is how wikis mark every outside link")
	require.Equal(t, page.CiteFootnote, cs[2].Role)
	require.Empty(t, cs[2].URL)

	// Pandoc, Hugo and markdown-it: doc-noteref markers, doc-endnotes.
	hugo := doc("en", `<h1>Sourdough</h1><p>Starters double in four to six hours.<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup></p>
<div class="footnotes" role="doc-endnotes"><hr><ol><li id="fn:1"><p>See <a href="https://journals.example.org/yeast/2019/42">the 2019 yeast study</a>.&#160;<a href="#fnref:1" class="footnote-backref" role="doc-backlink">↩︎</a></p></li></ol></div>`)
	require.Equal(t, []cited{{"https://journals.example.org/yeast/2019/42", page.CiteFootnote}}, citationsOf(t, hugo))

	// A footnote that explains rather than cites is no source.
	aside := doc("en", `<p>We bake at dawn.<sup><a href="#fn1">1</a></sup></p><ol class="footnotes"><li id="fn1">Except on Sundays, when we sleep in.</li></ol>`)
	require.Empty(t, citationsOf(t, aside))
}

func TestCitationsInReferencesSections(t *testing.T) {
	t.Parallel()
	for _, title := range []string{
		"References", "Sources", "Further reading", "Bibliography", "Notes", "5. Sources", "Notes and references", "Sources &amp; further reading",
		"Quellen", "Literatur", "Einzelnachweise", "Quellen und Literatur", "Références", "Bibliographie", "Fuentes", "Referencias",
		"Fonti", "Riferimenti", "Referências", "Bronnen", "Источники", "Литература", "Примечания", "Źródła", "Przypisy", "Källor",
		"Kilder", "Lähteet", "Kaynaklar", "参考文献", "出典", "参考资料", "참고 문헌", "출처", "المراجع", "المصادر", "מקורות",
		"संदर्भ", "Daftar Pustaka", "Tài liệu tham khảo", "อ้างอิง", "Πηγές", "Források", "Bibliografie", "References (3)",
	} {
		body := `<h1>Post</h1><p>` + strings.Repeat("Plain words of the story without a link. ", 5) + `</p>
<h2>` + title + `</h2><ul><li><a href="https://stats.example.org/table-1">Table 1</a></li><li><a href="https://papers.example.net/abs/2201">Paper</a></li></ul>
<h2>Comments</h2><ul><li><a href="https://elsewhere.example.net/">A link after the section</a></li></ul>`
		require.Equal(t, []cited{{"https://stats.example.org/table-1", page.CiteReferences}, {"https://papers.example.net/abs/2201", page.CiteReferences}},
			citationsOf(t, doc("en", body)), title)
	}

	// A heading that only contains the word is no references title.
	body := `<h1>Post</h1><h2>Our sources of inspiration this summer</h2><ul><li><a href="https://stats.example.org/table-1">Table 1</a></li></ul>`
	require.Empty(t, citationsOf(t, doc("en", body)), "a list of bare links under another heading cites nothing")

	// A bold line acting as the heading, a "Source:" credit, a <details>.
	shapes := doc("de", `<h1>Mieten</h1><p>`+strings.Repeat("Die Mieten steigen weiter. ", 5)+`</p>
<figure><img src="/chart.png" alt="Mieten"><figcaption>Quelle: <a href="https://www.destatis.example/mieten-2026">Statistisches Amt</a></figcaption></figure>
<figure><img src="/photo.jpg" alt="Haus"><figcaption>Foto: <a href="https://photos.example.net/jane">Jane Doe</a></figcaption></figure>
<p><strong>Weiterführende Literatur:</strong></p><ul><li><a href="https://buch.example.de/mietrecht">Mietrecht kompakt</a></li></ul>
<details><summary>Fuentes</summary><ul><li><a href="https://ine.example.es/alquiler">INE</a></li></ul></details>`)
	require.Equal(t, []cited{
		{"https://www.destatis.example/mieten-2026", page.CiteReferences},
		{"https://buch.example.de/mietrecht", page.CiteReferences},
		{"https://ine.example.es/alquiler", page.CiteReferences},
	}, citationsOf(t, shapes), "a photo credit is no source")
}

func TestCitationsInCiteMarkup(t *testing.T) {
	t.Parallel()
	got := parse(t, doc("en", `<h1>Quotes</h1>
<blockquote cite="https://speeches.example.org/1963/dream"><p>I have a dream.</p></blockquote>
<p>She called it <q cite="https://news.example.net/interview">a slow revolution</q> in an interview.</p>
<p>The phrase comes from <cite><a href="https://books.example.net/origin">On the Origin of Species</a></cite>.</p>
<p>Darwin returns to it in <cite>The Descent of Man</cite> twelve years later.</p>
<section id="comments"><ol class="commentlist"><li class="comment"><div class="comment-author vcard"><cite class="fn">Bob Smith</cite> says:</div><p>Great post, thanks!</p></li></ol></section>
<div class="testimonials"><blockquote><p>Best bread in town.</p><footer><cite>Jane, a regular customer</cite></footer></blockquote></div>`)).Citations()
	var roles []page.CitationRole
	var texts []string
	for _, c := range got {
		roles = append(roles, c.Role)
		texts = append(texts, c.Text)
	}
	require.Equal(t, []page.CitationRole{page.CiteQuotation, page.CiteQuotation, page.CiteQuotation, page.CiteQuotation}, roles)
	require.Equal(t, "https://speeches.example.org/1963/dream", got[0].URL)
	require.Equal(t, "https://news.example.net/interview", got[1].URL)
	require.Equal(t, "https://books.example.net/origin", got[2].URL)
	require.Equal(t, "The Descent of Man", texts[3])
}

// TestLinksThatCiteNothing holds the real web's look-alikes of citations
// to nothing: each page's main content has prose and outbound links, and
// none of them cites.
func TestLinksThatCiteNothing(t *testing.T) {
	t.Parallel()
	prose := strings.Repeat("We bake every loaf by hand in the small hours of the morning. ", 4)
	for name, body := range map[string]string{
		"only nav and footer links":              `<h1>Welcome</h1><p>` + prose + `</p>`,
		"internal links, also on a sibling host": `<p>Read <a href="/about/">about us</a> and <a href="https://shop.example.com/bread">our bread shop</a>, or see <a href="https://example.com/menu">the menu</a> for today.</p>`,
		"share bar": `<p>` + prose + `</p><div class="share-buttons">
<a target="_blank" href="https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fwww.example.com%2Fblog%2Fpost%2F">Share on Facebook</a>
<a target="_blank" href="https://twitter.com/intent/tweet?text=Post&url=https://www.example.com/blog/post/">Tweet</a>
<a target="_blank" href="https://www.linkedin.com/sharing/share-offsite/?url=https://www.example.com/blog/post/">LinkedIn</a>
<a target="_blank" href="https://pinterest.com/pin/create/button/?url=https://www.example.com/blog/post/">Pin it</a>
<a target="_blank" href="https://api.whatsapp.com/send?text=https://www.example.com/blog/post/">WhatsApp</a>
<a target="_blank" href="https://www.reddit.com/submit?url=https://www.example.com/blog/post/">Reddit</a></div>`,
		"share links in a plain paragraph": `<p>Liked it? <a href="https://bsky.app/intent/compose?text=https://www.example.com/blog/post/">Post it on Bluesky</a> or <a href="https://vk.com/share.php?url=https://www.example.com/blog/post/">share it on VK</a> with your friends today.</p>`,
		"social profiles in a sentence":    `<p>Follow us on <a href="https://www.instagram.com/examplebakery/">Instagram</a>, <a href="https://www.linkedin.com/company/example-bakery/">LinkedIn</a> and <a href="https://www.youtube.com/@examplebakery">YouTube</a> for daily photos of the bread.</p>`,
		"ads, sponsored and affiliate links": `<p>We love <a rel="sponsored" href="https://flour.example.org/offer">this flour brand</a> and buy our tins <a href="https://amzn.to/3xYzAbC">on Amazon</a> or <a href="https://www.amazon.co.uk/dp/B00000000?tag=examplebak-21">via this link</a> every month.</p>
<div class="ad-slot"><p>Advertisement: <a href="https://ads.example.net/click?id=1">Cheap ovens for every kitchen, buy now</a> and save.</p></div>
<p>Offer: <a href="https://adclick.g.doubleclick.net/pcs/click?x=1">Win a mixer today</a> by signing up.</p>`,
		"user comments":           `<p>` + prose + `</p><div id="comments"><p>Bob said: try <a rel="nofollow ugc" href="https://bobs-blog.example.org/">my own recipe</a> which is better.</p></div>`,
		"image-only links":        `<p>` + prose + `</p><p><a href="https://partner.example.org/"><img src="/badge.png" alt=""></a> <a href="https://award.example.org/2026"><img src="/award.png"></a></p>`,
		"link lists and headings": `<h2><a href="https://other.example.org/story">A story elsewhere</a></h2><ul><li><a href="https://blog.example.org/a">Related post</a></li><li><a href="https://blog.example.org/b">Another related post</a></li></ul>`,
		"related posts and a sidebar widget": `<p>` + prose + `</p><div class="related-posts"><p>You might also like <a href="https://friends.example.org/post">this lovely post about rye bread</a> from our friends.</p></div>
<div class="widget blogroll"><p>Blogs we read every week: <a href="https://bread.example.net/">The Bread Blog</a> and more.</p></div>`,
	} {
		require.Empty(t, citationsOf(t, doc("en", body)), name)
	}
}

func TestTheSameSourceCountsOnce(t *testing.T) {
	t.Parallel()
	got := citationsOf(t, doc("en", `<h1>Rents</h1>
<p>Rents rose by 6% in 2025, according to <a href="https://stats.example.org/rents/?utm_source=newsletter&utm_medium=email">the statistics office</a>, the fastest rise in ten years.</p>
<p>The same <a href="http://www.stats.example.org/rents">statistics office report</a> shows a slower rise in the north of the country.</p>
<p>Mortgage costs also rose <a href="https://www.google.com/url?q=https://bank.example.net/rates&sa=D">according to the central bank</a> in its spring survey.</p>
<p>Our own <a href="https://www.google.com/url?q=https://www.example.com/blog/older/">earlier post</a> explained why the prices in our street climbed.</p>
<h2>Sources</h2><ul><li><a href="https://stats.example.org/rents#table-2">Statistics office, rents table</a></li></ul>`))
	require.Equal(t, []cited{
		{"https://stats.example.org/rents/", page.CiteReferences},
		{"https://bank.example.net/rates", page.CiteRunningText},
	}, got, "one source cited three ways takes its most specific role; a redirector's link is its target")
}

func TestCitationsOutsideTheContent(t *testing.T) {
	t.Parallel()
	// Without main or article, the body is the content; a wrapper named
	// for its layout still holds it, a sidebar beside it does not.
	got := citationsOf(t, `<html><body><div class="layout-with-sidebar"><div class="content">
<h1>Stone mills</h1><p>`+strings.Repeat("The old mill ground grain for the village for two hundred years. ", 6)+`
The last miller described it in <a href="https://memoirs.example.org/miller">his memoir</a> before he died.</p></div>
<div class="sidebar"><p>Our partner mills across the country: <a href="https://mill.example.net/">Valley Mill</a> is worth a visit.</p></div></div></body></html>`)
	require.Equal(t, []cited{{"https://memoirs.example.org/miller", page.CiteRunningText}}, got)

	// A teaser <article> in a related box is not the content.
	got = citationsOf(t, doc("en", `<p>`+strings.Repeat("A word. ", 60)+`</p>`)+
		`<div class="related"><article><p>Elsewhere: <a href="https://friends.example.org/x">a friend's story about their sourdough</a> was lovely.</p></article></div>`)
	require.Empty(t, got)
}
