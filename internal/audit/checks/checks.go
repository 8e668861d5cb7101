// Package checks owns the GEO check catalog: each check is a small unit
// with a stable id, its ring, pillar, weight and effort, texts for the two
// audiences, and an evaluator over a fetched site. Checks only read the
// fetched and parsed site, and for the ai_mentions pillar what the answer
// engines said (Input.Mentions, measured beforehand by package mentions
// from AISubject); they never fetch or call an engine, never score
// (package scoring rolls results up) and never depend on each other.
//
// Where things live: this file holds the types, the catalog (the list of
// pillars) and the runner; each pillar of the rubric has a file of its own
// (crawl_access.go … ai_mentions.go) that lists its checks and holds each
// check's definition directly above its evaluator; readings.go holds what
// several pillars read and the helpers they share. A new check touches its
// pillar's file and that file's test only.
package checks

import (
	"fmt"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// Status is a check verdict.
type Status string

// The verdicts. Pass, warn and fail score 1, 0.5 and 0; na, info and
// error are left out of scores. Error is a check that could not be
// measured because something it depends on failed (an answer engine that
// timed out): the summary says what, and the pillar's coverage drops.
const (
	Pass  Status = "pass"
	Warn  Status = "warn"
	Fail  Status = "fail"
	NA    Status = "na"
	Info  Status = "info"
	Error Status = "error"
)

// Score is the verdict as a number; ok is false for na and info.
func (s Status) Score() (score float64, ok bool) {
	switch s {
	case Pass:
		return 1, true
	case Warn:
		return 0.5, true
	case Fail:
		return 0, true
	}
	return 0, false
}

// Level is a coarse low/medium/high scale for effort and impact.
type Level string

// The levels.
const (
	Low    Level = "low"
	Medium Level = "medium"
	High   Level = "high"
)

// Text is what a check says to one audience.
type Text struct {
	Title string
	// Why explains why the check matters for AI answer engines.
	Why string
	// Fix says how to fix a warn or fail.
	Fix string
}

// Check is one unit of the catalog.
type Check struct {
	ID     string
	Ring   scoring.Ring
	Pillar string
	// Weight within the pillar: 10 gating, 5 high, 3 medium, 2 low, 1
	// minor, 0 for info-only checks.
	Weight float64
	// Effort is the typical effort of a fix before platform adjustment.
	Effort      Level
	Marketing   Text
	Engineering Text
	Eval        func(in *Input) Result
}

// TextFor returns the texts of an audience.
func (c *Check) TextFor(audience scoring.Audience) Text {
	if audience == scoring.Engineering {
		return c.Engineering
	}
	return c.Marketing
}

// Result is the outcome of one check on one site.
type Result struct {
	Status Status
	// Summary states what was found in one sentence, the same for every
	// audience; for na it says why the check does not apply.
	Summary  string
	Evidence map[string]any
}

// Input is what every evaluator reads.
type Input struct {
	Site *fetch.Site
	// Home is the parsed homepage; nil when the homepage is not HTML.
	Home *page.Page
	// BrandName is the brand the scan was created with (or derived).
	BrandName string
	// BrandAliases are other names of the brand (brand_aliases).
	BrandAliases []string
	// Mentions is what the answer engines said about the brand
	// (ai_mentions); nil when no answer engine is configured.
	Mentions *mentions.Result
	Now      time.Time
	// Rendered compares Home's HTML with Home as a browser rendered it;
	// the checks about what JavaScript adds judge from it. Nil when the
	// page was not rendered: RenderErr then says why when rendering was
	// tried and failed, and is empty when rendering is off, in which case
	// those checks judge from signs in the HTML.
	Rendered  *render.Diff
	RenderErr string
}

// Pages returns the parsed pages of a purpose that were fetched and are HTML.
func (in *Input) Pages(p fetch.Purpose) []*page.Page {
	var out []*page.Page
	for _, r := range in.Site.PagesFor(p) {
		if pg := in.Site.Page(r); pg != nil {
			out = append(out, pg)
		}
	}
	return out
}

// ContentPages returns the homepage and every parsed extra page.
func (in *Input) ContentPages() []*page.Page {
	var out []*page.Page
	if in.Home != nil {
		out = append(out, in.Home)
	}
	for _, r := range in.Site.Pages {
		if pg := in.Site.Page(r); pg != nil {
			out = append(out, pg)
		}
	}
	return out
}

// Outcome is a check with its result.
type Outcome struct {
	Check  *Check
	Result Result
}

// pillar is a pillar of the rubric in package scoring: its ring, its id
// and the function of its file that returns its checks in report order.
type pillar struct {
	ring   scoring.Ring
	id     string
	checks func() []*Check
}

// pillars is the catalog: the rubric's pillars in report order. A new
// check goes into its pillar's file only; a new pillar needs a line here,
// one in the rubric, a file and a test file of its own.
var pillars = []pillar{
	{scoring.RingSearch, pillarCrawlAccess, crawlAccessChecks},
	{scoring.RingSearch, pillarIndexability, indexabilityChecks},
	{scoring.RingSearch, pillarDiscovery, discoveryChecks},
	{scoring.RingSearch, pillarDelivery, deliveryChecks},

	{scoring.RingVisibility, pillarExtractability, extractabilityChecks},
	{scoring.RingVisibility, pillarAnswerStructure, answerStructureChecks},
	{scoring.RingVisibility, pillarStructuredData, structuredDataChecks},
	{scoring.RingVisibility, pillarMachineMetadata, machineMetadataChecks},

	{scoring.RingTrust, pillarEntityIdentity, entityIdentityChecks},
	{scoring.RingTrust, pillarAuthorshipFreshness, authorshipFreshnessChecks},
	{scoring.RingTrust, pillarSiteSecurity, siteSecurityChecks},
	{scoring.RingTrust, pillarContentIntegrity, contentIntegrityChecks},
	{scoring.RingTrust, pillarAIMentions, aiMentionsChecks},
}

// All returns the catalog in report order: pillar by pillar, ring by ring
// (search, visibility, trust).
func All() []*Check {
	var out []*Check
	for _, p := range pillars {
		out = append(out, p.checks()...)
	}
	return out
}

// Lookup finds a check by id.
func Lookup(id string) *Check {
	for _, c := range All() {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Run evaluates every check. A panicking evaluator yields an na result
// naming the fault instead of failing the scan: one buggy check must not
// cost the user the rest of the report.
func Run(in *Input) []Outcome {
	all := All()
	out := make([]Outcome, 0, len(all))
	for _, c := range all {
		out = append(out, Outcome{Check: c, Result: safeEval(c, in)})
	}
	return out
}

func safeEval(c *Check, in *Input) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{Status: NA, Summary: fmt.Sprintf("The check could not be evaluated because of an internal error (%v).", p), Evidence: map[string]any{"internal_error": true}}
		}
	}()
	r = c.Eval(in)
	if r.Evidence == nil {
		r.Evidence = map[string]any{}
	}
	return r
}

// Helpers for evaluators.

func pass(summary string, ev map[string]any) Result { return Result{Pass, summary, ev} }
func warn(summary string, ev map[string]any) Result { return Result{Warn, summary, ev} }
func fail(summary string, ev map[string]any) Result { return Result{Fail, summary, ev} }
func na(summary string, ev map[string]any) Result   { return Result{NA, summary, ev} }
func info(summary string, ev map[string]any) Result { return Result{Info, summary, ev} }
func errored(summary string, ev map[string]any) Result {
	return Result{Error, summary, ev}
}

// byThreshold grades a measure where higher is better: pass at or above
// passAt, warn at or above warnAt, fail below.
func byThreshold(v, passAt, warnAt float64, summary string, e map[string]any) Result {
	switch {
	case v >= passAt:
		return pass(summary, e)
	case v >= warnAt:
		return warn(summary, e)
	}
	return fail(summary, e)
}

// ev builds an evidence map from key/value pairs.
func ev(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}
