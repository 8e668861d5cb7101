package audit

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
)

// The trend names each issue cross-cutting in either audit by the same
// rule as the roll-up: new, persisting or resolved, new first, then by the
// pages affected now.
func TestSiteTrend(t *testing.T) {
	t.Parallel()
	require.Nil(t, siteTrend(&SiteView{PagesAudited: 10}, nil), "no previous audit, no trend")

	now := &SiteView{
		PagesAudited: 100,
		Score:        ptr(66.7),
		Checks: []SiteCheck{
			{ID: "title_present", Warning: 10, Failing: 20},
			{ID: "meta_description_present", Failing: 40},
			{ID: "canonical_present", Warning: 5},         // below 10 % now
			{ID: "h1_present", Passing: 100},              // fixed everywhere
			{ID: "lang_declared", Warning: 1, Failing: 9}, // exactly 10 %
		},
		CrossCutting: []CrossCuttingIssue{
			{CheckID: "meta_description_present", PagesAffected: 40, PagesAudited: 100},
			{CheckID: "title_present", PagesAffected: 30, PagesAudited: 100},
			{CheckID: "lang_declared", PagesAffected: 10, PagesAudited: 100},
		},
	}
	prev := &PreviousSite{
		ScanID: uuid.New(), CompletedAt: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
		PagesAudited: 50, Score: ptr(61.24),
		Affected: map[string]int{
			"title_present":     4, // under 10 % of 50: not cross-cutting then
			"canonical_present": 25,
			"h1_present":        5,
			"lang_declared":     12,
			"schema_present":    1, // never cross-cutting: not listed
		},
	}
	got := siteTrend(now, prev)
	require.NotNil(t, got)
	require.InDelta(t, 61.2, *got.Previous.Score, 1e-9, "the previous score rounded as the roll-up's")
	require.InDelta(t, 61.24, *prev.Score, 1e-9, "the caller's value is left as it was")
	require.InDelta(t, 66.7, *got.ScoreNow, 1e-9)
	require.Equal(t, 100, got.PagesAuditedNow)
	require.Equal(t, 50, got.Previous.PagesAudited)
	require.Equal(t, []IssueTrend{
		{CheckID: "meta_description_present", Change: IssueNew, PagesAffectedThen: 0, PagesAffectedNow: 40},
		{CheckID: "title_present", Change: IssueNew, PagesAffectedThen: 4, PagesAffectedNow: 30},
		{CheckID: "lang_declared", Change: IssuePersisting, PagesAffectedThen: 12, PagesAffectedNow: 10},
		{CheckID: "canonical_present", Change: IssueResolved, PagesAffectedThen: 25, PagesAffectedNow: 5},
		{CheckID: "h1_present", Change: IssueResolved, PagesAffectedThen: 5, PagesAffectedNow: 0},
	}, got.Issues)

	// In the report: both editions, the delta in points, a tenth apart.
	doc := &report.Stored{}
	report.AttachSite(doc, report.SiteInput{PagesAudited: 100, Trend: got.reportTrend()})
	mt, et := doc.Marketing.Site.Trend, doc.Engineering.Site.Trend
	require.NotNil(t, mt)
	require.NotNil(t, et)
	require.NotSame(t, mt, et, "each edition has its own copy")
	require.Equal(t, prev.ScanID, mt.PreviousScanID)
	require.InDelta(t, 5.5, *mt.ScoreDelta, 1e-9)
	require.Len(t, et.Issues, 5)
	require.Equal(t, "new", string(et.Issues[0].Change))
	require.Equal(t, "resolved", string(et.Issues[4].Change))

	// No score on either side: no delta.
	noScore := siteTrend(&SiteView{PagesAudited: 3}, &PreviousSite{PagesAudited: 2, Score: ptr(50.0)})
	doc = &report.Stored{}
	report.AttachSite(doc, report.SiteInput{Trend: noScore.reportTrend()})
	require.Nil(t, doc.Marketing.Site.Trend.ScoreNow)
	require.Nil(t, doc.Marketing.Site.Trend.ScoreDelta)
	require.NotNil(t, doc.Marketing.Site.Trend.Issues, "an empty list, not null")
}
