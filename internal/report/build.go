// Package report owns the report of a scan: building it from check
// results and scores for both audiences (texts from templates until a
// language model writes the summaries), the stored document, and its
// downloadable renderings (PDF).
package report

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/checks"
	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/scoring"
)

// Stored is the document kept in reports.body: the report rendered once
// per audience, so serving one is a lookup and the numbers are, by
// construction, the same in both.
type Stored struct {
	Marketing   api.Report `json:"marketing"`
	Engineering api.Report `json:"engineering"`
}

// For returns the report of an audience.
func (s Stored) For(audience api.Audience) api.Report {
	if audience == api.AudienceEngineering {
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
}

// Build renders the report for both audiences.
func Build(in Input) Stored {
	fetches := FetchSummary(in.Site)
	return Stored{
		Marketing:   build(in, "marketing", fetches),
		Engineering: build(in, "engineering", fetches),
	}
}

func build(in Input, audience string, fetches api.FetchSummary) api.Report {
	r := api.Report{
		ScanID: in.ScanID, URL: in.URL, BrandName: in.BrandName, Audience: api.ReportAudience(audience),
		ScoringVersion: in.Scores.Version, GeneratedAt: in.GeneratedAt.UTC(),
		OverallScore: in.Scores.Overall, OverallGrade: api.Grade(in.Scores.OverallGrade.Grade),
		GradeDescriptor: descriptor(in.Scores.OverallGrade, audience),
		GatesFired:      []api.Gate{},
		Fetch:           fetches,
	}
	for _, ring := range scoring.Rings {
		rr := ringResult(in.Scores.Ring(ring), audience)
		switch ring {
		case "search":
			r.Rings.Search = rr
		case "visibility":
			r.Rings.Visibility = rr
		case "trust":
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
	return r
}

func descriptor(g scoring.GradeBand, audience string) string {
	if audience == "engineering" {
		return g.Engineering
	}
	return g.Marketing
}

func ringResult(rr scoring.RingResult, audience string) api.RingResult {
	out := api.RingResult{
		Ring: api.Ring(rr.Ring), Score: rr.Score, Grade: api.Grade(rr.Grade.Grade),
		GradeDescriptor: descriptor(rr.Grade, audience), Coverage: rr.Coverage, Pillars: []api.Pillar{},
	}
	if rr.CappedBy != "" {
		c := rr.CappedBy
		out.CappedBy = &c
	}
	for _, p := range rr.Pillars {
		desc := p.Def.Marketing
		if audience == "engineering" {
			desc = p.Def.Engineering
		}
		out.Pillars = append(out.Pillars, api.Pillar{
			ID: p.Def.ID, Name: p.Def.Name, Ring: api.Ring(p.Def.Ring), Score: p.Score,
			Weight: p.Def.Weight, Coverage: p.Coverage, Description: desc, CheckCount: p.CheckCount,
		})
	}
	return out
}

// CheckResult renders one outcome for an audience.
func CheckResult(o checks.Outcome, impact float64, audience string) api.CheckResult {
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
		if r.Method != http.MethodHead && r.OK() && r.IsHTML() {
			out.Pages++
		}
		out.Fetches = append(out.Fetches, rec)
	}
	return out
}

// summaries writes the executive and ring summaries from the results.
func summaries(in Input, audience string) api.Summaries {
	eng := audience == "engineering"
	s := api.Summaries{Source: api.Template}
	rings := append([]scoring.RingResult(nil), in.Scores.Rings...)
	sort.SliceStable(rings, func(i, j int) bool { return rings[i].Score > rings[j].Score })
	best, worst := rings[0], rings[len(rings)-1]
	top := topIssues(in, "", 2)

	var b strings.Builder
	if eng {
		fmt.Fprintf(&b, "Overall %.1f/100 (%s, rubric %s). Rings: search %d, visibility %d, trust %d.",
			in.Scores.Overall, in.Scores.OverallGrade.Grade, in.Scores.Version,
			in.Scores.Ring("search").Score, in.Scores.Ring("visibility").Score, in.Scores.Ring("trust").Score)
	} else {
		fmt.Fprintf(&b, "%s scores %.1f out of 100 (grade %s) for readiness for AI answer engines. %s is the strongest area (%d) and %s needs the most work (%d).",
			in.BrandName, in.Scores.Overall, in.Scores.OverallGrade.Grade,
			scoring.RingNames[best.Ring], best.Score, strings.ToLower(scoring.RingNames[worst.Ring]), worst.Score)
	}
	if len(in.Scores.Gates) > 0 {
		g := in.Scores.Gates[0]
		if eng {
			fmt.Fprintf(&b, " Gate %s fired (%s failed): %s ring capped at %d.", g.Def.ID, g.Def.CheckID, g.Ring, g.Def.Cap)
		} else {
			fmt.Fprintf(&b, " A critical issue limits the score: %s", g.Def.Message)
		}
	}
	if len(top) > 0 {
		t := top[0].Check.TextFor(audience)
		if eng {
			fmt.Fprintf(&b, " Highest-impact finding: %s (%s) — %s", top[0].Check.ID, top[0].Result.Status, top[0].Result.Summary)
		} else {
			fmt.Fprintf(&b, " The biggest opportunity: %s. %s", strings.TrimSuffix(t.Title, "."), top[0].Result.Summary)
		}
	}
	s.Executive = b.String()
	s.Search = ringNarrative(in, "search", audience)
	s.Visibility = ringNarrative(in, "visibility", audience)
	s.Trust = ringNarrative(in, "trust", audience)
	return s
}

func ringNarrative(in Input, ring, audience string) string {
	rr := in.Scores.Ring(ring)
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
	if audience == "engineering" {
		fmt.Fprintf(&b, "%s %d/100 (%s), coverage %.0f%%: %d of %d scored checks pass.", ring, rr.Score, rr.Grade.Grade, rr.Coverage*100, passed, scored)
	} else {
		fmt.Fprintf(&b, "%s scores %d (%s): %d of %d scored checks pass.", scoring.RingNames[ring], rr.Score, rr.Grade.Grade, passed, scored)
	}
	if rr.CappedBy != "" {
		fmt.Fprintf(&b, " Capped by %s.", rr.CappedBy)
	}
	issues := topIssues(in, ring, 2)
	if len(issues) == 0 {
		b.WriteString(" No open issues.")
		return b.String()
	}
	names := make([]string, 0, len(issues))
	for _, o := range issues {
		if audience == "engineering" {
			names = append(names, o.Check.ID)
		} else {
			names = append(names, strings.ToLower(strings.TrimSuffix(o.Check.TextFor(audience).Title, ".")))
		}
	}
	fmt.Fprintf(&b, " Fix first: %s.", strings.Join(names, "; "))
	return b.String()
}

// topIssues are the warn/fail outcomes (of one ring, or all when ring is
// empty) with the most impact.
func topIssues(in Input, ring string, n int) []checks.Outcome {
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
