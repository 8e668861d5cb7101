package checks

// The one harness of the check tests: a pillar's test lists its checks in
// report order, each with its cases and the verdicts it cannot give, and
// testPillar holds every check and every result to the same rules.

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/robots"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// testNow is the fixed clock of the check tests.
var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const testOrigin = "https://example.com/"

// resp builds a fetched response; headers come as name/value pairs. The
// body is decoded as a fetch decodes it, and Charset says how.
func resp(purpose fetch.Purpose, rawURL string, status int, body string, headers ...string) *fetch.Response {
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Add(headers[i], headers[i+1])
	}
	if h.Get("Content-Type") == "" && body != "" {
		switch purpose {
		case fetch.Robots, fetch.LLMsTxt, fetch.LLMsFullTxt:
			h.Set("Content-Type", "text/plain; charset=utf-8")
		case fetch.Sitemap:
			h.Set("Content-Type", "application/xml")
		default:
			h.Set("Content-Type", "text/html; charset=utf-8")
		}
	}
	decoded, cs := fetch.Decode([]byte(body), h.Get("Content-Type"), purpose)
	return &fetch.Response{
		Purpose: purpose, URL: rawURL, FinalURL: rawURL, Method: http.MethodGet,
		Status: status, Header: h, Body: decoded, Bytes: len(body), Charset: cs, Duration: 50 * time.Millisecond, TTFB: 40 * time.Millisecond,
	}
}

// site builds a Site around a homepage; extra responses are attached by
// purpose (pages are parsed when they are HTML).
func site(t testing.TB, homeHTML string, extra ...*fetch.Response) *fetch.Site {
	t.Helper()
	target, _ := url.Parse(testOrigin)
	s := &fetch.Site{Target: target, Parsed: map[*fetch.Response]*page.Page{}}
	s.Home = resp(fetch.Homepage, testOrigin, 200, homeHTML)
	s.TTFBSamples = []time.Duration{40 * time.Millisecond}
	if p, err := page.Parse(s.Home.Body, target); err == nil {
		s.HomePage = p
		s.Parsed[s.Home] = p
	} else {
		t.Fatal(err)
	}
	for _, r := range extra {
		switch r.Purpose {
		case fetch.Homepage:
			s.Home = r
			u, _ := url.Parse(r.FinalURL)
			p, _ := page.Parse(r.Body, u)
			s.HomePage = p
			s.Parsed[r] = p
		case fetch.Robots:
			s.Robots = r
		case fetch.Sitemap:
			s.Sitemaps = append(s.Sitemaps, r)
		case fetch.SitemapSample:
			s.SitemapSamples = append(s.SitemapSamples, r)
		case fetch.LLMsTxt:
			s.LLMsTxt = r
		case fetch.LLMsFullTxt:
			s.LLMsFullTxt = r
		case fetch.LLMsLink:
			s.LLMsLinks = append(s.LLMsLinks, r)
		case fetch.NotFoundProbe:
			s.NotFound = r
		case fetch.HTTPProbe:
			s.HTTP = r
		case fetch.BotProbe:
			s.Bots = append(s.Bots, fetch.BotResult{Bot: botByToken(r.Agent), Response: r})
		default:
			s.Pages = append(s.Pages, r)
			if r.Status == 200 {
				u, _ := url.Parse(r.FinalURL)
				if p, err := page.Parse(r.Body, u); err == nil {
					s.Parsed[r] = p
				}
			}
		}
		s.All = append(s.All, r)
	}
	attributeSitemaps(s)
	return s
}

