package checks

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/page"
)

// testNow is the fixed clock of the check tests.
var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const testOrigin = "https://example.com/"

// resp builds a fetched response; headers come as name/value pairs.
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
	return &fetch.Response{
		Purpose: purpose, URL: rawURL, FinalURL: rawURL, Method: http.MethodGet,
		Status: status, Header: h, Body: []byte(body), Bytes: len(body), Duration: 50 * time.Millisecond, TTFB: 40 * time.Millisecond,
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
	return s
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

// searchChecks is the search ring: can AI engines reach the site, keep it
// in their indexes, find its pages and fetch them quickly.
func searchChecks() []*Check {
	return slices.Concat(crawlAccessChecks(), indexabilityChecks(), discoveryChecks(), deliveryChecks())
}

// visibilityRing is the visibility ring in catalog order: can an answer
// engine read the pages, find the answer in them, understand what they
// describe and pick up the metadata it shows next to a citation.
func visibilityRing() []*Check {
	return slices.Concat(extractabilityChecks(), answerStructureChecks(), structuredDataChecks(), machineMetadataChecks())
}

// trustRing is the trust ring in catalog order: is it clear who stands
// behind the site, who wrote the content and when, is the site safe to
// send people to, and is the content free of tricks aimed at the engines
// themselves.
func trustRing() []*Check {
	return slices.Concat(entityIdentityChecks(), authorshipFreshnessChecks(), siteSecurityChecks(), contentIntegrityChecks(), aiMentionsChecks())
}
