package audit

import (
	"context"

	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// A whole-site audit (Options.MaxPages above 1) crawls the site
// (package crawl) after the homepage audit, runs every page-level check on
// each page it reads, hands each page's result to Options.Pages as soon as
// it is judged (nothing is held for the whole crawl) and rolls the pages
// up into Result.SiteView. These are the types it speaks; the job that
// stores pages and the API that serves them depend on nothing else.

// PageSink receives each audited page, in the order pages are judged; an
// error stops the crawl and fails Run. It is called from one goroutine at
// a time.
type PageSink func(ctx context.Context, p PageResult) error

// PageResult is one page of a whole-site audit.
type PageResult struct {
	// Position is the page's place in the crawl, from 0 (the homepage);
	// no two pages of one crawl share it, nor their URL.
	Position int
	URL      string
	// Group is the page's template (crawl.Template), e.g.
	// "/blog/{yyyy}/{mm}/{slug}".
	Group string
	// Type is the page type read from the page (article, product,
	// category, docs, home, other).
	Type string
	// HTTPStatus is the answer's status; 0 when the request failed.
	HTTPStatus int
	// Score is the page's score from its page-level checks, 0–100; nil
	// when the page was not judged (not HTML, an error, a redirect).
	Score *float64
	// Checks are the page-level checks' results on this page.
	Checks []PageCheck
	// Error says why the page was not judged ("" when it was).
	Error string
}

// PageCheck is one check's result on one page.
type PageCheck struct {
	ID      string
	Status  string // pass, warn, fail, na, info, error
	Summary string
}

// Progress reports a whole-site audit's pages: judged so far, and planned
// (the crawl's page budget, lowered when the site has fewer pages).
type Progress func(done, planned int)

// SiteView is the site as a whole-site audit saw it.
type SiteView struct {
	// PagesKnown are the URLs the inventory held; PagesAudited the pages
	// judged; PagesPlanned the crawl's page budget.
	PagesKnown, PagesPlanned, PagesAudited int
	// Sample says how the audited pages were drawn from the known ones.
	Sample string
	// Stop is why the crawl ended (complete, page budget, bytes, time …).
	Stop string
	// CrossCutting are the checks that fail or warn on many pages, most
	// pages first.
	CrossCutting []CrossCuttingIssue
	// WorstPages are the lowest-scored pages, worst first (at most ten).
	WorstPages []PageResult
	// Groups are the templates audited with their page counts and mean
	// scores.
	Groups []GroupSummary
	// Score is the site score: the mean score of the pages judged, nil
	// when none was (docs/SCORING.md, "Whole-site scores").
	Score *float64
	// Checks are the page-level checks' results over the pages, in
	// catalog order.
	Checks []SiteCheck
	// Scores are the rubric's rings and pillars scored from Checks'
	// statuses: the page-level checks only, so they sit beside the
	// homepage audit's scores and never replace them. Nil when no page
	// was judged.
	Scores *scoring.Result
	// Trend compares the site with the previous whole-site audit of it
	// (Options.PreviousSite); nil without one.
	Trend *SiteTrend
}

// SiteCheck is one page-level check over the pages judged.
type SiteCheck struct {
	ID string
	// Status is the check's status on the site: pass when at least 90 %
	// of the pages it judged pass it, warn from 50 %, else fail; na when
	// it judged no page.
	Status                    string
	Passing, Warning, Failing int
}

// CrossCuttingIssue is a check that fails or warns on many pages.
type CrossCuttingIssue struct {
	CheckID       string
	PagesAffected int
	PagesAudited  int
	// Groups are the templates the affected pages belong to.
	Groups      []string
	ExampleURLs []string
	// ExpectedGain is the site score's gain in points if the check passed
	// on every page.
	ExpectedGain float64
}

// GroupSummary is one template of the audited pages.
type GroupSummary struct {
	Group     string
	Pages     int
	MeanScore *float64
}
