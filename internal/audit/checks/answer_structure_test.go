package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestAnswerStructure covers the answer_structure pillar.
func TestAnswerStructure(t *testing.T) {
	t.Parallel()
	withArticle := func(t *testing.T) *Input {
		return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)))
	}
	mixed := simplePage("x", "<h1>Mixed</h1><h2>A</h2><p>"+fixtureProse(80, "a")+"</p><h2>B</h2><p>"+fixtureProse(80, "b")+
		"</p><h2>C</h2><p>Too short.</p><h2>D</h2><p>"+fixtureProse(400, "d")+"</p>")
	testPillar(t, pillarAnswerStructure, []pillarCheck{
		{id: "single_h1", never: []Status{Fail}, cases: []checkCase{
			{"one each", withArticle, Pass, "on all 2 pages", nil},
			{"two h1", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<h1>Logo</h1><h1>Welcome</h1><p>"+fixtureProse(30, "h")+"</p>"))
			}, Warn, "0 of 1", nil},
			{"empty app shell is not judged twice", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<div id="root"></div><script src="/app.js"></script>`))
			}, NA, "readable text", nil},
			{"no pages", noHomeInput, NA, "", nil},
		}},
		{id: "heading_hierarchy", never: []Status{Fail}, cases: []checkCase{
			{"clean outline", withArticle, Pass, "nest without skipped levels", nil},
			{"skipped level", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<h1>Top</h1><h3>Deep</h3><h2>Back</h2><p>"+fixtureProse(30, "h")+"</p>"))
			}, Warn, "1 of 1", nil},
			{"article with one h2", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, simplePage("a", "<h1>A</h1><h2>Only</h2><p>"+fixtureProse(30, "h")+"</p>")))
			}, Warn, "1 of 2", nil},
			{"no pages", noHomeInput, NA, "", nil},
		}},
		{id: "answer_first_intro", never: []Status{Fail}, cases: []checkCase{
			{"definition first", withArticle, Pass, "opens the page", nil},
			{"long story first", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<h1>Story</h1><p>"+fixtureProse(120, "s")+"</p>"))
			}, Warn, "0 of 1", nil},
			{"no pages", noHomeInput, NA, "", nil},
		}},
		{id: "passage_chunking", cases: []checkCase{
			{"sections in range", withArticle, Pass, "3 of 3", nil},
			{"half in range", func(t *testing.T) *Input { return inputOf(t, mixed) }, Warn, "2 of 4", ev("share_pct", 50)},
			{"wall of text", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<h1>Wall</h1><p>"+fixtureProse(400, "w")+"</p>"))
			}, Fail, "0 of 1", nil},
			{"short page", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Short page.</p>")) }, NA, "too little text", nil},
		}},
		{id: "lists_tables", never: []Status{Fail}, cases: []checkCase{
			{"list and table", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "1 list and 1 table", ev("lists", 1, "tables", 1)},
			{"only a nav menu", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<nav><ul><li>A</li><li>B</li></ul></nav><p>"+fixtureProse(30, "l")+"</p>"))
			}, Warn, "main content of the page holds no list", nil},
			{"no pages", noHomeInput, NA, "", nil},
		}},
		{id: "question_headings", never: []Status{Warn, Fail}, cases: []checkCase{
			{"question heading", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, `"What does Example do?"`, ev("count", 1)},
			{"statements only", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<h1>Top</h1><h2>How we work</h2><h2>Pricing</h2><p>"+fixtureProse(30, "q")+"</p>"))
			}, Info, "None of the 2 subheadings", nil},
			{"no pages", noHomeInput, NA, "", nil},
		}},
		{id: "facts_and_citations", cases: []checkCase{
			{
				"numbers and a sources section", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "cites 1 source: 1 in a references section",
				ev("citations", 1, "reference_host_citations", 1, "citations_by_role", map[string]any{"footnote": 0, "references_section": 1, "cite_markup": 0, "primary_party": 0, "running_text": 0}),
			},
			{"an essay citing its sources in its sentences, none a reference host", func(t *testing.T) *Input {
				return inputOf(t, simplePage("Essay", "<main><article><h1>On attention</h1><p>Readers skim 60% of a page in 2025, and 8 in 10 never scroll past 3 screens. "+essayCitations(16)+"</p></article></main>"))
			}, Pass, "cites 16 sources: 16 in running text", ev("citations", 16, "reference_host_citations", 0)},
			{"a story linking the press release it reports on", func(t *testing.T) *Input {
				return inputOf(t, simplePage("News", `<main><article><h1>Plant to close</h1><p>Acme said on Tuesday it will close its Leeds plant by March 2027, cutting 400 of its 1,200 jobs, according to <a href="https://www.acme-industries.co.uk/news/leeds-2026">a statement from Acme Industries</a>. `+fixtureProse(120, "p")+`</p></article></main>`))
			}, Pass, "cites 1 source: 1 linking the party their sentence names", ev("citations", 1)},
			{"an archived source", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. "+fixtureProse(150, "n")+
					` Sources: <a href="https://web.archive.org/web/20190101000000/https://example.org/report.pdf">the 2018 report (archived)</a>, <a href="https://archive.ph/AbCdE">the trade note</a>.</p></main>`))
			}, Pass, "cites 2 sources: 2 in running text", ev("reference_host_citations", 2)},
			{"german footnotes and a book without a link", func(t *testing.T) *Input {
				return inputOf(t, simplePage("Mühle", `<main><article><h1>Die Mühle</h1><p>Die Mühle mahlte seit 1784 Korn.<sup><a href="#fn1">1</a></sup> Im Jahr 1923 kam der Strom.<sup><a href="#fn2">2</a></sup> `+fixtureProse(120, "m")+`</p>
<h2>Einzelnachweise</h2><ol><li id="fn1">Müller, H.: <cite>Mühlen im Tal</cite>. Stuttgart 1998, S. 12.</li><li id="fn2"><a href="https://stadtarchiv.example.de/strom-1923">Stadtarchiv, Akte Strom 1923</a></li></ol></article></main>`))
			}, Pass, "cites 2 sources: 2 in footnotes (1 named without a link)", ev("citations_without_link", 1)},
			{"links only in the menu, the footer, a share bar and ads", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<header><nav><a href="https://shop.partner.example.net/">Shop</a></nav></header><main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. `+fixtureProse(150, "n")+`</p>
<div class="share"><a href="https://www.facebook.com/sharer/sharer.php?u=https://example.com/">Share</a></div><p>Follow us on <a href="https://www.instagram.com/example/">Instagram</a> for the daily bread photos.</p>
<p>Buy our tins <a rel="sponsored" href="https://tins.example.org/offer">from this shop</a> at a discount this week.</p></main><footer><a href="https://hosting.example.org/">Hosted by Hosting Co</a></footer>`))
			}, Warn, "cites no sources: none of its 5 outbound links is in running text, a footnote, a references section or cite markup", ev("outbound_links", 5, "citations", 0)},
			{"numbers without links", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. "+fixtureProse(150, "n")+"</p></main>"))
			}, Warn, "links to no other site, so it cites no sources", nil},
			{"sources without numbers", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<main><p>`+fixtureProse(150, "s")+` As <a href="https://bakers-guild.example.org/why-rest-dough">the bakers' guild explains</a>, resting dough matters.</p></main>`))
			}, Warn, "0.0 numbers per 100 words and cites 1 source: 1 in running text", nil},
			{"neither", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<main><p>`+fixtureProse(200, "v")+` <a href="https://twitter.com/example">us</a></p></main>`))
			}, Fail, "0.0 numbers per 100 words and cites no sources: its 1 outbound link is not in running text", ev("outbound_links", 1)},
			{"too short", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Hi 5</p>")) }, NA, "too little", nil},
		}},
	})
}

// essayCitations is prose that cites n sources on n blogs and journals,
// one per sentence.
func essayCitations(n int) string {
	var b strings.Builder
	for i := range n {
		w := fixtureIndex(i)
		fmt.Fprintf(&b, `As <a href="https://writer%s.example.org/essays/%s">one essay on reading%s</a> argued, the habit of skimming changes what we remember%s. `, w, w, w, w)
	}
	return b.String()
}