// attributeSitemaps records where each sitemap file's location came from,
// as a crawl does: a Sitemap: line of robots.txt, a default location, the
// homepage's <link rel="sitemap">, or else an index fetched before it.
func attributeSitemaps(s *fetch.Site) {
	var listed []string
	if s.Robots != nil {
		if f := robots.Parse(s.Robots); f.State() == robots.Rules {
			listed = f.AllSitemaps()
		}
	}
	robotsURL, _ := url.Parse(testOrigin + "robots.txt")
	index := ""
	for _, r := range s.Sitemaps {
		if r == nil {
			continue
		}
		u, _ := url.Parse(r.URL)
		source, as, parent := fetch.SitemapFromIndex, r.URL, index
		switch {
		case slices.ContainsFunc(listed, func(l string) bool {
			ref, err := url.Parse(l)
			return err == nil && robotsURL.ResolveReference(ref).String() == r.URL
		}):
			source, parent = fetch.SitemapFromRobots, ""
			for _, l := range listed {
				if ref, _ := url.Parse(l); robotsURL.ResolveReference(ref).String() == r.URL {
					as = l
				}
			}
		case u != nil && (u.Path == "/sitemap.xml" || u.Path == "/sitemap_index.xml"):
			source, as, parent = fetch.SitemapFromDefault, u.Path, ""
			s.SitemapDefaultsTried = append(s.SitemapDefaultsTried, r.URL)
		case s.HomePage != nil && slices.Contains(s.HomePage.SitemapLinks, r.URL):
			source, parent = fetch.SitemapFromLink, ""
			s.SitemapLinksTried = append(s.SitemapLinksTried, r.URL)
		}
		f := fetch.ReadSitemap(r, source, as, parent)
		if f.Kind == "sitemapindex" {
			index = r.URL
		}
		s.SitemapFetches = append(s.SitemapFetches, f)
	}
}

func botByToken(token string) fetch.Bot {
	for _, b := range fetch.ProbeBots {
		if b.Token == token {
			return b
		}
	}
	return fetch.Bot{Token: token, UserAgent: token, Role: "search"}
}

// input wraps a site for evaluation.
func input(s *fetch.Site) *Input {
	return &Input{Site: s, Home: s.HomePage, BrandName: "Example", Now: testNow}
}

func inputOf(t *testing.T, home string, extra ...*fetch.Response) *Input {
	return input(site(t, home, extra...))
}

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

// checkCase is one expected verdict of a check on one input.
type checkCase struct {
	name    string
	in      func(t *testing.T) *Input
	status  Status
	summary string         // a substring the summary must contain
	ev      map[string]any // evidence entries, compared by their printed form
}

// pillarCheck is what a pillar's test says about one of its checks.
type pillarCheck struct {
	id string
	// never lists the verdicts the check cannot give; every other verdict
	// needs a case (na or info count as one).
	never []Status
	cases []checkCase
}

// testPillar holds a pillar to its test: its checks are the listed ones in
// this order, each complete and in the pillar's ring, with a case for each
// verdict it can give, weighing 0 exactly when it only informs; every case
// gives its verdict, summary and evidence, and every result keeps the
// evidence rule of requireResult. Every case's input is also read by the
// whole catalog, whose summaries are held to summaryFaults.
func testPillar(t *testing.T, pillarID string, want []pillarCheck) {
	t.Helper()
	i := slices.IndexFunc(pillars, func(p pillar) bool { return p.id == pillarID })
	require.GreaterOrEqual(t, i, 0, "pillar %s is not in the catalog", pillarID)
	p := pillars[i]
	list := p.checks()
	var ids, wantIDs []string
	for _, c := range list {
		ids = append(ids, c.ID)
	}
	for _, w := range want {
		wantIDs = append(wantIDs, w.id)
	}
	require.Equal(t, wantIDs, ids, "the checks of %s in report order", pillarID)
	for n, w := range want {
		c := list[n]
		requireCheckComplete(t, c, p.ring, pillarID)
		seen := map[Status]bool{}
		for _, tc := range w.cases {
			seen[tc.status] = true
			require.NotContains(t, w.never, tc.status, "%s/%s shows a verdict the check is said never to give", c.ID, tc.name)
		}
		for _, s := range []Status{Pass, Warn, Fail, NA} {
			has := seen[s] || (s == NA && seen[Info])
			require.True(t, has || slices.Contains(w.never, s), "%s: no %s case", c.ID, s)
		}
		informs := seen[Info] && slices.Contains(w.never, Pass) && slices.Contains(w.never, Warn) && slices.Contains(w.never, Fail)
		require.Equal(t, informs, c.Weight == 0, "%s: weight %v; only checks that merely inform weigh 0", c.ID, c.Weight)
		for _, tc := range w.cases {
			t.Run(c.ID+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				in := tc.in(t)
				r := c.Eval(in)
				t.Log(r.Summary)
				require.Equal(t, tc.status, r.Status, "summary: %s\nevidence: %v", r.Summary, r.Evidence)
				require.Contains(t, r.Summary, tc.summary)
				for k, want := range tc.ev {
					require.Contains(t, r.Evidence, k)
					require.Equal(t, fmt.Sprint(want), fmt.Sprint(r.Evidence[k]), "evidence %s", k)
				}
				requireResult(t, r)
				// The case's input is a site like any other: every check
				// of the catalog reads it without fault.
				for _, o := range Run(in) {
					require.NotContains(t, o.Result.Evidence, "internal_error", "%s: %s", o.Check.ID, o.Result.Summary)
					require.Empty(t, summaryFaults(o.Result.Summary), "%s: %q", o.Check.ID, o.Result.Summary)
				}
			})
		}
	}
}

