package report

import (
	"fmt"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
)

// siteSection shows what a whole-site audit covered and, first of its
// findings, the checks that fail or warn on many pages: one fix in a
// template lifts every page made from it. A homepage-only report has no
// such section.
func (d *doc) siteSection() {
	s := d.r.Site
	if s == nil {
		return
	}
	d.heading("Across the site")
	d.font(fontRegular, 10.5)
	d.color(ink)
	sample, _, _ := strings.Cut(s.Sample, "\n")
	d.para(marginL, contentW, strings.TrimSpace(fmt.Sprintf("%d pages audited of %d known (page budget %d); the crawl ended: %s. %s",
		s.PagesAudited, s.PagesKnown, s.PagesPlanned, strings.ReplaceAll(s.Stop, "_", " "), sample)))
	d.siteTrend(s.Trend)

	d.subheading("Issues on many pages")
	var issues []api.CrossCuttingIssue
	if d.r.CrossCuttingIssues != nil {
		issues = *d.r.CrossCuttingIssues
	}
	if len(issues) == 0 {
		d.font(fontRegular, 10)
		d.color(ink)
		d.para(marginL, contentW, "No check fails or warns on many of the pages audited.")
		return
	}
	for _, is := range issues {
		line := fmt.Sprintf("%s: fails or warns on %d of %d pages (%.0f %%)", d.checkName(is.CheckID),
			is.PagesAffected, is.PagesAudited, 100*float64(is.PagesAffected)/float64(max(is.PagesAudited, 1)))
		if len(is.Groups) > 0 {
			line += "; templates " + strings.Join(is.Groups[:min(len(is.Groups), 3)], ", ")
			if len(is.Groups) > 3 {
				line += fmt.Sprintf(" and %d more", len(is.Groups)-3)
			}
		}
		if is.ExpectedGain > 0 {
			line += fmt.Sprintf("; fixed everywhere it would add %.1f points to the site's score", is.ExpectedGain)
		}
		d.bullet(line+".", statusInk[api.CheckStatusFail])
		d.font(fontRegular, 8.5)
		d.color(muted)
		for _, u := range is.ExampleUrls[:min(len(is.ExampleUrls), 3)] {
			d.ensure(d.lineH())
			d.text(marginL+5, d.y, d.clipMiddle(u, contentW-5))
			d.y += d.lineH()
		}
		d.y += 1
	}
	d.worstPages()
}

// siteTrend says how the site changed since the previous whole-site audit
// of it: the site score and pages audited then and now, and each issue on
// many pages that appeared, stayed or went.
func (d *doc) siteTrend(t *api.SiteTrend) {
	if t == nil {
		return
	}
	d.subheading("Since the previous audit")
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, trendSentence(t))
	for _, is := range t.Issues {
		var line string
		ink := statusInk[api.CheckStatusWarn]
		switch is.Change {
		case api.SiteIssueNew:
			line = fmt.Sprintf("New: %s fails or warns on %s (%d then).", d.checkName(is.CheckID), plural(is.PagesAffectedNow, "page", "pages"), is.PagesAffectedThen)
			ink = statusInk[api.CheckStatusFail]
		case api.SiteIssueResolved:
			line = fmt.Sprintf("Resolved: %s fails or warns on %s (%d then).", d.checkName(is.CheckID), plural(is.PagesAffectedNow, "page", "pages"), is.PagesAffectedThen)
			ink = statusInk[api.CheckStatusPass]
		default:
			line = fmt.Sprintf("Still there: %s fails or warns on %s (%d then).", d.checkName(is.CheckID), plural(is.PagesAffectedNow, "page", "pages"), is.PagesAffectedThen)
		}
		d.bullet(line, ink)
	}
}

// trendSentence is the site score and the pages audited, then and now.
func trendSentence(t *api.SiteTrend) string {
	score := "The site score was not measured in one of the two audits"
	if t.ScoreNow != nil && t.ScoreThen != nil && t.ScoreDelta != nil {
		score = fmt.Sprintf("The site score is %.1f, %s since the previous whole-site audit of %s (%.1f)",
			*t.ScoreNow, pointsChange(*t.ScoreDelta), t.PreviousCompletedAt.UTC().Format("2 January 2006"), *t.ScoreThen)
	}
	return fmt.Sprintf("%s; %s audited, %d then.", score, plural(t.PagesAuditedNow, "page", "pages"), t.PagesAuditedThen)
}

// pointsChange is "up 5.5 points", "down 0.4 points" or "unchanged".
func pointsChange(delta float64) string {
	switch {
	case delta > 0:
		return fmt.Sprintf("up %.1f points", delta)
	case delta < 0:
		return fmt.Sprintf("down %.1f points", -delta)
	}
	return "unchanged"
}

// worstPages lists the lowest-scored pages with their templates.
func (d *doc) worstPages() {
	if d.r.WorstPages == nil || len(*d.r.WorstPages) == 0 {
		return
	}
	d.subheading("Lowest-scored pages")
	for _, p := range *d.r.WorstPages {
		d.ensure(d.lineH() + 1)
		d.font(fontBold, 9.5)
		d.color(ink)
		d.text(marginL, d.y, fmt.Sprintf("%.1f", p.Score))
		d.font(fontRegular, 9.5)
		d.text(marginL+12, d.y, d.clipMiddle(p.URL, contentW-60))
		d.color(muted)
		d.text(marginL+contentW-46, d.y, d.clip(p.Group, 46))
		d.y += d.lineH() + 1
	}
}

// checkName is how the edition names a check: its title, and in the
// engineering edition its id after it.
func (d *doc) checkName(id string) string {
	for _, c := range d.r.Checks {
		if c.ID == id {
			if d.eng {
				return c.Title + " (" + id + ")"
			}
			return c.Title
		}
	}
	if d.eng {
		return id
	}
	return "A check"
}
