package checks_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

func TestRunPageRunsOnlyPageLevelChecks(t *testing.T) {
	t.Parallel()
	body := []byte(`<html lang="en"><head><title>Trail tent</title></head><body><h1>Trail tent</h1><p>A tent.</p></body></html>`)
	p, err := page.Parse(body, nil)
	require.NoError(t, err)
	out := checks.RunPage(&checks.Input{Site: &fetch.Site{}, Home: p}, "")

	want := 0
	for _, c := range checks.All() {
		if c.PageLevel() {
			want++
		}
	}
	require.Len(t, out, want)
	seen := map[string]bool{}
	for _, o := range out {
		require.True(t, o.Check.PageLevel(), o.Check.ID)
		seen[o.Check.ID] = true
	}
	// Site-level checks stay out; a page-level one from each end of the
	// catalog is in.
	require.False(t, seen["robots_txt_fetchable"])
	require.False(t, seen["llm_brand_recognition"])
	require.True(t, seen["meta_robots_indexable"])
	require.True(t, seen["hidden_prompt_injection"])
}

// A page judged as an article is read as one by the checks that judge a
// page against its kind; judged as nothing, they do not apply.
func TestRunPageJudgesAPageAsItsKind(t *testing.T) {
	t.Parallel()
	u, err := url.Parse("https://example.com/blog/trail-tents")
	require.NoError(t, err)
	body := []byte(`<html lang="en"><head><title>Choosing a trail tent</title></head><body><main><article>` +
		`<h1>Choosing a trail tent</h1><p>By Ada Lovelace</p><p>A tent is a shelter.</p></article></main></body></html>`)
	p, err := page.Parse(body, u)
	require.NoError(t, err)
	resp := &fetch.Response{URL: u.String(), FinalURL: u.String(), Status: 200, Body: body}
	in := &checks.Input{Site: &fetch.Site{Target: u, Home: resp, HomePage: p}, Home: p}

	status := func(out []checks.Outcome, id string) checks.Status {
		for _, o := range out {
			if o.Check.ID == id {
				return o.Result.Status
			}
		}
		t.Fatalf("%s not run", id)
		return ""
	}
	asArticle := checks.RunPage(in, fetch.Article)
	require.NotEqual(t, checks.NA, status(asArticle, "author_attribution"))
	require.NotEqual(t, checks.NA, status(asArticle, "schema_page_type_match"))
	// The page has no Article markup: its kind is not declared.
	require.Equal(t, checks.Warn, status(asArticle, "schema_page_type_match"))

	asNothing := checks.RunPage(in, "")
	require.Equal(t, checks.NA, status(asNothing, "author_attribution"))
	require.Equal(t, checks.NA, status(asNothing, "schema_page_type_match"))
	require.Equal(t, status(asArticle, "title_quality"), status(asNothing, "title_quality"), "the other checks read the page alike")
}
