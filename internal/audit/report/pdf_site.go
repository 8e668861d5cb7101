package report

import (
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
	d.heading(d.tr("html.across"))
	d.font(fontRegular, 10.5)
	d.color(ink)
	sample, _, _ := strings.Cut(s.Sample, "\n")
	d.para(marginL, contentW, strings.TrimSpace(d.tr("pdf.site_coverage", "Audited", d.int(s.PagesAudited), "Known", d.int(s.PagesKnown),
		"Budget", d.int(s.PagesPlanned), "Stop", d.known("pdf.stop."+s.Stop, strings.ReplaceAll(s.Stop, "_", " ")))+" "+sample))
	d.siteTrend(s.Trend)

	d.subheading(d.tr("html.many_pages"))
	var issues []api.CrossCuttingIssue
	if d.r.CrossCuttingIssues != nil {
		issues = *d.r.CrossCuttingIssues
	}
	if len(issues) == 0 {
		d.font(fontRegular, 10)
		d.color(ink)
		d.para(marginL, contentW, d.tr("html.no_many_pages"))
		return
	}
	for _, is := range issues {
		line := d.tr("pdf.site_issue", "Check", d.checkName(is.CheckID), "Affected", d.int(is.PagesAffected), "Audited", d.int(is.PagesAudited),
			"Share", d.num(100*float64(is.PagesAffected)/float64(max(is.PagesAudited, 1)), 0))
		if len(is.Groups) > 0 {
			groups := strings.Join(is.Groups[:min(len(is.Groups), 3)], ", ")
			if len(is.Groups) > 3 {
				groups = d.tr("pdf.site_more_templates", "Templates", groups, "More", d.int(len(is.Groups)-3))
			}
			line += "; " + d.tr("pdf.site_templates", "Templates", groups)
		}
		if is.ExpectedGain > 0 {
			line += "; " + d.tr("pdf.site_gain", "Points", d.num(is.ExpectedGain, 1))
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
	d.subheading(d.tr("html.since_previous"))
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, d.trendSentence(t))
	for _, is := range t.Issues {
		change := "still"
		ink := statusInk[api.CheckStatusWarn]
		switch is.Change {
		case api.SiteIssueNew:
			change = "new"
			ink = statusInk[api.CheckStatusFail]
		case api.SiteIssueResolved:
			change = "resolved"
			ink = statusInk[api.CheckStatusPass]
		}
		d.bullet(d.tr("pdf.trend_issue", "Change", d.tr("pdf.trend."+change), "Check", d.checkName(is.CheckID),
			"Pages", d.count("pdf.pages", is.PagesAffectedNow), "Then", d.int(is.PagesAffectedThen)), ink)
	}
}

// trendSentence is the site score and the pages audited, then and now.
func trendSentence(t *api.SiteTrend) string {
	return (&doc{}).trendSentence(t)
}

// trendSentence is the package's trendSentence in the document's
// language.
func (d *doc) trendSentence(t *api.SiteTrend) string {
	score := d.tr("pdf.trend_unmeasured")
	if t.ScoreNow != nil && t.ScoreThen != nil && t.ScoreDelta != nil {
		score = d.tr("pdf.trend_score", "Now", d.num(*t.ScoreNow, 1), "Change", d.pointsChange(*t.ScoreDelta),
			"Date", d.day(t.PreviousCompletedAt), "Then", d.num(*t.ScoreThen, 1))
	}
	return d.tr("pdf.trend_pages", "Score", score, "Pages", d.count("pdf.pages", t.PagesAuditedNow), "Then", d.int(t.PagesAuditedThen))
}

// pointsChange is "up 5.5 points", "down 0.4 points" or "unchanged".
func (d *doc) pointsChange(delta float64) string {
	switch {
	case delta > 0:
		return d.tr("pdf.points_up", "Points", d.num(delta, 1))
	case delta < 0:
		return d.tr("pdf.points_down", "Points", d.num(-delta, 1))
	}
	return d.tr("pdf.points_same")
}

// worstPages lists the lowest-scored pages with their templates.
func (d *doc) worstPages() {
	if d.r.WorstPages == nil || len(*d.r.WorstPages) == 0 {
		return
	}
	d.subheading(d.tr("html.lowest"))
	for _, p := range *d.r.WorstPages {
		d.ensure(d.lineH() + 1)
		d.font(fontBold, 9.5)
		d.color(ink)
		d.text(marginL, d.y, d.num(p.Score, 1))
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
			title := d.checkText(c.ID, "title", c.Title)
			if d.eng {
				return title + " (" + id + ")"
			}
			return title
		}
	}
	if d.eng {
		return id
	}
	return d.tr("pdf.a_check")
}