// requireCheckComplete holds a definition to the catalog's contract.
func requireCheckComplete(t *testing.T, c *Check, ring scoring.Ring, pillarID string) {
	t.Helper()
	require.Equal(t, ring, c.Ring, "%s: pillar %s is in ring %s", c.ID, pillarID, ring)
	require.Equal(t, pillarID, c.Pillar, c.ID)
	require.Contains(t, []Level{Low, Medium, High}, c.Effort, c.ID)
	require.NotNil(t, c.Eval, c.ID)
	for _, txt := range []Text{c.Marketing, c.Engineering} {
		require.NotEmpty(t, txt.Title, c.ID)
		require.NotEmpty(t, txt.Why, c.ID)
		require.NotEmpty(t, txt.Fix, c.ID)
	}
	for _, txt := range []string{c.Marketing.Title, c.Marketing.Why, c.Marketing.Fix} {
		require.NotRegexp(t, snakeWord, txt, "%s: the marketing texts name no id", c.ID)
	}
	require.NotEqual(t, c.Marketing.Why, c.Engineering.Why, "%s: audiences must differ", c.ID)
	require.NotEqual(t, c.Marketing.Fix, c.Engineering.Fix, "%s: audiences must differ", c.ID)
}

// requireResult is the evidence rule every result keeps: the summary is
// one sentence written for people (summaryFaults), and the evidence is a map that reports can render and
// that survives JSON: at every depth only strings, bools, ints, finite
// floats, string and int64 lists, rows and nested maps of the same.
func requireResult(t *testing.T, r Result) {
	t.Helper()
	require.NotEmpty(t, r.Summary)
	require.True(t, strings.HasSuffix(r.Summary, "."), "summary %q is not a sentence", r.Summary)
	require.Empty(t, summaryFaults(r.Summary), "summary %q", r.Summary)
	require.NotNil(t, r.Evidence, "nil evidence")
	_, err := json.Marshal(r.Evidence)
	require.NoError(t, err)
	var check func(path string, v any)
	check = func(path string, v any) {
		switch x := v.(type) {
		case string, bool, int, int64, []string, []int64:
		case float64:
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "evidence %s is not finite", path)
		case []map[string]any:
			for i, m := range x {
				check(fmt.Sprintf("%s[%d]", path, i), m)
			}
		case map[string]any:
			for k, e := range x {
				check(path+"."+k, e)
			}
		default:
			require.Failf(t, "evidence type", "evidence %s has type %T", path, v)
		}
	}
	check("evidence", r.Evidence)
}

