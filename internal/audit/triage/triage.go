// Package triage owns the Site Triage dossier of a completed scan: what the
// site is built with (fingerprints plus an in-house table that decides the
// platform triple), how complex it is, its risk by lens, the evidence
// ledger of every finding, and the priority actions ranked by the points
// they add to the overall score (the scan re-scored with the fixes made,
// by package scoring) against the effort they take on that platform. It
// reads the fetched site, the check outcomes and their scores; it never
// fetches.
//
// The stored dossier is the contract's shape: Stored holds gen/api's
// TriageDossier once per audience, and the API serves it as stored. So
// openapi.yaml's TriageDossier is also the format of triage_dossiers.body;
// testdata/stored.shape.golden pins it, and changing it means recomputing
// or migrating the dossiers already stored. Besides the handlers, only this
// package and internal/audit/report may import gen/api (.golangci.yaml).
package triage

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/net/publicsuffix"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// SchemaVersion is the shape of the dossier; it changes with the shape.
const SchemaVersion = "1.1"

// Input is what a dossier is built from.
type Input struct {
	ScanID    uuid.UUID
	URL       string
	BrandName string
	Site      *fetch.Site
	Outcomes  []checks.Outcome
	Scores    scoring.Result
	// Caveats are added by the caller (a recomputation from a fresh fetch).
	Caveats []string
}

// Stored is the document kept in triage_dossiers.body: the dossier once per
// audience, so the facts are, by construction, the same in both.
type Stored struct {
	Marketing   api.TriageDossier `json:"marketing"`
	Engineering api.TriageDossier `json:"engineering"`
}

// For returns the dossier of an audience.
func (s Stored) For(audience scoring.Audience) api.TriageDossier {
	if audience == scoring.Engineering {
		return s.Engineering
	}
	return s.Marketing
}

// Build computes the dossier for both audiences. A panic in any part is
// returned as an error: a scan completes without triage rather than fails.
func Build(in Input) (out Stored, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("triage panicked: %v", r)
		}
	}()
	f := analyse(in)
	return Stored{Marketing: f.render(in, scoring.Marketing), Engineering: f.render(in, scoring.Engineering)}, nil
}

// facts are everything audience-independent: buckets, levels and order.
type facts struct {
	det        Detection
	complexity complexityResult
	lenses     []lensResult
	findings   []finding
	actions    []action
	caveats    []caveat
	byID       map[string]checks.Outcome
}

type finding struct {
	id, category string
	status       api.TriageFindingStatus
	impact       checks.Level // "" = null
	effort       checks.Level // "" = null
	outcome      *checks.Outcome
	platform     *platformFinding
}

type action struct {
	outcome checks.Outcome
	impact  checks.Level // of what the check loses now (scoring.Result.Impact)
	effort  checks.Level
	// gain is what fixing it alone adds to the overall score; inOrder what
	// its step adds with the actions ranked above made; with the actions
	// of its step that gain only together with it.
	gain, inOrder float64
	with          []string
	lens          string
	quickWin      bool
}

func analyse(in Input) facts {
	f := facts{det: Detect(in.Site), byID: map[string]checks.Outcome{}}
	for _, o := range in.Outcomes {
		f.byID[o.Check.ID] = o
	}
	f.complexity = complexityOf(in.Site, f.det, f.byID)
	f.lenses = lenses(f.det, in.Outcomes)

	var checkFindings []finding
	for i := range in.Outcomes {
		o := in.Outcomes[i]
		fd := finding{id: o.Check.ID, category: o.Check.Pillar, outcome: &in.Outcomes[i]}
		points := in.Scores.Impact[o.Check.ID]
		switch o.Result.Status {
		case checks.Warn, checks.Fail:
			fd.status = api.Weakness
			fd.impact = checks.Level(scoring.ImpactLevel(points))
			fd.effort = effortFor(o.Check, f.det)
			if points > 0 {
				f.actions = append(f.actions, action{outcome: o, impact: fd.impact, effort: fd.effort, lens: lensOf(o.Check)})
			}
		case checks.Pass:
			fd.status = api.Neutral
			if o.Check.Weight >= 3 {
				fd.status = api.Strength
				fd.impact = checks.Medium
				if o.Check.Weight >= 5 {
					fd.impact = checks.High
				}
			}
		case checks.NA:
			fd.status = api.Neutral
			if unmeasured(o) {
				fd.status = api.Unknown
			}
		case checks.Error:
			// Not measured this time (an answer engine failed).
			fd.status = api.Unknown
		default:
			fd.status = api.Neutral
		}
		checkFindings = append(checkFindings, fd)
	}
	f.findings = append(platformFindings(f.det, f.complexity, f.byID, f.lenses), checkFindings...)

	f.actions = rankActions(f.actions, in.Scores)
	for i := range f.actions {
		a := &f.actions[i]
		a.quickWin = a.impact == checks.High && a.effort == checks.Low
	}
	f.caveats = caveats(in, f)
	return f
}

