// Package report owns the report of a scan: building it from check
// results and scores for both audiences (texts from templates until a
// language model writes the summaries), the stored document, and its
// downloadable renderings (PDF).
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
}

// Build renders the report for both audiences.
func Build(in Input) Stored {
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
		r.Checks = append(r.Checks, CheckResult(o, in.Scores.Impact[o.Check.ID], audience))
	}
	r.Counts = Counts(r.Checks)
	r.Summaries = summaries(in, audience)
	r.Summaries.Provenance = TemplateProvenance()
	r.Caveats = caveats(in)
	return r
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
	top := topIssues(in, "", 2)

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
	if len(top) > 0 {
		t := top[0].Check.TextFor(audience)
		if eng {
			fmt.Fprintf(&b, " Highest-impact finding: %s (%s) — %s", top[0].Check.ID, top[0].Result.Status, top[0].Result.Summary)
		} else {
			fmt.Fprintf(&b, " The fix that would gain the most: %s, which %s today. %s",
				quoted(t.Title), statusVerb(top[0].Result.Status), top[0].Result.Summary)
		}
	}
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

// topIssues are the warn/fail outcomes (of one ring, or all when ring is
// empty) with the most impact.
func topIssues(in Input, ring scoring.Ring, n int) []checks.Outcome {
	var list []checks.Outcome
	for _, o := range in.Outcomes {
		if (ring == "" || o.Check.Ring == ring) && (o.Result.Status == checks.Warn || o.Result.Status == checks.Fail) {
			list = append(list, o)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := in.Scores.Impact[list[i].Check.ID], in.Scores.Impact[list[j].Check.ID]
		if a != b {
			return a > b
		}
		return list[i].Check.ID < list[j].Check.ID
	})
	if len(list) > n {
		list = list[:n]
	}
	return list
}
