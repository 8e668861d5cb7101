package audit

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/audit/report"
)

// PreviousSite is the roll-up of the previous whole-site audit of the same
// site, as its caller kept it (the scan job reads it back from the pages
// it stored). Given in Options.PreviousSite, a whole-site audit says how
// the site changed since (SiteView.Trend).
type PreviousSite struct {
	ScanID      uuid.UUID
	CompletedAt time.Time
	// PagesAudited are the pages it judged.
	PagesAudited int
	// Score is its site score; nil when it scored no page.
	Score *float64
	// Affected is, per page-level check, the judged pages it failed or
	// warned on; a check absent failed and warned on none.
	Affected map[string]int
}

// SiteTrend is how the site changed since the previous whole-site audit.
type SiteTrend struct {
	Previous PreviousSite
	// ScoreNow is this audit's site score (SiteView.Score).
	ScoreNow *float64
	// PagesAuditedNow are the pages this audit judged.
	PagesAuditedNow int
	// Issues are the checks cross-cutting in either audit: new ones
	// first, then those still there, then those resolved; most pages
	// affected now first within each.
	Issues []IssueTrend
}

// IssueTrend is one cross-cutting issue, then and now.
type IssueTrend struct {
	CheckID string
	// Change is new (cross-cutting now, not then), persisting (both) or
	// resolved (then, not now).
	Change                              string
	PagesAffectedThen, PagesAffectedNow int
}

// The changes of an issue between two audits.
const (
	IssueNew        = "new"
	IssuePersisting = "persisting"
	IssueResolved   = "resolved"
)

// isCrossCutting is the rule for a cross-cutting issue: a page-level check
// that fails or warns on bad of the audited pages, at least
// crossCuttingShare of them and at least crossCuttingPages. The trend
// applies it to the previous audit too, so new and resolved mean the same
// thing as the roll-up's list.
func isCrossCutting(bad, audited int) bool {
	return bad >= crossCuttingPages && float64(bad) >= crossCuttingShare*float64(audited)
}

// siteTrend compares the site as this audit saw it with the previous
// audit; nil without one.
func siteTrend(v *SiteView, prev *PreviousSite) *SiteTrend {
	if v == nil || prev == nil {
		return nil
	}
	t := &SiteTrend{Previous: *prev, ScoreNow: v.Score, PagesAuditedNow: v.PagesAudited}
	if prev.Score != nil {
		// Rounded as the roll-up rounds its own.
		t.Previous.Score = ptr(round1(*prev.Score))
	}
	now := map[string]int{}
	for _, c := range v.Checks {
		now[c.ID] = c.Warning + c.Failing
	}
	for _, c := range v.CrossCutting {
		change := IssueNew
		if isCrossCutting(prev.Affected[c.CheckID], prev.PagesAudited) {
			change = IssuePersisting
		}
		t.Issues = append(t.Issues, IssueTrend{
			CheckID: c.CheckID, Change: change, PagesAffectedThen: prev.Affected[c.CheckID], PagesAffectedNow: c.PagesAffected,
		})
	}
	for id, then := range prev.Affected {
		if isCrossCutting(then, prev.PagesAudited) && !isCrossCutting(now[id], v.PagesAudited) {
			t.Issues = append(t.Issues, IssueTrend{CheckID: id, Change: IssueResolved, PagesAffectedThen: then, PagesAffectedNow: now[id]})
		}
	}
	rank := map[string]int{IssueNew: 0, IssuePersisting: 1, IssueResolved: 2}
	slices.SortFunc(t.Issues, func(a, b IssueTrend) int {
		return cmp.Or(cmp.Compare(rank[a.Change], rank[b.Change]), cmp.Compare(b.PagesAffectedNow, a.PagesAffectedNow),
			cmp.Compare(b.PagesAffectedThen, a.PagesAffectedThen), strings.Compare(a.CheckID, b.CheckID))
	})
	return t
}

// reportTrend is what the report shows of the trend; nil without one.
func (t *SiteTrend) reportTrend() *report.SiteTrend {
	if t == nil {
		return nil
	}
	out := &report.SiteTrend{
		PreviousScanID: t.Previous.ScanID, PreviousCompletedAt: t.Previous.CompletedAt,
		ScoreThen: t.Previous.Score, ScoreNow: t.ScoreNow,
		PagesAuditedThen: t.Previous.PagesAudited, PagesAuditedNow: t.PagesAuditedNow,
	}
	for _, is := range t.Issues {
		out.Issues = append(out.Issues, report.SiteIssueTrend{
			CheckID: is.CheckID, Change: is.Change, PagesAffectedThen: is.PagesAffectedThen, PagesAffectedNow: is.PagesAffectedNow,
		})
	}
	return out
}
