// Package report owns the report of a scan: building it from check
// results and scores for both audiences (texts from templates until a
// language model writes the summaries), the stored document, and its
// renderings: the downloadable PDF, and the HTML page a share link serves
// (WriteHTML, sent with HTMLHeaders; no script, one stylesheet the
// Content-Security-Policy names by its hash).
//
// The stored document is the contract's shape: Stored holds gen/api's
// Report once per audience, and the API serves it as stored. So
// openapi.yaml's Report is also the format of reports.body;
// testdata/stored.shape.golden pins it, and changing it means migrating the
// reports already stored. Besides the handlers, only this package and
// internal/audit/triage may import gen/api (.golangci.yaml).
package report

import (
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// Stored is the document kept in reports.body: the report rendered once
// per audience, so serving one is a lookup and the numbers are, by
// construction, the same in both.
type Stored struct {
	Marketing   api.Report `json:"marketing"`
	Engineering api.Report `json:"engineering"`
	// AgentReadiness is the agent-readiness lens (agent.go), the same for
	// both audiences and outside the scores; nil in reports made before
	// it existed.
	AgentReadiness *AgentReadiness `json:"agent_readiness,omitempty"`
	// Competitors and ShareOfVoice are the competitor benchmark
	// (competitors.go), the same for both audiences; nil when the scan
	// named no competitor.
	Competitors  *[]api.CompetitorAudit `json:"competitors,omitempty"`
	ShareOfVoice *api.ShareOfVoice      `json:"share_of_voice,omitempty"`
}

// For returns the report of an audience.
func (s Stored) For(audience scoring.Audience) api.Report {
	r := s.Marketing
	if audience == scoring.Engineering {
		r = s.Engineering
	}
	// The lens and the benchmark are stored once for both editions.
	r.AgentReadiness = s.AgentReadiness.contract()
	r.Competitors, r.ShareOfVoice = s.Competitors, s.ShareOfVoice
	return r
}

// Input is what a report is built from.
type Input struct {
	ScanID      uuid.UUID
	URL         string
	BrandName   string
	GeneratedAt time.Time
	Outcomes    []checks.Outcome
	Scores      scoring.Result
	Site        *fetch.Site
	// Caveats are what limits the report, in sentences (no answer engine
	// configured, …); the report adds none of its own.
	Caveats []string
	// Language is the language the summaries are written in (an i18n
	// tag; English when empty or unsupported). The rest of the stored
	// report is English.
	Language string

	// plan is Scores.Plan without costs: the fixes in the order they gain,
	// once per build.
	plan []scoring.Fix
}

// Build renders the report for both audiences.
func Build(in Input) Stored {
	in.plan = in.Scores.Plan(nil)
	fetches := FetchSummary(in.Site)
	return Stored{
		Marketing:   build(in, scoring.Marketing, fetches),
		Engineering: build(in, scoring.Engineering, fetches),
	}
}

func build(in Input, audience scoring.Audience, fetches api.FetchSummary) api.Report {
	r := api.Report{
		ScanID: in.ScanID, URL: in.URL, BrandName: in.BrandName, Audience: api.ReportAudience(audience),
		ScoringVersion: in.Scores.Version, GeneratedAt: in.GeneratedAt.UTC(),
		OverallScore: in.Scores.Overall, OverallGrade: api.Grade(in.Scores.OverallGrade.Grade),
		GradeDescriptor: in.Scores.OverallGrade.Descriptor(audience),
		GatesFired:      []api.Gate{},
		Fetch:           fetches,
	}
	for _, ring := range scoring.Rings {
		rr := ringResult(in.Scores.Ring(ring), audience)
		switch ring {
		case scoring.RingSearch:
			r.Rings.Search = rr
		case scoring.RingVisibility:
			r.Rings.Visibility = rr
		case scoring.RingTrust:
			r.Rings.Trust = rr
		}
	}
	for _, g := range in.Scores.Gates {
		r.GatesFired = append(r.GatesFired, api.Gate{ID: g.Def.ID, Ring: api.Ring(g.Ring), CheckID: g.Def.CheckID, Cap: g.Def.Cap, Message: g.Def.Message})
	}
	r.Checks = make([]api.CheckResult, 0, len(in.Outcomes))
	for _, o := range in.Outcomes {
		c := CheckResult(o, in.Scores.Impact[o.Check.ID], audience)
		if g, ok := in.Scores.Gains[o.Check.ID]; ok {
			c.ExpectedGain, c.ExpectedRingGains = &g.Overall, ringGains(g)
		}
		r.Checks = append(r.Checks, c)
	}
	r.BestCombination = &api.FixCombination{
		CheckIds: append([]string{}, in.Scores.Combination.CheckIDs...), ExpectedGain: in.Scores.Combination.Gain.Overall,
		ExpectedRingGains: *ringGains(in.Scores.Combination.Gain),
	}
	r.Counts = Counts(r.Checks)
	r.Summaries = summaries(in, audience)
	r.Summaries.Provenance = TemplateProvenance()
	r.Caveats = caveats(in)
	if audience == scoring.Marketing {
		for i, c := range *r.Caveats {
			(*r.Caveats)[i] = forClients(c)
		}
	}
	return r
}

func ringGains(g scoring.Gain) *api.RingGains {
	return &api.RingGains{Search: g.Rings[scoring.RingSearch], Visibility: g.Rings[scoring.RingVisibility], Trust: g.Rings[scoring.RingTrust]}
}

func ringResult(rr scoring.RingResult, audience scoring.Audience) api.RingResult {
	out := api.RingResult{
		Ring: api.Ring(rr.Ring), Score: rr.Score, Grade: api.Grade(rr.Grade.Grade),
		GradeDescriptor: rr.Grade.Descriptor(audience), Coverage: rr.Coverage, Pillars: []api.Pillar{},
	}
	if rr.CappedBy != "" {
		c := rr.CappedBy
		out.CappedBy = &c
	}
	for _, p := range rr.Pillars {
		out.Pillars = append(out.Pillars, api.Pillar{
			ID: p.Def.ID, Name: p.Def.Name, Ring: api.Ring(p.Def.Ring), Score: p.Score,
			Weight: p.Def.Weight, Coverage: p.Coverage, Description: p.Def.Description(audience), CheckCount: p.CheckCount,
		})
	}
	return out
}

// CheckResult renders one outcome for an audience.
func CheckResult(o checks.Outcome, impact float64, audience scoring.Audience) api.CheckResult {
	t := o.Check.TextFor(audience)
	out := api.CheckResult{
		ID: o.Check.ID, Title: t.Title, Ring: api.Ring(o.Check.Ring), Pillar: o.Check.Pillar,
		Status: api.CheckStatus(o.Result.Status), Weight: o.Check.Weight,
		Impact: api.Level(scoring.ImpactLevel(impact)), Effort: api.Level(o.Check.Effort),
		Summary: o.Result.Summary, Evidence: o.Result.Evidence, WhyItMatters: t.Why,
	}
	if audience == scoring.Marketing {
		out.Summary = forClients(out.Summary)
	}
	if v, ok := o.Result.Status.Score(); ok {
		out.Score = &v
	}
	if o.Result.Status == checks.Warn || o.Result.Status == checks.Fail {
		fix := t.Fix
		out.Recommendation = &fix
	}
	if out.Evidence == nil {
		out.Evidence = map[string]any{}
	}
	return out
}

// Counts tallies statuses.
func Counts(list []api.CheckResult) api.CheckCounts {
	var c api.CheckCounts
	for _, r := range list {
		switch r.Status {
		case api.CheckStatusPass:
			c.Pass++
		case api.CheckStatusWarn:
			c.Warn++
		case api.CheckStatusFail:
			c.Fail++
		case api.CheckStatusNa:
			c.Na++
		case api.CheckStatusInfo:
			c.Info++
		case api.CheckStatusError:
			c.Error = countOne(c.Error)
		}
	}
	return c
}

// FetchSummary lists every fetch of the audit as evidence.
func FetchSummary(site *fetch.Site) api.FetchSummary {
	out := api.FetchSummary{Fetches: []api.FetchRecord{}}
	if site == nil {
		return out
	}
	out.DurationMs = int(site.Elapsed.Milliseconds())
	for _, r := range site.All {
		rec := api.FetchRecord{
			URL: r.URL, Purpose: string(r.Purpose), Bytes: r.Bytes,
			DurationMs: int(r.Duration.Milliseconds()), Redirects: []string{},
		}
		if r.Agent != "" {
			rec.Purpose = string(r.Purpose) + ":" + r.Agent
		}
		if r.Status != 0 {
			s := r.Status
			rec.StatusCode = &s
		}
		for _, h := range r.Redirects {
			rec.Redirects = append(rec.Redirects, h.URL)
		}
		if r.Err != nil {
			e := r.ErrorText()
			rec.Error = &e
		}
		out.Bytes += r.Bytes
		out.Fetches = append(out.Fetches, rec)
	}
	// Pages are those the checks read: the homepage and the extra pages
	// (about, contact, articles …) that parsed as HTML. Probes of the
	// homepage under other user agents, the not-found probe and text files
	// are requests, not pages.
	if site.HomePage != nil {
		out.Pages++
	}
	for _, r := range site.Pages {
		if site.Page(r) != nil {
			out.Pages++
		}
	}
	return out
}

// topIssues are the warn/fail outcomes (of one ring, or all when ring is
// empty) in the order of the plan: first the fixes that add the most to
// the overall score, each re-scored with those before it made, then those
// that add nothing, by what they lose.
func topIssues(in Input, ring scoring.Ring, n int) []checks.Outcome {
	byID := map[string]checks.Outcome{}
	for _, o := range in.Outcomes {
		if (ring == "" || o.Check.Ring == ring) && (o.Result.Status == checks.Warn || o.Result.Status == checks.Fail) {
			byID[o.Check.ID] = o
		}
	}
	var list []checks.Outcome
	for _, step := range in.plan {
		for _, id := range step.CheckIDs {
			if o, ok := byID[id]; ok && len(list) < n {
				list = append(list, o)
				delete(byID, id)
			}
		}
	}
	// Warned and failed checks that do not weigh are not in the plan.
	for _, o := range in.Outcomes {
		if _, ok := byID[o.Check.ID]; ok && len(list) < n {
			list = append(list, o)
		}
	}
	return list
}
