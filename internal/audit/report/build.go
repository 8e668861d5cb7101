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
	"fmt"
	"sort"
	"strings"
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
}

// For returns the report of an audience.
func (s Stored) For(audience scoring.Audience) api.Report {
	if audience == scoring.Engineering {
		return s.Engineering
	}
	return s.Marketing
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

// summaries writes the executive and ring summaries from the results.
// Only gates that actually held a ring down are called caps: a gate whose
// ring scores below its cap anyway is reported as a critical issue, so no
// sentence contradicts a score.
func summaries(in Input, audience scoring.Audience) api.Summaries {
	eng := audience == scoring.Engineering
	s := api.Summaries{Source: api.Template}
	rings := append([]scoring.RingResult(nil), in.Scores.Rings...)
	sort.SliceStable(rings, func(i, j int) bool { return rings[i].Score > rings[j].Score })
	best, worst := rings[0], rings[len(rings)-1]

	var b strings.Builder
	if eng {
		fmt.Fprintf(&b, "Overall %.1f/100 (%s, rubric %s). Rings: search %d, visibility %d, trust %d.",
			in.Scores.Overall, in.Scores.OverallGrade.Grade, in.Scores.Version,
			in.Scores.Ring(scoring.RingSearch).Score, in.Scores.Ring(scoring.RingVisibility).Score, in.Scores.Ring(scoring.RingTrust).Score)
	} else {
		fmt.Fprintf(&b, "%s scores %.1f out of 100 (grade %s) for readiness for AI answer engines.",
			in.BrandName, in.Scores.Overall, in.Scores.OverallGrade.Grade)
		if best.Score == worst.Score {
			fmt.Fprintf(&b, " All three areas score %d.", best.Score)
		} else {
			fmt.Fprintf(&b, " %s is the strongest area (%d) and %s needs the most work (%d).",
				scoring.RingNames[best.Ring], best.Score, scoring.RingNames[worst.Ring], worst.Score)
		}
	}
	if eng {
		for _, g := range in.Scores.Gates {
			if in.Scores.Ring(g.Ring).CappedBy == g.Def.ID {
				fmt.Fprintf(&b, " Gate %s (%s fails) caps %s at %d.", g.Def.ID, g.Def.CheckID, g.Ring, g.Def.Cap)
			} else {
				fmt.Fprintf(&b, " Gate %s (%s fails) also fired; %s already scores below its cap of %d.", g.Def.ID, g.Def.CheckID, g.Ring, g.Def.Cap)
			}
		}
	} else {
		for _, g := range distinctGates(in.Scores) {
			if len(g.binds) > 0 {
				fmt.Fprintf(&b, " A critical issue holds %s at %d: %s", joinAnd(g.binds), g.def.Cap, g.def.Message)
			} else {
				fmt.Fprintf(&b, " A critical issue was also found: %s", g.def.Message)
			}
		}
	}
	b.WriteString(gainSentences(in, audience))
	s.Executive = b.String()
	s.Search = ringNarrative(in, scoring.RingSearch, audience)
	s.Visibility = ringNarrative(in, scoring.RingVisibility, audience)
	s.Trust = ringNarrative(in, scoring.RingTrust, audience)
	return s
}

// gateIssue is one fired gate as a reader sees it: a gate that caps several
// rings is one issue, holding down those rings it actually bound.
type gateIssue struct {
	def   scoring.GateDef
	binds []string // ring names whose score the cap lowered
}

func distinctGates(res scoring.Result) []gateIssue {
	var out []gateIssue
	index := map[string]int{}
	for _, g := range res.Gates {
		i, ok := index[g.Def.ID]
		if !ok {
			i = len(out)
			index[g.Def.ID] = i
			out = append(out, gateIssue{def: g.Def})
		}
		if res.Ring(g.Ring).CappedBy == g.Def.ID {
			out[i].binds = append(out[i].binds, scoring.RingNames[g.Ring])
		}
	}
	return out
}

func ringNarrative(in Input, ring scoring.Ring, audience scoring.Audience) string {
	rr := in.Scores.Ring(ring)
	eng := audience == scoring.Engineering
	var scored, passed int
	for _, o := range in.Outcomes {
		if o.Check.Ring != ring {
			continue
		}
		if _, ok := o.Result.Status.Score(); ok && o.Check.Weight > 0 {
			scored++
			if o.Result.Status == checks.Pass {
				passed++
			}
		}
	}
	var b strings.Builder
	if eng {
		fmt.Fprintf(&b, "%s %d/100 (%s), coverage %.0f%%: %s.", scoring.RingNames[ring], rr.Score, rr.Grade.Grade, rr.Coverage*100, passCount(passed, scored))
	} else {
		fmt.Fprintf(&b, "%s scores %d (grade %s): %s.", scoring.RingNames[ring], rr.Score, rr.Grade.Grade, passCount(passed, scored))
	}
	for _, g := range in.Scores.Gates {
		if g.Ring != ring {
			continue
		}
		binding := rr.CappedBy == g.Def.ID
		switch {
		case eng && binding:
			fmt.Fprintf(&b, " Capped at %d by gate %s (%s fails).", g.Def.Cap, g.Def.ID, g.Def.CheckID)
		case eng:
			fmt.Fprintf(&b, " Gate %s fired (%s fails) but does not bind: the score is below its cap of %d.", g.Def.ID, g.Def.CheckID, g.Def.Cap)
		case binding:
			fmt.Fprintf(&b, " A critical issue holds the score at %d: %s", g.Def.Cap, g.Def.Message)
		default:
			fmt.Fprintf(&b, " A critical issue: %s", g.Def.Message)
		}
	}
	issues := topIssues(in, ring, 2)
	if len(issues) == 0 {
		b.WriteString(" No open issues.")
		return b.String()
	}
	names := make([]string, 0, len(issues))
	for _, o := range issues {
		if eng {
			names = append(names, o.Check.ID)
		} else {
			names = append(names, quoted(o.Check.TextFor(audience).Title))
		}
	}
	if eng {
		fmt.Fprintf(&b, " Fix first: %s.", strings.Join(names, ", "))
	} else {
		fmt.Fprintf(&b, " Fix first: %s.", joinAnd(names))
	}
	return b.String()
}

// gainSentences name the fix that would add the most to the overall score
// when made alone, and the fixes that would add more together; a fix that
// adds nothing is never called the one that gains the most.
func gainSentences(in Input, audience scoring.Audience) string {
	eng := audience == scoring.Engineering
	byID := map[string]checks.Outcome{}
	for _, o := range in.Outcomes {
		byID[o.Check.ID] = o
	}
	name := func(id string) string {
		if eng {
			return id
		}
		if o, ok := byID[id]; ok {
			return quoted(o.Check.TextFor(audience).Title)
		}
		return id
	}
	combo := in.Scores.Combination
	var b strings.Builder
	best, ok := in.Scores.BestFix()
	switch {
	case ok:
		id := best.CheckIDs[0]
		o := byID[id]
		if eng {
			fmt.Fprintf(&b, " Largest gain from one fix: %s (%s), +%.1f overall%s — %s", id, o.Result.Status, best.Gain.Overall, ringGainText(best.Gain), o.Result.Summary)
		} else {
			fmt.Fprintf(&b, " The fix that would gain the most: %s, which %s today; fixing it would add %s to the overall score. %s",
				name(id), statusVerb(o.Result.Status), points(best.Gain.Overall), forClients(o.Result.Summary))
		}
		if len(combo.CheckIDs) < 2 || combo.Gain.Overall <= best.Gain.Overall {
			break
		}
		if eng {
			fmt.Fprintf(&b, " Best combination: %s, +%.1f overall%s.", strings.Join(combo.CheckIDs, " + "), combo.Gain.Overall, ringGainText(combo.Gain))
			break
		}
		var others []string
		for _, other := range combo.CheckIDs {
			if other != id {
				others = append(others, name(other))
			}
		}
		if len(others) < len(combo.CheckIDs) {
			fmt.Fprintf(&b, " Together with %s, it would add %s.", joinAnd(others), points(combo.Gain.Overall))
		} else {
			fmt.Fprintf(&b, " Fixing %s together would add %s.", joinAnd(others), points(combo.Gain.Overall))
		}
	case len(combo.CheckIDs) > 0:
		names := make([]string, len(combo.CheckIDs))
		for i, id := range combo.CheckIDs {
			names[i] = name(id)
		}
		if eng {
			fmt.Fprintf(&b, " No single fix raises the overall score; together %s add +%.1f%s.", strings.Join(names, " + "), combo.Gain.Overall, ringGainText(combo.Gain))
		} else {
			fmt.Fprintf(&b, " No single fix would raise the score on its own: critical issues hold it down together. Fixing %s together would add %s.", joinAnd(names), points(combo.Gain.Overall))
		}
	case len(in.plan) > 0:
		o := byID[in.plan[0].CheckIDs[0]]
		if eng {
			fmt.Fprintf(&b, " No fix raises the overall score as rounded; largest open issue: %s (%s) — %s", o.Check.ID, o.Result.Status, o.Result.Summary)
		} else {
			fmt.Fprintf(&b, " No fix left would raise the overall score on its own. The largest open issue: %s, which %s today. %s",
				name(o.Check.ID), statusVerb(o.Result.Status), forClients(o.Result.Summary))
		}
	}
	return b.String()
}

// points is "1 point" or "4.4 points".
func points(p float64) string {
	if p == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%.1f points", p)
}

// ringGainText is " (search +10, trust +7)": the rings a gain lifts.
func ringGainText(g scoring.Gain) string {
	var parts []string
	for _, ring := range scoring.Rings {
		if n := g.Rings[ring]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s +%d", ring, n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
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
