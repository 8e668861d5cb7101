package report

import (
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
)

// The HTML page's language. The stored report is English; the page's own
// words (headings, labels, the footer, the gone page) come from the
// catalogue's html.* messages, and the grades' descriptors and the checks'
// titles, reasons and fixes are translated as the page is built, by the
// grade and the check id, so any stored report can be shown in any
// language. Text written for the scan (summaries, findings, evidence) stays
// as it was written.

// words is the page's catalogue as the templates call it. It is an
// interface so that unbrand's walk over the view's strings does not descend
// into the catalogue.
type words interface {
	T(id string, data map[string]any) string
	Tf(id string, pairs ...any) string
}

// gradeIDs are the catalogue's names of the grades.
var gradeIDs = map[string]string{"A+": "a_plus", "A": "a", "B": "b", "C": "c", "D": "d", "F": "f"}

// gradeText is the descriptor of grade for audience in w's language, or
// english when english is not the rubric's descriptor of that grade (a
// report scored by another rubric says what its own rubric said).
func gradeText(w *i18n.Localizer, grade string, eng bool, english string) string {
	id, ok := gradeIDs[grade]
	if !ok || w.Lang() == i18n.English {
		return english
	}
	audience := scoring.Marketing
	if eng {
		audience = scoring.Engineering
	}
	for _, g := range scoring.Grades {
		if g.Grade == grade && g.Descriptor(audience) == english {
			return w.T("grade."+id+"."+string(audience), nil)
		}
	}
	return english
}

// labelIDs are the catalogue's names of the labels the view shares with
// the PDF (editions, rings, check statuses), by their English words.
var labelIDs = map[string]string{
	"Marketing edition": "html.edition.marketing", "Engineering edition": "html.edition.engineering",
	"Overall": "html.col_overall", "Search": "html.ring.search", "AI visibility": "html.ring.visibility", "AI trust": "html.ring.trust",
	"PASSED": "html.status.passed", "PARTLY": "html.status.partly", "FAILED": "html.status.failed", "N/A": "html.status.na",
	"NOT CHECKED": "html.status.not_checked", "PASS": "html.status.pass", "WARN": "html.status.warn", "FAIL": "html.status.fail",
	"ERROR": "html.status.error", "INFO": "html.status.info",
}

// localize puts the view's translatable texts in w's language.
func localize(v *view, w *i18n.Localizer) {
	quick := w.T("html.quick_win", nil)
	for i := range v.Actions {
		v.Actions[i].Quick = quick
	}
	if v.Triage != nil {
		for i := range v.Triage.Actions {
			v.Triage.Actions[i].Quick = quick
		}
	}
	if w.Lang() == i18n.English {
		return
	}
	audience := string(scoring.Marketing)
	if v.Eng {
		audience = string(scoring.Engineering)
	}
	say := func(s string) string {
		if id, ok := labelIDs[s]; ok {
			return w.T(id, nil)
		}
		return s
	}
	v.Edition = say(v.Edition)
	v.Title = w.Tf("html.title", "Site", v.Site)
	for i := range v.Rings {
		v.Rings[i].Name = say(v.Rings[i].Name)
	}
	for i := range v.Scores {
		v.Scores[i].Name = say(v.Scores[i].Name)
	}
	for i := range v.Fixes {
		v.Fixes[i].Status = say(v.Fixes[i].Status)
	}
	v.GradeText = gradeText(w, v.Grade, v.Eng, v.GradeText)
	for i := range v.Rings {
		c := &v.Rings[i]
		c.Descriptor = gradeText(w, c.Grade, v.Eng, c.Descriptor)
	}
	for i := range v.Sections {
		sec := &v.Sections[i]
		sec.Descriptor = gradeText(w, sec.Grade, v.Eng, sec.Descriptor)
		sec.Name = say(sec.Name)
		for j := range sec.Groups {
			for k := range sec.Groups[j].Checks {
				c := &sec.Groups[j].Checks[k]
				c.Status = say(c.Status)
				c.Title = w.CheckText(c.check, audience, "title", c.Title)
				if c.Why != "" {
					c.Why = w.CheckText(c.check, audience, "why", c.Why)
				}
				if c.Fix != "" {
					c.Fix = w.CheckText(c.check, audience, "fix", c.Fix)
				}
			}
		}
	}
}
