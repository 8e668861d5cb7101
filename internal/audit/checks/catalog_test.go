package checks

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

var update = flag.Bool("update", false, "rewrite the generated tables of docs/SCORING.md")

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestCatalog holds the catalog to its contract: unique snake_case ids,
// known rings and pillars, weights from the scale, complete texts that
// differ by audience.
func TestCatalog(t *testing.T) {
	t.Parallel()
	all := All()
	require.GreaterOrEqual(t, len(all), 55)
	seen := map[string]bool{}
	for _, c := range all {
		require.Regexp(t, snakeCase, c.ID)
		require.False(t, seen[c.ID], "duplicate id %s", c.ID)
		seen[c.ID] = true
		p, ok := scoring.Pillar(c.Pillar)
		require.True(t, ok, "%s: unknown pillar %s", c.ID, c.Pillar)
		requireCheckComplete(t, c, p.Ring, c.Pillar)
		require.Contains(t, []float64{0, 1, 2, 3, 5, 10}, c.Weight, c.ID)
	}
	for _, g := range scoring.Gates {
		c := Lookup(g.CheckID)
		require.NotNil(t, c, "gate %s names unknown check %s", g.ID, g.CheckID)
		require.GreaterOrEqual(t, c.Weight, 5.0, "gating check %s must carry a high weight", c.ID)
	}
	for _, p := range scoring.Pillars {
		n := 0
		for _, c := range all {
			if c.Pillar == p.ID {
				n++
			}
		}
		require.Positive(t, n, "pillar %s has no checks", p.ID)
	}
}

// TestEvaluatorsSurviveAnEmptySite runs every check on a site where
// nothing but an empty homepage was fetched.
func TestEvaluatorsSurviveAnEmptySite(t *testing.T) {
	t.Parallel()
	s := site(t, "")
	for _, o := range Run(input(s)) {
		require.NotContains(t, o.Result.Evidence, "internal_error", "%s panicked: %s", o.Check.ID, o.Result.Summary)
		require.NotEmpty(t, o.Result.Summary, o.Check.ID)
		require.Contains(t, []Status{Pass, Warn, Fail, NA, Info}, o.Result.Status, o.Check.ID)
	}
}

func TestScoringDocIsCurrent(t *testing.T) {
	t.Parallel()
	var defs []scoring.CheckDef
	for _, c := range All() {
		defs = append(defs, scoring.CheckDef{ID: c.ID, Ring: c.Ring, Pillar: c.Pillar, Effort: string(c.Effort), Weight: c.Weight})
	}
	var table bytes.Buffer
	require.NoError(t, scoring.WriteMarkdown(&table, defs))
	const path = "../../../docs/SCORING.md"
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	const begin, end = "<!-- BEGIN GENERATED RUBRIC -->\n", "<!-- END GENERATED RUBRIC -->"
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	require.True(t, i >= 0 && j > i, "markers missing in %s", path)
	want := string(doc[:i+len(begin)]) + table.String() + string(doc[j:])
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, string(doc), "docs/SCORING.md is stale: go test ./internal/audit/checks -update")
}

// TestCatalogFollowsTheRubric holds the catalog's layout to the rubric:
// the pillars in the rubric's order and rings, each with its own file and
// test file, and All as the pillars' checks in that order.
func TestCatalogFollowsTheRubric(t *testing.T) {
	t.Parallel()
	require.Len(t, pillars, len(scoring.Pillars))
	var all []*Check
	for i, p := range pillars {
		require.Equal(t, scoring.Pillars[i].ID, p.id, "pillar %d", i)
		require.Equal(t, scoring.Pillars[i].Ring, p.ring, p.id)
		for _, f := range []string{p.id + ".go", p.id + "_test.go"} {
			_, err := os.Stat(f)
			require.NoError(t, err, "pillar %s has no file %s", p.id, f)
		}
		for _, c := range p.checks() {
			require.Equal(t, p.id, c.Pillar, c.ID)
			require.Equal(t, p.ring, c.Ring, c.ID)
			all = append(all, c)
		}
	}
	require.Len(t, All(), len(all))
	for i, c := range All() {
		require.Equal(t, all[i].ID, c.ID)
	}
}

// TestChecksSurviveMissingData runs every evaluator directly, without the
// runner's recovery, on scans where little or nothing was fetched: none
// may panic, and every result keeps the evidence rule.
func TestChecksSurviveMissingData(t *testing.T) {
	t.Parallel()
	scans := map[string]func(t *testing.T) *Input{
		"no site":     func(t *testing.T) *Input { return &Input{Now: testNow} },
		"no homepage": noHomeInput,
		"empty html":  func(t *testing.T) *Input { return inputOf(t, "") },
		"nil header": func(t *testing.T) *Input {
			s := site(t, "")
			s.Home.Header = nil
			return input(s)
		},
		"page without site or URL": func(t *testing.T) *Input {
			orphan, err := page.Parse([]byte(hubHome+`<link rel="alternate" hreflang="en" href="/">`), nil)
			require.NoError(t, err)
			return &Input{Home: orphan}
		},
		"nothing fetched": func(t *testing.T) *Input {
			return input(&fetch.Site{
				Bots:     []fetch.BotResult{{Bot: fetch.ProbeBots[0]}, {Bot: fetch.ProbeBots[1]}},
				Sitemaps: []*fetch.Response{nil}, SitemapSamples: []*fetch.Response{nil},
			})
		},
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
		for _, c := range All() {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s on %s panicked: %v", c.ID, name, p)
					}
				}()
				r := c.Eval(mk(t))
				require.Contains(t, []Status{Pass, Warn, Fail, NA, Info}, r.Status, "%s/%s", name, c.ID)
				requireResult(t, r)
			}()
		}
	}
}

// TestSummaryFaults holds the rule of summaries to what it must catch and
// what it must let through.
func TestSummaryFaults(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"No fetched page has readable text to structure; ssr_text_content reports why.",
		"Capped by search_blocked_for_ai_search.",
		"The ttfb_sample answered in 40 ms.",
		"The judged pages have only 0 words of content.",
		"The homepage HTML links to 0 internal URLs.",
		"On the homepage only 0 of 2 images declare width and height.",
		"0 of 1 pages have exactly one non-empty H1.",
		"/llms.txt has 1 H3-or-deeper headings (sections are H2 only).",
		"Strict-Transport-Security max-age=86400 (1 days) is below 180 days.",
		"The homepage links to 3 page.",
	} {
		require.NotEmpty(t, summaryFaults(s), s)
	}
	for _, s := range []string{
		`3 of 4 brand mentions use "Example"; og:site_name "Exemplar" differs.`,
		"https://example.com/sitemap_index.xml (at a default location) answered HTTP 404.",
		"The homepage tells search engines not to index it: meta robots: unavailable_after:2025-01-01 (date passed).",
		"0 of 3 pages open with a direct 25–90 word answer paragraph after the H1.",
		"1 of 2 sitemap files could not be read; 1 is broken.",
		"The median time to first byte of 3 requests is 0 ms (good is up to 800 ms).",
		"The homepage reaches HTTP 200 through a temporary 302 redirect from https://example.com/start.",
		"13 of 19 expected properties are present across 1 schema entity (68%), which is incomplete.",
		"The homepage HTML is 0 bytes after decompression (under 500 KiB).",
	} {
		require.Empty(t, summaryFaults(s), s)
	}
}
