package checks

import (
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestAuthorshipFreshness covers the authorship_freshness pillar.
func TestAuthorshipFreshness(t *testing.T) {
	t.Parallel()
	art := func(graph string) *fetch.Response { return resp(fetch.Article, articleURL, 200, fixtureArticle(graph)) }
	bare := simplePage("Post", "<main><h1>Post</h1><p>"+fixtureProse(100, "p")+"</p></main>")
	bylineOnly := simplePage("Post", `<main><h1>Post</h1><p class="post-author">Jane Doe</p><p>Text.</p></main>`)
	withSitemap := func(lastmods ...string) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			s := site(t, simplePage("x", "<p>x</p>"))
			for i, lm := range lastmods {
				s.SitemapURLs = append(s.SitemapURLs, fetch.SitemapURL{Loc: "https://example.com/p" + string(rune('a'+i)), LastMod: lm})
			}
			return input(s)
		}
	}
	withLastModified := func(lastModified string) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			date := testNow.Format(time.RFC1123)
			return inputOf(t, "", resp(fetch.Homepage, testOrigin, 200, simplePage("x", "<p>x</p>"), "Last-Modified", lastModified, "Date", date))
		}
	}
	testPillar(t, pillarAuthorshipFreshness, []pillarCheck{
		{id: "author_attribution", cases: []checkCase{
			{
				"byline and person profile", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome(), art(fixtureArticleGraph)) }, Pass, "signs the article",
				ev("articles", []map[string]any{{"byline": "By Jane Doe", "person_with_profile": true, "profile_urls": []string{"https://example.com/author/jane/", "https://www.linkedin.com/in/janedoe"}, "schema_author": "Jane Doe", "url": articleURL, "visible_author": true}}),
			},
			{"byline without profile", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, bylineOnly))
			}, Warn, "1 of 1 article names an author, and none", nil},
			{"anonymous", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, bare))
			}, Fail, "on the article", nil},
			{"blog index is not an article", func(t *testing.T) *Input {
				index := simplePage("Blog", "<main><article><h2>One</h2></article><article><h2>Two</h2></article><article><h2>Three</h2></article></main>")
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, "https://example.com/blog/", 200, index), art(fixtureArticleGraph))
			}, Pass, "signs the article", nil},
			{"no articles", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, "No article page", nil},
		}},
		{id: "content_dates", cases: []checkCase{
			{"dated", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome(), art(fixtureArticleGraph)) }, Pass, "are on the article", nil},
			{"one of two dated", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), art(fixtureArticleGraph), resp(fetch.Article, "https://example.com/blog/other/", 200, bare))
			}, Warn, "1 of 2", ev("dated", 1)},
			{"time element only", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, simplePage("Post", `<time datetime="2026-05-01">May 1</time>`)))
			}, Pass, "", nil},
			{"undated", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, bare))
			}, Fail, "date on the article", nil},
			{"no articles", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, "", nil},
		}},
		{id: "content_freshness", cases: []checkCase{
			{"recent article", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome(), art(fixtureArticleGraph)) }, Pass, "2026-10-15", ev("source", "schema BlogPosting.dateModified", "age_days", 39)},
			{"year-and-a-half old sitemap", withSitemap("2025-03-01", "2024-01-01", "2099-01-01"), Warn, "sitemap lastmod", ev("future_dates_ignored", 1)},
			{"stale", withSitemap("2023-06-30"), Fail, "2023-06-30", nil},
			{"last-modified header", withLastModified("Mon, 02 Nov 2026 10:00:00 GMT"), Pass, "Last-Modified header", nil},
			{"generated last-modified is ignored", withLastModified(testNow.Format(time.RFC1123)), NA, "No modification", nil},
			{"no dates", func(t *testing.T) *Input { return inputOf(t, simplePage("x", "<p>x</p>")) }, NA, "No modification", nil},
		}},
	})
}
