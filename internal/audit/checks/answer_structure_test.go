package checks

import (
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
			{"numbers and sources", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "1 link", ev("source_links", []string{"https://en.wikipedia.org/wiki/Accounting"})},
			{"an archived source", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. "+fixtureProse(150, "n")+
					` Sources: <a href="https://web.archive.org/web/20190101000000/https://example.org/report.pdf">the 2018 report (archived)</a>, <a href="https://archive.ph/AbCdE">the trade note</a>.</p></main>`))
			}, Pass, "2 links to primary or reference sources", nil},
			{"numbers without sources", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<main><p>We grew 40% in 2024 and 35% in 2025 with 12 people. "+fixtureProse(150, "n")+"</p></main>"))
			}, Warn, "no links", nil},
			{"neither", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<main><p>`+fixtureProse(200, "v")+` <a href="https://twitter.com/example">us</a></p></main>`))
			}, Fail, "0.0 numbers", ev("outbound_links", 1)},
			{"too short", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>Hi 5</p>")) }, NA, "too little", nil},
		}},
	})
}