// A summary is shown to both audiences, the marketing one included, so it
// names no internal id and counts as a writer would. summaryFaults lists
// what breaks that: a check, gate or pillar id, or any other snake_case
// word that stands alone (one inside a URL, a tag or an attribute such as
// og:site_name is the site's, not ours); a bare 0 before a noun ("0
// links" reads "no links") and "only 0"; 1 before a plural noun ("1 pages", "0 of 1
// images"); and a number above 1 before a singular one ("3 page.").
func summaryFaults(s string) []string {
	var faults []string
	for _, m := range snakeWord.FindAllStringIndex(s, -1) {
		word := s[m[0]:m[1]]
		before, after := charBefore(s, m[0]), charAfter(s, m[1])
		if isWordChar(before) || isWordChar(after) {
			continue
		}
		switch {
		case internalIDs()[word]:
			faults = append(faults, fmt.Sprintf("names the id %s", word))
		case !strings.ContainsRune(`/:.#<="'-`, before) && !strings.ContainsRune(`/.:=(`, after):
			faults = append(faults, fmt.Sprintf("spells %s like an id", word))
		}
	}
	if strings.Contains(strings.ToLower(s), "only 0 ") {
		faults = append(faults, `"only 0": write none, no …`)
	}
	for _, m := range countedWords.FindAllStringSubmatchIndex(s, -1) {
		n, words := s[m[2]:m[3]], strings.Fields(s[m[1]:])
		if len(words) == 0 {
			continue
		}
		switch n {
		case "0":
			if w := strings.TrimRight(words[0], ",;:.)"); w != "of" && !units[w] {
				faults = append(faults, fmt.Sprintf("0 %s: write none, no …", w))
			}
		case "1":
			// Up to two modifiers may stand between the number and its
			// noun: "1 H3-or-deeper headings", "1 empty script block".
			for i, w := range words[:min(3, len(words))] {
				bare := strings.TrimRight(w, ",;:.)")
				if plurals[bare] {
					faults = append(faults, fmt.Sprintf("1 … %s: a singular noun after 1", bare))
					break
				}
				if singulars[bare] || nounPhraseEnds[bare] || bare != w || i == 2 {
					break
				}
			}
		default:
			// A singular noun ends the phrase ("3 page." or "3 page in")
			// unless it qualifies the next noun ("2 sitemap files"); an
			// HTTP status names, it does not count ("a 302 redirect").
			bare := strings.TrimRight(words[0], ",;:.)")
			if status, _ := strconv.Atoi(n); status >= 100 && status <= 599 {
				continue
			}
			if singulars[bare] && (bare != words[0] || len(words) == 1 || nounPhraseEnds[words[1]]) {
				faults = append(faults, fmt.Sprintf("%s %s: a plural noun after %s", n, bare, n))
			}
		}
	}
	return faults
}

var (
	snakeWord = regexp.MustCompile(`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`)
	// countedWords is a number standing alone before a word: not part of
	// a decimal, a range ("25–90 word"), a version or an attribute.
	countedWords = regexp.MustCompile(`(?:^|[^\w.,:=/+–-])(\d+) `)
	// units (and "vs") may follow any number, 0 included.
	units = map[string]bool{"vs": true, "ms": true, "s": true, "%": true, "bytes": true, "B": true, "KiB": true, "MiB": true}
	// nounPhraseEnds are words after which the noun of a count is over.
	nounPhraseEnds = map[string]bool{
		"of": true, "on": true, "in": true, "at": true, "with": true, "from": true, "to": true, "for": true,
		"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "that": true, "which": true, "but": true,
	}
	// countNouns are the nouns summaries count, singular to plural.
	countNouns = map[string]string{
		"URL": "URLs", "agent": "agents", "answer": "answers", "article": "articles", "block": "blocks", "byte": "bytes",
		"call": "calls", "character": "characters", "crawler": "crawlers", "day": "days", "element": "elements",
		"engine": "engines", "entity": "entities", "entry": "entries", "error": "errors", "fact": "facts", "feed": "feeds",
		"fetcher": "fetchers", "file": "files", "header": "headers", "heading": "headings", "hub": "hubs", "image": "images",
		"instruction": "instructions", "issue": "issues", "item": "items", "jump": "jumps", "lastmod": "lastmods",
		"line": "lines", "link": "links", "list": "lists", "mention": "mentions", "page": "pages", "problem": "problems",
		"profile": "profiles", "prompt": "prompts", "property": "properties", "record": "records", "redirect": "redirects",
		"request": "requests", "run": "runs", "script": "scripts", "section": "sections", "sitemap": "sitemaps",
		"source": "sources", "stylesheet": "stylesheets", "subheading": "subheadings", "subresource": "subresources",
		"table": "tables", "token": "tokens", "value": "values", "word": "words",
	}
	singulars, plurals = func() (map[string]bool, map[string]bool) {
		one, many := map[string]bool{}, map[string]bool{}
		for s, p := range countNouns {
			one[s], many[p] = true, true
		}
		return one, many
	}()
)

// internalIDs are the ids of the catalog, its gates and its pillars.
var internalIDs = sync.OnceValue(func() map[string]bool {
	ids := map[string]bool{}
	for _, c := range All() {
		ids[c.ID] = true
	}
	for _, g := range scoring.Gates {
		ids[g.ID] = true
	}
	for _, p := range scoring.Pillars {
		ids[p.ID] = true
	}
	return ids
})

func charBefore(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

func charAfter(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

func isWordChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