// unmeasured reports a check that was not run rather than not applicable:
// the language-model checks without an engine, field data without CrUX.
func unmeasured(o checks.Outcome) bool {
	return o.Check.Pillar == "ai_mentions" || o.Check.ID == "crux_field_vitals"
}

// complexityResult is the bucket and the signals that raised it.
type complexityResult struct {
	bucket  string
	signals []string
}

// complexityOf sums points over the documented signals, each adding up to
// three, and picks the bucket from the sum.
func complexityOf(site *fetch.Site, det Detection, byID map[string]checks.Outcome) complexityResult {
	var res complexityResult
	points := 0
	add := func(n int, signal string) {
		if n > 0 {
			points += n
			res.signals = append(res.signals, signal)
		}
	}
	step := func(v int, limits ...int) int { // limits ascending; how many v reaches
		n := 0
		for _, l := range limits {
			if v >= l {
				n++
			}
		}
		return n
	}
	add(step(len(det.Technologies), 8, 15, 25), "many technologies")
	hosts, scripts, inlineJS, textBytes := scriptFacts(site)
	add(step(hosts, 4, 9, 16), "third-party script hosts")
	// External bundles are not downloaded; each counts as a typical 30 KiB.
	// An empty shell (no text at all) counts as the heaviest ratio.
	add(step((inlineJS+scripts*(30<<10))/max(textBytes, 1), 10, 40), "script weight over visible text")
	switch status(byID, "js_rendering_dependence") {
	case checks.Fail:
		add(2, "client-side rendering")
	case checks.Warn:
		add(1, "client-side rendering")
	}
	if det.Builder != nil {
		add(1, "page builder")
	}
	if det.Headless {
		add(2, "headless CMS")
	}
	langs := map[string]bool{}
	if site.HomePage != nil {
		for _, a := range site.HomePage.Alternates {
			if a.Hreflang != "" {
				langs[strings.ToLower(a.Hreflang)] = true
			}
		}
	}
	add(step(len(langs), 3, 10), "several languages")
	add(step(site.SitemapTotal, 100, 5000, 100000), "sitemap size")
	if det.BotManagement {
		add(1, "edge bot management")
	}
	switch {
	case points <= 2:
		res.bucket = "simple"
	case points <= 5:
		res.bucket = "moderate"
	case points <= 8:
		res.bucket = "complex"
	default:
		res.bucket = "enterprise"
	}
	return res
}

// scriptFacts counts third-party script hosts (by registrable domain),
// external scripts, inline script bytes and visible text bytes over the
// fetched HTML pages.
func scriptFacts(site *fetch.Site) (hosts, scripts, inlineJS, textBytes int) {
	own := registrable(site.Target)
	seen := map[string]bool{}
	pages := []*fetch.Response{site.Home}
	pages = append(pages, site.Pages...)
	for _, r := range pages {
		p := site.Page(r)
		if r == site.Home {
			p = site.HomePage
		}
		if p == nil {
			continue
		}
		inlineJS += p.InlineJSBytes
		textBytes += len(p.Text)
		for _, s := range p.Scripts {
			if s.Src == "" {
				continue
			}
			scripts++
			u, err := url.Parse(s.Src)
			if err != nil || u.Host == "" {
				continue
			}
			if d := registrable(u); d != own && !seen[d] {
				seen[d] = true
			}
		}
	}
	return len(seen), scripts, inlineJS, textBytes
}

func registrable(u *url.URL) string {
	if u == nil {
		return ""
	}
	h := u.Hostname()
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}

func status(byID map[string]checks.Outcome, id string) checks.Status {
	if o, ok := byID[id]; ok {
		return o.Result.Status
	}
	return checks.NA
}
