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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/page"
	"github.com/geoscan/geoscan/internal/robots"
	"github.com/geoscan/geoscan/internal/scoring"
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
// evidence rule of requireResult.
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
				r := c.Eval(tc.in(t))
				t.Log(r.Summary)
				require.Equal(t, tc.status, r.Status, "summary: %s\nevidence: %v", r.Summary, r.Evidence)
				require.Contains(t, r.Summary, tc.summary)
				for k, want := range tc.ev {
					require.Contains(t, r.Evidence, k)
					require.Equal(t, fmt.Sprint(want), fmt.Sprint(r.Evidence[k]), "evidence %s", k)
				}
				requireResult(t, r)
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
	require.NotEqual(t, c.Marketing.Why, c.Engineering.Why, "%s: audiences must differ", c.ID)
	require.NotEqual(t, c.Marketing.Fix, c.Engineering.Fix, "%s: audiences must differ", c.ID)
}

// requireResult is the evidence rule every result keeps: the summary is
// one sentence, and the evidence is a map that reports can render and
// that survives JSON: at every depth only strings, bools, ints, finite
// floats, string and int64 lists, rows and nested maps of the same.
func requireResult(t *testing.T, r Result) {
	t.Helper()
	require.NotEmpty(t, r.Summary)
	require.True(t, strings.HasSuffix(r.Summary, "."), "summary %q is not a sentence", r.Summary)
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
