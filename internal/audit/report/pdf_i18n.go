package report

import (
	"strconv"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
)

// The PDF's language. The PDF's own words (headings, labels, the cover,
// the footer, the sentences it writes around numbers) are the catalogue's
// pdf.* messages, or its html.* ones where the page says the same; the
// rubric's words (grades, rings, pillars, gates, triage lenses) and the
// checks' titles, reasons and fixes are translated by their ids, as the
// HTML page does, when the stored English is the rubric's own; what was
// written for the scan (findings, evidence, summaries, the dossier's
// paragraphs) stays as written. Numbers and dates are in the language's
// form.

// loc is the document's localizer; English when none was given (the HTML
// view borrows the PDF's helpers with a document of its own).
func (d *doc) loc() *i18n.Localizer {
	if d.w == nil {
		d.w = i18n.For(i18n.English)
	}
	return d.w
}

// english says whether the document is written in English.
func (d *doc) english() bool { return d.loc().Lang() == i18n.English }

// tr is the message id in the document's language, its placeholders given
// as name, value pairs.
func (d *doc) tr(id string, pairs ...any) string {
	return d.loc().Tf(id, pairs...)
}

// count is the message id.zero, id.one or id.other for n, with n in
// {{.N}}: "no pages", "1 page", "3 pages".
func (d *doc) count(id string, n int) string {
	form := "other"
	switch n {
	case 0:
		form = "zero"
	case 1:
		form = "one"
	}
	return d.tr(id+"."+form, "N", d.int(n))
}

// int is n with the language's digit grouping.
func (d *doc) int(n int) string { return d.loc().Int(n) }

// num is f to the given decimals with the language's decimal mark.
func (d *doc) num(f float64, decimals int) string { return d.loc().Number(f, decimals) }

// day is t's day: "2 January 2006" in English, the language's numeric form
// otherwise.
func (d *doc) day(t time.Time) string {
	if d.english() {
		return t.UTC().Format("2 January 2006")
	}
	return d.loc().Date(t)
}

// moment is t's day and time in UTC.
func (d *doc) moment(t time.Time) string {
	return d.day(t) + ", " + t.UTC().Format("15:04") + " UTC"
}

// say is one of the labels the PDF shares with the page (editions, rings,
// statuses) in the document's language.
func (d *doc) say(s string) string {
	if d.english() {
		return s
	}
	if id, ok := labelIDs[s]; ok {
		return d.tr(id)
	}
	return s
}

// known is the message id in the document's language when english is its
// English text, and english otherwise: a stored text from another version
// of the rubric says what it said.
func (d *doc) known(id, english string) string {
	if d.english() {
		return english
	}
	if i18n.For(i18n.English).T(id, nil) != english {
		return english
	}
	return d.tr(id)
}

// word is a value of an enumeration the documents store in English, of a
// kind ("level" for impact and effort, "risk", "complexity",
// "confidence"), in the document's language: the kind tells the grammar
// its words agree with.
func (d *doc) word(kind, v string) string {
	if v == "" {
		return v
	}
	return d.known("pdf."+kind+"."+v, v)
}

// audience is the edition's audience as the catalogue names it.
func (d *doc) audience() string {
	if d.eng {
		return string(scoring.Engineering)
	}
	return string(scoring.Marketing)
}

// checkText is a check's title, reason or fix ("title", "why", "fix") in
// the document's language, english when there is no translation.
func (d *doc) checkText(id, field, english string) string {
	if english == "" || id == "" {
		return english
	}
	return d.loc().CheckText(id, d.audience(), field, english)
}

// grade is a grade's descriptor in the document's language.
func (d *doc) grade(grade, english string) string {
	return gradeText(d.loc(), grade, d.eng, english)
}

// pillarName is a pillar's name in the document's language.
func (d *doc) pillarName(id, english string) string {
	return d.known("pdf.pillar."+id, english)
}

// pillarText is a pillar's description in the document's language.
func (d *doc) pillarText(id, english string) string {
	return d.known("pdf.pillar."+id+"."+d.audience(), english)
}

// gateText is a fired gate's message in the document's language.
func (d *doc) gateText(id, english string) string {
	return d.known("pdf.gate."+id, english)
}

// and is "a", "a and b", "a, b and c" in the document's language.
func (d *doc) and(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + d.tr("pdf.and") + " " + items[len(items)-1]
}

// decimalsOf is how many decimals f needs to be written exactly.
func decimalsOf(f float64) int {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}
