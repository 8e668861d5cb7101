package report

import (
	"math"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
)

// SiteInput is what a whole-site audit adds to the report: what the crawl
// covered and the checks that fail or warn on many pages.
type SiteInput struct {
	PagesKnown, PagesPlanned, PagesAudited int
	Sample, Stop                           string
	Issues                                 []SiteIssue
	// Worst are the lowest-scored pages, worst first.
	Worst []SitePage
	// Trend compares the site with the previous whole-site audit of it;
	// nil when there is none.
	Trend *SiteTrend
}

// SiteTrend is how the site changed since the previous whole-site audit.
type SiteTrend struct {
	PreviousScanID                    uuid.UUID
	PreviousCompletedAt               time.Time
	ScoreThen, ScoreNow               *float64
	PagesAuditedThen, PagesAuditedNow int
	// Issues are the checks cross-cutting in either audit, in the order
	// shown.
	Issues []SiteIssueTrend
}

// SiteIssueTrend is one cross-cutting issue, then and now.
type SiteIssueTrend struct {
	CheckID string
	// Change is new, persisting or resolved.
	Change                              string
	PagesAffectedThen, PagesAffectedNow int
}

// SitePage is one scored page of a whole-site audit.
type SitePage struct {
	URL, Group string
	Score      float64
}

// SiteIssue is a check that fails or warns on many pages.
type SiteIssue struct {
	CheckID                     string
	PagesAffected, PagesAudited int
	Groups, ExampleURLs         []string
	ExpectedGain                float64
}

// AttachSite adds a whole-site audit's coverage, cross-cutting issues and
// worst pages to both editions, in the order given.
func AttachSite(doc *Stored, in SiteInput) {
	issues := make([]api.CrossCuttingIssue, 0, len(in.Issues))
	for _, is := range in.Issues {
		issues = append(issues, api.CrossCuttingIssue{
			CheckID: is.CheckID, PagesAffected: is.PagesAffected, PagesAudited: is.PagesAudited,
			Groups: nonNilStrings(is.Groups), ExampleUrls: nonNilStrings(is.ExampleURLs), ExpectedGain: is.ExpectedGain,
		})
	}
	worst := make([]api.WorstPage, 0, len(in.Worst))
	for _, p := range in.Worst {
		worst = append(worst, api.WorstPage{URL: p.URL, Group: p.Group, Score: p.Score})
	}
	for _, r := range []*api.Report{&doc.Marketing, &doc.Engineering} {
		r.Site = &api.SiteCoverage{
			PagesKnown: in.PagesKnown, PagesPlanned: in.PagesPlanned, PagesAudited: in.PagesAudited,
			Sample: in.Sample, Stop: in.Stop, Trend: siteTrend(in.Trend),
		}
		own := append([]api.CrossCuttingIssue(nil), issues...)
		r.CrossCuttingIssues = &own
		pages := append([]api.WorstPage(nil), worst...)
		r.WorstPages = &pages
	}
}

// siteTrend is the contract's trend, its own copy for each edition; nil
// without one.
func siteTrend(t *SiteTrend) *api.SiteTrend {
	if t == nil {
		return nil
	}
	out := &api.SiteTrend{
		PreviousScanID: t.PreviousScanID, PreviousCompletedAt: t.PreviousCompletedAt.UTC(),
		ScoreThen: copyScore(t.ScoreThen), ScoreNow: copyScore(t.ScoreNow),
		PagesAuditedThen: t.PagesAuditedThen, PagesAuditedNow: t.PagesAuditedNow,
		Issues: make([]api.SiteIssueTrend, 0, len(t.Issues)),
	}
	if t.ScoreThen != nil && t.ScoreNow != nil {
		// Both are rounded to a tenth; so is their difference.
		d := math.Round((*t.ScoreNow-*t.ScoreThen)*10) / 10
		out.ScoreDelta = &d
	}
	for _, is := range t.Issues {
		out.Issues = append(out.Issues, api.SiteIssueTrend{
			CheckID: is.CheckID, Change: api.SiteIssueTrendChange(is.Change),
			PagesAffectedThen: is.PagesAffectedThen, PagesAffectedNow: is.PagesAffectedNow,
		})
	}
	return out
}

func copyScore(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
